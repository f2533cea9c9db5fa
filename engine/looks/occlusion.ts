/**
 * Leaving what covers a face as it was: the photo's own pixels back over each occluder (vision/regions/
 * occlusion.ts), and an edit that fades in from the occluder's edge over a short feather, so an effect never
 * paints over a hand or a microphone and never ends at it in a hard seam.
 */
import { feather } from '../image/feather.ts';
import type { Mask } from '../image/mask.ts';
import type { Rect } from '../image/rect.ts';

interface Pixels { data: Uint8Array; width: number; height: number; channels: number }

/** One face's occluders and how wide the edit fades in from their edge (pixels). */
export interface Occluders { mask: Mask; feather: number }

/**
 * `original` back into `result` over each occluder: fully on it, fading out over `feather` pixels beyond its
 * edge (the blend weight is the occluder grown by half the feather, then blurred by a third of it, so the
 * occluder itself keeps weight 1 and the fade lies outside it).
 */
export function keepOccluded(result: Pixels, original: Pixels, occluders: readonly Occluders[]): void {
  const { width: W, height: H, channels: ch } = result;
  for (const { mask, feather: px } of occluders) {
    let x0 = W, y0 = H, x1 = -1, y1 = -1;
    for (let y = 0; y < H; y++) for (let x = 0, i = y * W; x < W; x++, i++) {
      if (mask.data[i]) { if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; y1 = y; }
    }
    if (x1 < 0) continue;
    const m = Math.ceil(2 * px) + 2;
    const win: Rect = { x0: Math.max(0, x0 - m), y0: Math.max(0, y0 - m), w: 0, h: 0 };
    win.w = Math.min(W, x1 + 1 + m) - win.x0; win.h = Math.min(H, y1 + 1 + m) - win.y0;
    const plane = new Float32Array(win.w * win.h);
    for (let y = 0; y < win.h; y++) for (let x = 0; x < win.w; x++) plane[y * win.w + x] = mask.data[(win.y0 + y) * W + win.x0 + x] / 255;
    const sigma = Math.max(1, px / 3);
    // Grown by about 1.5 sigma (where the blur still reaches 5 %), then blurred: the weight is near 1 at the
    // occluder's edge (and 1 on it) and fades to 0 a feather beyond.
    const blurred = feather(plane, win, sigma);
    const grown = new Float32Array(plane.length);
    for (let i = 0; i < grown.length; i++) grown[i] = plane[i] >= 0.5 || blurred[i] > 0.05 ? 1 : 0;
    const weight = feather(grown, win, sigma);
    for (let y = 0; y < win.h; y++) for (let x = 0; x < win.w; x++) {
      const i = y * win.w + x;
      const t = plane[i] >= 0.5 ? 1 : weight[i];
      if (t <= 0) continue;
      const o = ((win.y0 + y) * W + win.x0 + x) * ch;
      for (let c = 0; c < 3; c++) result.data[o + c] = Math.round(result.data[o + c] + (original.data[o + c] - result.data[o + c]) * t);
    }
  }
}
