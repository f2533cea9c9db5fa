/**
 * Gaussian blur for the skin measures. The retouch blur (three box means) cannot go below σ ≈ 1.4 px
 * (one box of radius 1), and the fine scales here are 0.6-1.4 px on small faces, so those get an explicit
 * separable kernel (radius 3σ); wider ones the box means, which cost the same at any σ.
 */
import { blurPlane } from '../../image/retouch/frequency.ts';

export function gauss(plane: Float32Array, w: number, h: number, sigma: number): Float32Array {
  if (sigma >= 2.5) return blurPlane(plane, w, h, sigma);
  if (sigma < 0.3) return Float32Array.from(plane);
  const r = Math.ceil(3 * sigma), k = new Float32Array(2 * r + 1);
  let sum = 0;
  for (let i = -r; i <= r; i++) { k[i + r] = Math.exp(-(i * i) / (2 * sigma * sigma)); sum += k[i + r]; }
  for (let i = 0; i < k.length; i++) k[i] /= sum;
  const tmp = new Float32Array(w * h), out = new Float32Array(w * h);
  // Rows: the clamped borders apart from the interior, whose taps need no bounds checks.
  for (let y = 0; y < h; y++) {
    const o = y * w;
    for (let x = 0; x < w; x++) {
      let s = 0;
      if (x >= r && x < w - r) for (let i = -r, j = o + x - r; i <= r; i++, j++) s += k[i + r] * plane[j];
      else for (let i = -r; i <= r; i++) { const xx = x + i < 0 ? 0 : x + i >= w ? w - 1 : x + i; s += k[i + r] * plane[o + xx]; }
      tmp[o + x] = s;
    }
  }
  // Columns, a row at a time (each tap a whole row: sequential memory), summed in double as the rows are.
  const acc = new Float64Array(w);
  for (let y = 0; y < h; y++) {
    acc.fill(0);
    for (let i = -r; i <= r; i++) {
      const yy = y + i < 0 ? 0 : y + i >= h ? h - 1 : y + i, src = yy * w, kv = k[i + r];
      for (let x = 0; x < w; x++) acc[x] += kv * tmp[src + x];
    }
    out.set(acc, y * w);
  }
  return out;
}
