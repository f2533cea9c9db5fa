/**
 * Snaps a mesh-drawn mask to the photo's own edges with a guided filter over the mask's window: the
 * output is locally a linear function of a guide plane (luma for iris and teeth, a redness plane for
 * lips), so its edge moves to where the guide changes. The change stays within `radius` of the drawn
 * edge: no spill into far skin, no holes deep inside.
 */
import type { RasterImage } from '../../image/raster.ts';
import { guidedFilter } from '../../image/guided-filter.ts';
import { grow } from '../../image/feather.ts';
import type { Rect } from '../../image/rect.ts';

export type Guide = 'luma' | 'redness';

/** The guide over the window, stretched to 0..1 (the filter's eps is relative to the guide's spread). */
export function guidePlane(image: RasterImage, win: Rect, kind: Guide): Float32Array {
  const g = new Float32Array(win.w * win.h);
  const c = image.channels;
  let lo = Infinity, hi = -Infinity;
  for (let y = 0; y < win.h; y++) {
    const row = ((win.y0 + y) * image.width + win.x0) * c;
    for (let x = 0; x < win.w; x++) {
      const i = row + x * c;
      const r = image.data[i], gr = image.data[i + 1], b = image.data[i + 2];
      const v = kind === 'luma' ? 0.299 * r + 0.587 * gr + 0.114 * b : (r - gr) / (r + gr + b + 30);
      g[y * win.w + x] = v;
      if (v < lo) lo = v; if (v > hi) hi = v;
    }
  }
  const k = hi > lo ? 1 / (hi - lo) : 0;
  for (let i = 0; i < g.length; i++) g[i] = (g[i] - lo) * k;
  return g;
}

export function refineEdges(plane: Float32Array, win: Rect, image: RasterImage, kind: Guide, radius: number, eps = 0.004): Float32Array {
  const r = Math.max(1, Math.round(radius));
  const q = guidedFilter(guidePlane(image, win, kind), plane, win.w, win.h, r, eps);
  const outer = grow(plane, win, 1.5 * r);
  const inv = new Float32Array(plane.length);
  for (let i = 0; i < inv.length; i++) inv[i] = 1 - plane[i];
  const notInner = grow(inv, win, 1.5 * r);
  for (let i = 0; i < q.length; i++) {
    const v = Math.min(Math.max(q[i], 0), 1, outer[i]);
    q[i] = Math.max(v, 1 - notInner[i]);
  }
  return q;
}
