/**
 * Frequency separation for retouching: a plane split into a low band (a Gaussian-like blur) and the high
 * band that holds what the blur removed (pores, fine hair, noise), so a retouch can smooth one band and
 * keep or restore the other. Planes are Float32Array, row-major, values in [0, 1].
 */
import { boxMean, expand, shrink } from '../guided-filter.ts';

/**
 * Gaussian-like blur with standard deviation about `sigma` pixels: three box means of radius r (variance
 * r(r + 1) each), clipped at the borders. O(pixels) at any sigma; below half a pixel the plane is returned.
 */
export function blurPlane(plane: Float32Array, w: number, h: number, sigma: number): Float32Array {
  const r = Math.round(Math.sqrt(sigma * sigma + 0.25) - 0.5);
  if (r < 1) return Float32Array.from(plane);
  return boxMean(boxMean(boxMean(plane, w, h, r), w, h, r), w, h, r);
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
