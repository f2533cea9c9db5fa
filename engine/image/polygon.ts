/**
 * Anti-aliased rasterisation into float coverage planes (0..1) over a window of the image: polygons by
 * scanlines (SUB rows per pixel, exact coverage along each row) and discs by distance. Even-odd rule.
 */
import type { Rect } from './rect.ts';

export type Pt = readonly [number, number] | readonly [number, number, number];

const SUB = 8;

/** Adds the coverage of a polygon (image coordinates, pixel (x, y) spans [x, x+1)) into `out` with max(). */
export function fillPolygon(points: readonly Pt[], win: Rect, out: Float32Array = new Float32Array(win.w * win.h)): Float32Array {
  const n = points.length;
  if (n < 3) return out;
  const row = new Float32Array(win.w + 2);
  let ymin = Infinity, ymax = -Infinity;
  for (const p of points) { ymin = Math.min(ymin, p[1]); ymax = Math.max(ymax, p[1]); }
  const r0 = Math.max(0, Math.floor(ymin) - win.y0), r1 = Math.min(win.h - 1, Math.ceil(ymax) - win.y0);
  const xs: number[] = [];
  for (let r = r0; r <= r1; r++) {
    row.fill(0);
    let touched = false;
    for (let s = 0; s < SUB; s++) {
      const y = win.y0 + r + (s + 0.5) / SUB;
      xs.length = 0;
      for (let i = 0, j = n - 1; i < n; j = i++) {
        const [xi, yi] = points[i], [xj, yj] = points[j];
        if ((yi > y) !== (yj > y)) xs.push(xi + ((y - yi) * (xj - xi)) / (yj - yi));
      }
      if (xs.length < 2) continue;
      xs.sort((a, b) => a - b);
      for (let k = 0; k + 1 < xs.length; k += 2) { addSpan(row, xs[k] - win.x0, xs[k + 1] - win.x0, win.w); touched = true; }
    }
    if (!touched) continue;
    const o = r * win.w;
    for (let x = 0; x < win.w; x++) {
      const v = row[x] / SUB;
      if (v > out[o + x]) out[o + x] = v > 1 ? 1 : v;
    }
  }
  return out;
}

/** Adds [a, b) (window x) to a row: whole pixels get 1, the end pixels their covered fraction. */
function addSpan(row: Float32Array, a: number, b: number, w: number) {
  a = Math.max(0, a); b = Math.min(w, b);
  if (b <= a) return;
  const ia = Math.floor(a), ib = Math.floor(b);
  if (ia === ib) { row[ia] += b - a; return; }
  row[ia] += ia + 1 - a;
  for (let x = ia + 1; x < ib; x++) row[x] += 1;
  if (ib < w) row[ib] += b - ib;
}

/** Adds an anti-aliased disc into `out` with max(). */
export function fillDisc(cx: number, cy: number, r: number, win: Rect, out: Float32Array = new Float32Array(win.w * win.h)): Float32Array {
  const x0 = Math.max(0, Math.floor(cx - r - 1) - win.x0), x1 = Math.min(win.w - 1, Math.ceil(cx + r + 1) - win.x0);
  const y0 = Math.max(0, Math.floor(cy - r - 1) - win.y0), y1 = Math.min(win.h - 1, Math.ceil(cy + r + 1) - win.y0);
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const d = Math.hypot(win.x0 + x + 0.5 - cx, win.y0 + y + 0.5 - cy);
      const v = Math.min(1, Math.max(0, r - d + 0.5));
      const o = y * win.w + x;
      if (v > out[o]) out[o] = v;
    }
  }
  return out;
}
