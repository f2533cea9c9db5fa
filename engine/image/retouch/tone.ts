/**
 * Skin whitening in CIE Lab (D65): lightness raised by an amount set by the skin's broad tone (more for
 * darker skin, none at white), so local detail keeps its contrast, and the chroma's local blotches (redness, uneven patches)
 * pulled toward the skin's broad tone. a and b are scaled together, so the hue angle of the broad tone
 * is kept: lighter and more even, not pinker or yellower. Pixels arrive as 8-bit RGB over a window and
 * a coverage mask says how much each takes the change.
 */
import { labToRgb, rgbToLab } from './color.ts';
import { blurPlaneCoarse } from './frequency.ts';


export interface WhitenOptions {
  /** 0..1. */
  strength: number;
  /** Lightness added at strength 1 to mid-grey skin (L 50), in L units; less toward white. */
  lift: number;
  /** Fraction of the chroma's local deviation from the broad tone removed at strength 1. */
  even: number;
  /** Sigma in pixels of the broad tone (about a tenth of the face). */
  toneSigma: number;
}

/**
 * Whitens `rgb` (interleaved, `ch` channels, w x h) in place where `mask` (0..1 per pixel) says.
 * The broad tone is the mask-weighted blur of a and b, so background colour never leaks into it.
 */
export function whitenSkin(rgb: Uint8Array | Buffer, ch: number, w: number, h: number, mask: Float32Array, o: WhitenOptions): void {
  const n = w * h;
  const L = new Float32Array(n), A = new Float32Array(n), B = new Float32Array(n);
  const lab = [0, 0, 0];
  const wl = new Float32Array(n), wa = new Float32Array(n), wb = new Float32Array(n);
  for (let i = 0, j = 0; i < n; i++, j += ch) {
    if (mask[i] <= 0) continue;
    rgbToLab(rgb[j], rgb[j + 1], rgb[j + 2], lab);
    L[i] = lab[0]; A[i] = lab[1]; B[i] = lab[2];
    wl[i] = mask[i] * lab[0]; wa[i] = mask[i] * lab[1]; wb[i] = mask[i] * lab[2];
  }
  const blur = (p: Float32Array) => blurPlaneCoarse(p, w, h, o.toneSigma);
  const m = blur(mask), ml = blur(wl), ma = blur(wa), mb = blur(wb);
  const s = o.strength;
  for (let i = 0, j = 0; i < n; i++, j += ch) {
    const k = mask[i];
    if (k <= 0) continue;
    const broad = m[i] > 1e-3;
    const toneL = broad ? ml[i] / m[i] : L[i], toneA = broad ? ma[i] / m[i] : A[i], toneB = broad ? mb[i] / m[i] : B[i];
    // The lift follows the broad tone, not the pixel: stubble and creases darker than the skin around them
    // keep their contrast (a pixel-wise lift lifted them most and paled the stubble on group photos). It
    // falls to zero at white, and near white per pixel, so light skin is not bleached nor highlights clipped.
    const l = L[i] + k * s * o.lift * Math.min(1.5, (100 - toneL) / 50, (100 - L[i]) / 20);
    const e = 1 - k * s * o.even;
    labToRgb(l, toneA + (A[i] - toneA) * e, toneB + (B[i] - toneB) * e, rgb, j);
  }
}
