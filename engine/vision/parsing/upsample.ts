/**
 * The fast guided filter (guided-filter.ts) for many planes over one guide, as face parsing needs it:
 * 19 class planes on a grid at about the crop's resolution, brought to full resolution with edges from the
 * photo. The guide's own window statistics are computed once for all planes, and each plane is filtered
 * and written only within its bounding box (grown by the filter's reach): most classes (eyes, lips,
 * ears) cover a small part of the window. Outside it the plane is zero, and so is the filter's output.
 */
import { boxMean } from '../../image/guided-filter.ts';
import type { Rect } from '../../image/rect.ts';

/** Mean and variance of the guide over every (2r+1)^2 window of the grid. */
export interface GuideStats { mean: Float32Array; variance: Float32Array; w: number; h: number; r: number }

export function guideStats(guide: Float32Array, w: number, h: number, r: number): GuideStats {
  const sq = new Float32Array(w * h);
  for (let i = 0; i < sq.length; i++) sq[i] = guide[i] * guide[i];
  const mean = boxMean(guide, w, h, r);
  const variance = boxMean(sq, w, h, r, sq);
  for (let i = 0; i < variance.length; i++) variance[i] = Math.max(0, variance[i] - mean[i] * mean[i]);
  return { mean, variance, w, h, r };
}

/** Bounding box (grid pixels, end exclusive) of the values above `min`, grown by `grow` and clipped; null when none. */
export function boundingBox(p: Float32Array, w: number, h: number, min: number, grow: number): Rect | null {
  let x0 = w, y0 = h, x1 = -1, y1 = -1;
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      if (p[row + x] > min) {
        if (x < x0) x0 = x; if (x > x1) x1 = x;
        if (y < y0) y0 = y; y1 = y;
      }
    }
  }
  if (x1 < 0) return null;
  const bx0 = Math.max(0, x0 - grow), by0 = Math.max(0, y0 - grow);
  return { x0: bx0, y0: by0, w: Math.min(w, x1 + 1 + grow) - bx0, h: Math.min(h, y1 + 1 + grow) - by0 };
}

/**
 * Window columns and rows (ascending) to compute a plane at, instead of every pixel: a caller that reads the
 * planes on a coarse grid gets exactly the full-resolution values there, for a fraction of the work. Points
 * outside 0..W-1 (0..H-1) read 0.
 */
export interface Lattice { xs: Int32Array; ys: Int32Array }

/**
 * One plane through the fast guided filter: coefficients on the grid within `box`, applied to the full-
 * resolution guide (W x H, the same area as the grid, pixel centres aligned) and written as 0..255 into a
 * zeroed W x H plane. The box must hold every grid value of p that matters, with 2r of margin. With `at`,
 * only at the lattice's points: `full` is then the guide there (xs.length x ys.length, row-major) and so
 * is the result.
 */
export function guidedUpsample(stats: GuideStats, guide: Float32Array, p: Float32Array, box: Rect, eps: number, full: Float32Array, W: number, H: number, at?: Lattice): Uint8Array {
  const { w, h, r } = stats;
  const bw = box.w, bh = box.h;
  const sub = new Float32Array(bw * bh), ip = new Float32Array(bw * bh);
  for (let y = 0; y < bh; y++) for (let x = 0; x < bw; x++) {
    const i = (box.y0 + y) * w + box.x0 + x, j = y * bw + x;
    sub[j] = p[i];
    ip[j] = p[i] * guide[i];
  }
  const mP = boxMean(sub, bw, bh, r);
  const mIP = boxMean(ip, bw, bh, r, ip);
  const a = mIP, b = mP;
  for (let y = 0; y < bh; y++) for (let x = 0; x < bw; x++) {
    const i = (box.y0 + y) * w + box.x0 + x, j = y * bw + x;
    const ai = (mIP[j] - stats.mean[i] * mP[j]) / (stats.variance[i] + eps);
    a[j] = ai;
    b[j] = mP[j] - ai * stats.mean[i];
  }
  const A = boxMean(a, bw, bh, r, sub), B = boxMean(b, bw, bh, r);
  return applyIn(A, B, box, w, h, full, W, H, at);
}

/**
 * q = A * I + B over the part of the W x H plane that the grid box covers (bilinear A, B), at every pixel
 * or at the lattice's points (the guide and the result then over the lattice).
 */
function applyIn(A: Float32Array, B: Float32Array, box: Rect, w: number, h: number, guide: Float32Array, W: number, H: number, at?: Lattice): Uint8Array {
  const nx = at ? at.xs.length : W, ny = at ? at.ys.length : H;
  const colOf = (k: number) => (at ? at.xs[k] : k), rowOf = (k: number) => (at ? at.ys[k] : k);
  const out = new Uint8Array(nx * ny);
  const bw = box.w, bh = box.h;
  const kx = w / W, ky = h / H;
  // Full-resolution pixels whose grid position (centres aligned) falls within the box.
  const xa = Math.max(0, Math.ceil((box.x0 + 0.5) / kx - 0.5)), xb = Math.min(W - 1, Math.floor((box.x0 + bw - 0.5) / kx - 0.5));
  const ya = Math.max(0, Math.ceil((box.y0 + 0.5) / ky - 0.5)), yb = Math.min(H - 1, Math.floor((box.y0 + bh - 0.5) / ky - 0.5));
  if (xb < xa || yb < ya) return out;
  // The lattice's columns within xa..xb: a run ka..kb, the columns being ascending.
  let ka = 0, kb = nx - 1;
  while (ka < nx && colOf(ka) < xa) ka++;
  while (kb >= 0 && colOf(kb) > xb) kb--;
  if (kb < ka) return out;
  const n = kb - ka + 1;
  const x0 = new Int32Array(n), fx = new Float32Array(n);
  for (let k = 0; k < n; k++) {
    const s = Math.min(Math.max((colOf(ka + k) + 0.5) * kx - 0.5 - box.x0, 0), bw - 1);
    x0[k] = Math.min(Math.floor(s), Math.max(0, bw - 2));
    fx[k] = bw === 1 ? 0 : s - x0[k];
  }
  const rowA = new Float32Array(bw), rowB = new Float32Array(bw);
  for (let q = 0; q < ny; q++) {
    const y = rowOf(q);
    if (y < ya || y > yb) continue;
    const s = Math.min(Math.max((y + 0.5) * ky - 0.5 - box.y0, 0), bh - 1);
    const y0 = Math.min(Math.floor(s), Math.max(0, bh - 2)), fy = bh === 1 ? 0 : s - y0;
    const o0 = y0 * bw, o1 = bh === 1 ? o0 : o0 + bw;
    for (let x = 0; x < bw; x++) {
      rowA[x] = A[o0 + x] + (A[o1 + x] - A[o0 + x]) * fy;
      rowB[x] = B[o0 + x] + (B[o1 + x] - B[o0 + x]) * fy;
    }
    for (let k = 0, o = q * nx + ka; k < n; k++, o++) {
      const i = x0[k], j = bw === 1 ? i : i + 1, t = fx[k];
      const v = ((rowA[i] + (rowA[j] - rowA[i]) * t) * guide[o] + rowB[i] + (rowB[j] - rowB[i]) * t) * 255;
      out[o] = v <= 0 ? 0 : v >= 255 ? 255 : v + 0.5;
    }
  }
  return out;
}
