/** Planes for the skin kernels' tests, whose answer is known by construction. */
import type { LabFrame } from './blobs.ts';

export const W = 120, H = 100;
export const flat = (v = 60) => new Float32Array(W * H).fill(v);
export const ones = () => new Float32Array(W * H).fill(1);
/** A flat plane with a dark horizontal line of Gaussian profile (depth, σ px) from x0 to x1 at row y. */
export function withLine(depth: number, sigma: number, y: number, x0: number, x1: number) {
  const p = flat();
  for (let yy = 0; yy < H; yy++) for (let x = x0; x < x1; x++) p[yy * W + x] -= depth * Math.exp(-((yy - y) ** 2) / (2 * sigma * sigma));
  return p;
}
export function labOf(L: Float32Array, a = new Float32Array(W * H).fill(12), b = new Float32Array(W * H).fill(15)): LabFrame { return { L, a, b, w: W, h: H }; }
