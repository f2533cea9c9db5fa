/**
 * Skin whitening in CIE Lab (D65): lightness raised, more where the skin is darker than its surroundings
 * (shadows of blotches) and less near white, and the chroma's local blotches (redness, uneven patches)
 * pulled toward the skin's broad tone. a and b are scaled together, so the hue angle of the broad tone
 * is kept: lighter and more even, not pinker or yellower. Pixels arrive as 8-bit RGB over a window and
 * a coverage mask says how much each takes the change.
 */
import { blurPlane } from './frequency.ts';

// A private sRGB <-> Lab pair (to be unified with the shared colour module): per-pixel library calls on
// a whole face would allocate an object per pixel.
const LIN = new Float32Array(256).map((_, i) => { const c = i / 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
const XN = 0.95047, ZN = 1.08883;
const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
const fInv = (t: number) => (t > 6 / 29 ? t * t * t : (116 * t - 16) / (24389 / 27));
const gamma = (c: number) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);

export function rgbToLab(r: number, g: number, b: number, out: Float32Array | number[], o = 0): void {
  const R = LIN[r], G = LIN[g], B = LIN[b];
  const x = f((0.4124564 * R + 0.3575761 * G + 0.1804375 * B) / XN);
  const y = f(0.2126729 * R + 0.7151522 * G + 0.072175 * B);
  const z = f((0.0193339 * R + 0.119192 * G + 0.9503041 * B) / ZN);
  out[o] = 116 * y - 16; out[o + 1] = 500 * (x - y); out[o + 2] = 200 * (y - z);
}

/** Lab to 8-bit sRGB, clipped. */
export function labToRgb(L: number, a: number, b: number, out: Uint8Array | Buffer | number[], o = 0): void {
  const fy = (L + 16) / 116, fx = fy + a / 500, fz = fy - b / 200;
  const X = XN * fInv(fx), Y = fInv(fy), Z = ZN * fInv(fz);
  const R = 3.2404542 * X - 1.5371385 * Y - 0.4985314 * Z;
  const G = -0.969266 * X + 1.8760108 * Y + 0.041556 * Z;
  const B = 0.0556434 * X - 0.2040259 * Y + 1.0572252 * Z;
  const to8 = (c: number) => { const v = gamma(Math.min(1, Math.max(0, c))) * 255 + 0.5; return v > 255 ? 255 : v | 0; };
  out[o] = to8(R); out[o + 1] = to8(G); out[o + 2] = to8(B);
}

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
  const wa = new Float32Array(n), wb = new Float32Array(n);
  for (let i = 0, j = 0; i < n; i++, j += ch) {
    if (mask[i] <= 0) continue;
    rgbToLab(rgb[j], rgb[j + 1], rgb[j + 2], lab);
    L[i] = lab[0]; A[i] = lab[1]; B[i] = lab[2];
    wa[i] = mask[i] * lab[1]; wb[i] = mask[i] * lab[2];
  }
  const m = blurPlane(mask, w, h, o.toneSigma), ma = blurPlane(wa, w, h, o.toneSigma), mb = blurPlane(wb, w, h, o.toneSigma);
  const s = o.strength;
  for (let i = 0, j = 0; i < n; i++, j += ch) {
    const k = mask[i];
    if (k <= 0) continue;
    const toneA = m[i] > 1e-3 ? ma[i] / m[i] : A[i], toneB = m[i] > 1e-3 ? mb[i] / m[i] : B[i];
    // Lift falls to zero at white, so highlights are not clipped and light skin is not bleached.
    const l = L[i] + k * s * o.lift * Math.min(1.5, (100 - L[i]) / 50);
    const e = 1 - k * s * o.even;
    labToRgb(l, toneA + (A[i] - toneA) * e, toneB + (B[i] - toneB) * e, rgb, j);
  }
}
