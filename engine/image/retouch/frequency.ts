/**
 * Frequency separation for retouching: a plane split into a low band (a Gaussian-like blur) and the high
 * band that holds what the blur removed (pores, fine hair, noise), so a retouch can smooth one band and
 * keep or restore the other. Planes are Float32Array, row-major, values in [0, 1].
 */
import { boxMean } from '../guided-filter.ts';

/**
 * Gaussian-like blur with standard deviation about `sigma` pixels: three box means of radius r (variance
 * r(r + 1) each), clipped at the borders. O(pixels) at any sigma; below half a pixel the plane is returned.
 */
export function blurPlane(plane: Float32Array, w: number, h: number, sigma: number): Float32Array {
  const r = Math.round(Math.sqrt(sigma * sigma + 0.25) - 0.5);
  if (r < 1) return Float32Array.from(plane);
  return boxMean(boxMean(boxMean(plane, w, h, r), w, h, r), w, h, r);
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
 * local mean of skin that never takes in the hair, eyes or background beside it. Where no weight lies
 * within reach the plane itself is returned.
 */
export function maskedBlur(plane: Float32Array, weight: Float32Array, w: number, h: number, sigma: number): Float32Array {
  const pw = new Float32Array(plane.length);
  for (let i = 0; i < pw.length; i++) pw[i] = plane[i] * weight[i];
  const num = blurPlane(pw, w, h, sigma), den = blurPlane(weight, w, h, sigma);
  for (let i = 0; i < num.length; i++) num[i] = den[i] > 1e-3 ? num[i] / den[i] : plane[i];
  return num;
}
