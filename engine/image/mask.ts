/**
 * The engine's masks, in two forms that are different things:
 *  - Mask: 8-bit coverage (0..255, 255 = inside or foreground) over a whole frame (the image, or a model's
 *    view of it), one byte a pixel. What the matting models give, what region and parsing masks are handed
 *    out as, and what composites read.
 *  - MaskPlane: soft coverage (0..1, float) over a Rect of the image only. What the region kernels draw,
 *    feather and combine on: a face's window is a small part of the photo. toMask makes one a Mask.
 */
import type { Rect } from './rect.ts';

export interface Mask { data: Uint8Array; width: number; height: number }

/** Coverage 0..1 over `win`, row-major: index (y - win.y0) * win.w + (x - win.x0). */
export interface MaskPlane { plane: Float32Array; win: Rect }

/** The window's plane placed into a zero mask the size of the image. */
export function toMask(plane: Float32Array, win: Rect, size: { width: number; height: number }): Mask {
  const data = new Uint8Array(size.width * size.height);
  const xa = Math.max(0, win.x0), xb = Math.min(size.width, win.x0 + win.w);
  for (let y = Math.max(0, win.y0); y < Math.min(size.height, win.y0 + win.h); y++) {
    const src = (y - win.y0) * win.w - win.x0, dst = y * size.width;
    for (let x = xa; x < xb; x++) {
      const v = plane[src + x];
      data[dst + x] = v <= 0 ? 0 : v >= 1 ? 255 : Math.round(v * 255);
    }
  }
  return { data, width: size.width, height: size.height };
}

/** A plane (its own window) read into another window: zero where it does not reach. */
export function planeInto(r: MaskPlane | undefined, win: Rect): Float32Array {
  const out = new Float32Array(win.w * win.h);
  if (!r) return out;
  const x0 = Math.max(win.x0, r.win.x0), x1 = Math.min(win.x0 + win.w, r.win.x0 + r.win.w);
  const y0 = Math.max(win.y0, r.win.y0), y1 = Math.min(win.y0 + win.h, r.win.y0 + r.win.h);
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) out[(y - win.y0) * win.w + x - win.x0] = r.plane[(y - r.win.y0) * r.win.w + x - r.win.x0];
  return out;
}
