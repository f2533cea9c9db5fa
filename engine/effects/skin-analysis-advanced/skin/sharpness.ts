/** How much fine detail a face's frame holds: the blur gate's measure, and the scale fine lines are read at. */
import { gauss as blurPlane } from '../../../image/gauss.ts';
import type { Rect } from '../../../image/rect.ts';
import { SHARP_FULL } from '../tuning.ts';
import type { Frame } from './frame.ts';

/** Frame px/mm times the share of fine detail the frame holds (sharpness over SHARP_FULL, at most 1). */
export const resolvedScale = (s: number, sharp: number) => s * Math.min(1, sharp / SHARP_FULL);

/**
 * Sharpness: RMS of detail finer than 0.3 mm over RMS of 0.3-1.2 mm detail, around the eyes and brows.
 * Blurred only over the area and a margin of 3 coarse σ (what the blur reaches), not the whole frame.
 */
export function sharpness(L: Float32Array, w: number, h: number, s: number, area: Rect): number {
  const sf = Math.max(0.6, 0.3 * s), sc = Math.max(1.2, 1.2 * s), m = Math.ceil(3 * sc);
  const ax1 = area.x0 + area.w, ay1 = area.y0 + area.h;
  const cx0 = Math.max(0, area.x0 - m), cy0 = Math.max(0, area.y0 - m), cx1 = Math.min(w, ax1 + m), cy1 = Math.min(h, ay1 + m);
  const cw = cx1 - cx0, ch = cy1 - cy0;
  if (cw <= 2 || ch <= 2) return 0;
  const crop = new Float32Array(cw * ch);
  for (let y = 0; y < ch; y++) crop.set(L.subarray((cy0 + y) * w + cx0, (cy0 + y) * w + cx1), y * cw);
  const f = blurPlane(crop, cw, ch, sf), c = blurPlane(crop, cw, ch, sc);
  let ef = 0, em = 0;
  for (let y = Math.max(1, area.y0); y < Math.min(h - 1, ay1); y++) {
    for (let x = Math.max(1, area.x0); x < Math.min(w - 1, ax1); x++) {
      const i = (y - cy0) * cw + (x - cx0);
      ef += (crop[i] - f[i]) ** 2; em += (f[i] - c[i]) ** 2;
    }
  }
  return em > 0 ? Math.sqrt(ef / em) : 0;
}

/** The eyes-and-brows box of a frame (the sharpness probe's area). */
export function eyeArea(f: Frame): Rect {
  const idx = [46, 53, 52, 65, 55, 33, 133, 145, 159, 276, 283, 282, 295, 285, 263, 362, 374, 386];
  const xs = idx.map((i) => f.mesh[i][0]), ys = idx.map((i) => f.mesh[i][1]);
  const m = 3 * f.s;
  const x0 = Math.floor(Math.min(...xs) - m), y0 = Math.floor(Math.min(...ys) - m);
  return { x0, y0, w: Math.ceil(Math.max(...xs) + m) - x0, h: Math.ceil(Math.max(...ys) + m) - y0 };
}
