/**
 * Frequency separation for retouching: a plane split into a low band (a Gaussian-like blur) and the high
 * band that holds what the blur removed (pores, fine hair, noise), so a retouch can smooth one band and
 * keep or restore the other. Planes are Float32Array, row-major, values in [0, 1].
 */
import { boxMean, expand, shrink } from './guided-filter.ts';

/**
 * Gaussian-like blur with standard deviation about `sigma` pixels: three box means of radius r (variance
 * r(r + 1) each), clipped at the borders. O(pixels) at any sigma; below half a pixel the plane is returned.
 */
export function blurPlane(plane: Float32Array, w: number, h: number, sigma: number): Float32Array {
  const r = Math.round(Math.sqrt(sigma * sigma + 0.25) - 0.5);
  if (r < 1) return Float32Array.from(plane);
  // boxMean may write over its input (it reads the input only into its own scratch plane first).
  const out = boxMean(plane, w, h, r);
  return boxMean(boxMean(out, w, h, r, out), w, h, r, out);
}

/**
 * blurPlane for broad sigmas (a tenth of a face): blurred on a grid of sigma/4 blocks and brought back
 * bilinearly, at 1/16 or less of the cost. A broad blur has no detail the coarse grid could lose.
 */
export function blurPlaneCoarse(plane: Float32Array, w: number, h: number, sigma: number): Float32Array {
  const s = Math.floor(sigma / 4);
  if (s < 2) return blurPlane(plane, w, h, sigma);
  const gw = Math.ceil(w / s), gh = Math.ceil(h / s);
  // The blocks' own averaging adds a variance of s^2 / 12 per axis.
  const small = blurPlane(shrink(plane, w, h, s, gw, gh), gw, gh, Math.sqrt(sigma * sigma - (s * s) / 12) / s);
  return expand(small, gw, gh, w, h, s);
}

export interface Bands { low: Float32Array; high: Float32Array }

/** low = blur(plane, sigma), high = plane - low; low + high is the plane again. */
export function splitBands(plane: Float32Array, w: number, h: number, sigma: number): Bands {
  const low = blurPlane(plane, w, h, sigma);
  const high = new Float32Array(plane.length);
  for (let i = 0; i < high.length; i++) high[i] = plane[i] - low[i];
  return { low, high };
}

/** low + k * high, written into `out` (a new plane by default). */
export function mergeBands(low: Float32Array, high: Float32Array, k = 1, out = new Float32Array(low.length)): Float32Array {
  for (let i = 0; i < out.length; i++) out[i] = low[i] + k * high[i];
  return out;
}

/** Mean square of a high band over the pixels where `weight` > 0, weighted: a texture energy. */
export function bandEnergy(high: Float32Array, weight: Float32Array): number {
  let s = 0, n = 0;
  for (let i = 0; i < high.length; i++) { const m = weight[i]; if (m > 0) { s += m * high[i] * high[i]; n += m; } }
  return n > 0 ? s / n : 0;
}

/**
 * The blur of `plane` over the pixels where `weight` (0..1) is on, normalised by the blurred weight: a
 * local mean of skin that never takes in the hair, eyes or background beside it (wide sigmas through
 * blurCoarse). Where no weight lies within reach the plane itself is returned.
 */
export function maskedBlur(plane: Float32Array, weight: Float32Array, w: number, h: number, sigma: number): Float32Array {
  const pw = new Float32Array(plane.length);
  for (let i = 0; i < pw.length; i++) pw[i] = plane[i] * weight[i];
  const num = blurCoarse(pw, w, h, sigma), den = blurCoarse(weight, w, h, sigma);
  for (let i = 0; i < num.length; i++) num[i] = den[i] > 1e-3 ? num[i] / den[i] : plane[i];
  return num;
}

/**
 * blurPlane for wide sigmas at a fraction of the cost: box-averaged down by a factor of about sigma / 3,
 * blurred there, bilinearly back up. The result is smooth by construction, so the sampling shows no
 * blocks; used where a local mean of skin is wanted (millimetres wide), not an exact Gaussian.
 */
export function blurCoarse(plane: Float32Array, w: number, h: number, sigma: number): Float32Array {
  const f = Math.floor(sigma / 3);
  if (f < 2) return blurPlane(plane, w, h, sigma);
  const sw = Math.ceil(w / f), sh = Math.ceil(h / f);
  const small = new Float32Array(sw * sh), cnt = new Float32Array(sw * sh);
  const cell = new Int32Array(w);
  for (let x = 0; x < w; x++) cell[x] = (x / f) | 0;
  for (let y = 0; y < h; y++) for (let x = 0, i = y * w, r = ((y / f) | 0) * sw; x < w; x++, i++) { const j = r + cell[x]; small[j] += plane[i]; cnt[j]++; }
  for (let j = 0; j < small.length; j++) small[j] /= cnt[j];
  const b = blurPlane(small, sw, sh, Math.sqrt(Math.max(0, sigma * sigma - (f * f) / 12)) / f);
  const out = new Float32Array(w * h);
  // Cell centres sit at (k + 0.5) f - 0.5 in full-resolution pixels; the columns' cells and weights are the
  // same on every row, so they are found once.
  const X0 = new Int32Array(w), X1 = new Int32Array(w), TX = new Float64Array(w);
  for (let x = 0; x < w; x++) {
    const fx = Math.min(sw - 1, Math.max(0, (x + 0.5) / f - 0.5)), x0 = Math.floor(fx);
    X0[x] = x0; X1[x] = Math.min(sw - 1, x0 + 1); TX[x] = fx - x0;
  }
  for (let y = 0; y < h; y++) {
    const fy = Math.min(sh - 1, Math.max(0, (y + 0.5) / f - 0.5)), y0 = Math.floor(fy), y1 = Math.min(sh - 1, y0 + 1), ty = fy - y0;
    const r0 = y0 * sw, r1 = y1 * sw, o = y * w;
    for (let x = 0; x < w; x++) {
      const x0 = X0[x], x1 = X1[x], tx = TX[x];
      const top = b[r0 + x0] + (b[r0 + x1] - b[r0 + x0]) * tx, bot = b[r1 + x0] + (b[r1 + x1] - b[r1 + x0]) * tx;
      out[o + x] = top + (bot - top) * ty;
    }
  }
  return out;
}
