/**
 * Soft-mask kernels over float planes (0..1) on a window of the image: Gaussian feathering, growing and
 * the set operations (image/mask.ts's toMask makes the final full-resolution 8-bit Mask). faceRegions() is
 * synchronous (the agreed API), so the blur is three running box means in JS (O(pixels) at any radius; the
 * shared boxMean) rather than sharp's asynchronous one.
 */
import { boxMean } from './guided-filter.ts';
import type { Rect } from './rect.ts';

/**
 * Gaussian-like blur with standard deviation about `sigma` pixels: three box means of radius r, whose
 * variance is r(r + 1), clipped at the window's edges. Only the part of the window the blur can reach is
 * blurred (features such as eyes and lips are a small part of a face's window): three box means reach 3r,
 * and past 4r + 1 of margin the window's clipped edge cannot tell the part from the whole, so the result
 * is the same.
 */
export function feather(plane: Float32Array, win: Rect, sigma: number): Float32Array {
  const r = featherRadius(sigma);
  if (r < 1) return plane;
  const m = 4 * r + 1;
  let x0 = win.w, y0 = win.h, x1 = -1, y1 = -1;
  for (let y = 0; y < win.h; y++) {
    for (let x = 0, i = y * win.w; x < win.w; x++, i++) {
      if (plane[i] !== 0) { if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; y1 = y; }
    }
  }
  if (x1 < 0) return new Float32Array(plane.length);
  x0 = Math.max(0, x0 - m); y0 = Math.max(0, y0 - m); x1 = Math.min(win.w, x1 + 1 + m); y1 = Math.min(win.h, y1 + 1 + m);
  const bw = x1 - x0, bh = y1 - y0;
  if (bw === win.w && bh === win.h) return boxMean(boxMean(boxMean(plane, bw, bh, r), bw, bh, r), bw, bh, r);
  const sub = new Float32Array(bw * bh);
  for (let y = 0; y < bh; y++) sub.set(plane.subarray((y0 + y) * win.w + x0, (y0 + y) * win.w + x1), y * bw);
  const b = boxMean(boxMean(boxMean(sub, bw, bh, r), bw, bh, r), bw, bh, r);
  const out = new Float32Array(plane.length);
  for (let y = 0; y < bh; y++) out.set(b.subarray(y * bw, (y + 1) * bw), (y0 + y) * win.w + x0);
  return out;
}

/** The box radius feather() uses for `sigma`. */
const featherRadius = (sigma: number) => Math.round(Math.sqrt(sigma * sigma + 0.25) - 0.5);

/**
 * How far past a plane's non-zero pixels feather(sigma) reads or writes: a plane cut to its non-zero part
 * widened by this much (or to the window's edge) feathers to the same values there, and 0 elsewhere.
 */
export const featherReach = (sigma: number): number => { const r = featherRadius(sigma); return r < 1 ? 0 : 4 * r + 1; };

/** Grows a mask softly: full coverage out to about px / 2 beyond its edge, fading to nothing by px. */
export function grow(plane: Float32Array, win: Rect, px: number): Float32Array {
  // Blur with sigma px/3: one and a half sigmas out the blurred edge is at 0.067 of full, three sigmas out ~0.
  // feather hands back a new plane, or the input itself when the blur is under a pixel: only then copied.
  const f = feather(plane, win, Math.max(1, px / 3)), b = f === plane ? Float32Array.from(f) : f;
  for (let i = 0; i < b.length; i++) if (b[i] !== 0) b[i] = Math.min(1, b[i] / 0.067);
  return b;
}

/** a without b: a * (1 - b). */
export function minus(a: Float32Array, ...bs: Float32Array[]): Float32Array {
  const out = Float32Array.from(a);
  for (const b of bs) for (let i = 0; i < out.length; i++) out[i] *= 1 - b[i];
  return out;
}

export function union(...planes: Float32Array[]): Float32Array {
  const out = Float32Array.from(planes[0]);
  for (const p of planes.slice(1)) for (let i = 0; i < out.length; i++) if (p[i] > out[i]) out[i] = p[i];
  return out;
}

export function times(a: Float32Array, b: Float32Array): Float32Array {
  const out = new Float32Array(a.length);
  for (let i = 0; i < out.length; i++) out[i] = a[i] * b[i];
  return out;
}
