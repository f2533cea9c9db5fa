/**
 * Skin whitening in CIE Lab (D65): lightness raised by an amount set by the skin's broad tone (more for
 * darker skin, none at white), so local detail keeps its contrast, and the chroma's local blotches (redness, uneven patches)
 * pulled toward the skin's broad tone. a and b are scaled together, so the hue angle of the broad tone
 * is kept: lighter and more even, not pinker or yellower. Pixels arrive as 8-bit RGB over a window and
 * a coverage mask says how much each takes the change.
 */
import { labToRgb, rgbToLab } from '../image/colour.ts';
import { blurPlane } from '../image/frequency.ts';


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
  // The mask-weighted sums of the broad tone go straight onto the grid of blurPlaneCoarse's blocks
  // (sigma / 4): no full-size plane is blurred or brought back, the grid is read bilinearly at the covered
  // pixels alone (the values blurPlaneCoarse's expand would give there).
  const s = Math.max(1, Math.floor(o.toneSigma / 4));
  const gw = Math.ceil(w / s), gh = Math.ceil(h / s), gn = gw * gh;
  const gm = new Float32Array(gn), gl = new Float32Array(gn), ga = new Float32Array(gn), gb = new Float32Array(gn), cnt = new Float32Array(gn);
  const L = new Float32Array(n), A = new Float32Array(n), B = new Float32Array(n);
  const lab = [0, 0, 0];
  const cellX = new Int32Array(w);
  for (let x = 0; x < w; x++) cellX[x] = (x / s) | 0;
  for (let y = 0; y < h; y++) {
    const row = ((y / s) | 0) * gw;
    for (let x = 0, i = y * w, j = i * ch; x < w; x++, i++, j += ch) {
      const c = row + cellX[x];
      cnt[c]++;
      const k = mask[i];
      if (k <= 0) continue;
      rgbToLab(rgb[j], rgb[j + 1], rgb[j + 2], lab);
      L[i] = lab[0]; A[i] = lab[1]; B[i] = lab[2];
      gm[c] += k; gl[c] += k * lab[0]; ga[c] += k * lab[1]; gb[c] += k * lab[2];
    }
  }
  // Block means, then blurred on the grid (the blocks' own averaging adds s^2 / 12 of variance per axis).
  const sigma = s === 1 ? o.toneSigma : Math.sqrt(Math.max(0, o.toneSigma * o.toneSigma - (s * s) / 12)) / s;
  const blur = (p: Float32Array) => { for (let c = 0; c < gn; c++) p[c] /= cnt[c]; return blurPlane(p, gw, gh, sigma); };
  const m = blur(gm), ml = blur(gl), ma = blur(ga), mb = blur(gb);
  // Bilinear between block centres ((c + 0.5) s - 0.5 in pixels), clamped at the grid's edges.
  const x0s = new Int32Array(w), txs = new Float32Array(w);
  for (let x = 0; x < w; x++) {
    const f = Math.min(Math.max((x + 0.5) / s - 0.5, 0), gw - 1);
    x0s[x] = Math.min(Math.floor(f), Math.max(0, gw - 2)); txs[x] = gw === 1 ? 0 : f - x0s[x];
  }
  const dx = gw === 1 ? 0 : 1, st = o.strength;
  for (let y = 0; y < h; y++) {
    const fy = Math.min(Math.max((y + 0.5) / s - 0.5, 0), gh - 1), y0 = Math.min(Math.floor(fy), Math.max(0, gh - 2));
    const ty = gh === 1 ? 0 : fy - y0, r0 = y0 * gw, r1 = gh === 1 ? r0 : r0 + gw;
    for (let x = 0, i = y * w, j = i * ch; x < w; x++, i++, j += ch) {
      const k = mask[i];
      if (k <= 0) continue;
      const a00 = r0 + x0s[x], a01 = a00 + dx, a10 = r1 + x0s[x], a11 = a10 + dx, tx = txs[x];
      const w00 = (1 - tx) * (1 - ty), w01 = tx * (1 - ty), w10 = (1 - tx) * ty, w11 = tx * ty;
      const mm = w00 * m[a00] + w01 * m[a01] + w10 * m[a10] + w11 * m[a11], broad = mm > 1e-3;
      const toneL = broad ? (w00 * ml[a00] + w01 * ml[a01] + w10 * ml[a10] + w11 * ml[a11]) / mm : L[i];
      const toneA = broad ? (w00 * ma[a00] + w01 * ma[a01] + w10 * ma[a10] + w11 * ma[a11]) / mm : A[i];
      const toneB = broad ? (w00 * mb[a00] + w01 * mb[a01] + w10 * mb[a10] + w11 * mb[a11]) / mm : B[i];
      // The lift follows the broad tone, not the pixel: stubble and creases darker than the skin around them
      // keep their contrast (a pixel-wise lift lifted them most and paled the stubble on group photos). It
      // falls to zero at white, and near white per pixel, so light skin is not bleached nor highlights clipped.
      const l = L[i] + k * st * o.lift * Math.min(1.5, (100 - toneL) / 50, (100 - L[i]) / 20);
      const e = 1 - k * st * o.even;
      labToRgb(l, toneA + (A[i] - toneA) * e, toneB + (B[i] - toneB) * e, rgb, j);
    }
  }
}
