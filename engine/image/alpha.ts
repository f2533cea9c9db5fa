/** Alpha-channel helpers over interleaved 8-bit pixels: join, combine, and find the opaque area. */
import type { Rect } from './rect.ts';

/**
 * RGB(A) pixels with their alpha replaced by `alpha`, as RGBA. Fully transparent pixels become 0,0,0,0:
 * their colour is invisible anyway, and a constant background compresses to almost nothing in PNG.
 */
export function withAlpha(data: Uint8Array, channels: number, alpha: Uint8Array): Buffer {
  const n = alpha.length;
  const out = Buffer.alloc(n * 4);
  for (let i = 0, j = 0, k = 0; i < n; i++, j += channels, k += 4) {
    const a = alpha[i];
    if (a === 0) continue;
    out[k] = data[j]; out[k + 1] = data[j + 1]; out[k + 2] = data[j + 2]; out[k + 3] = a;
  }
  return out;
}

/** alpha * (the RGBA input's own alpha) in place, so pixels already transparent stay transparent. */
export function multiplyByInputAlpha(alpha: Uint8Array, rgba: Uint8Array): Uint8Array {
  for (let i = 0, k = 3; i < alpha.length; i++, k += 4) alpha[i] = (alpha[i] * rgba[k] + 127) / 255;
  return alpha;
}

/** The smallest rectangle holding every pixel with alpha > threshold; null when there is none. */
export function alphaBounds(alpha: Uint8Array, width: number, height: number, threshold: number): Rect | null {
  let top = -1, bottom = -1, left = width, right = -1;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let first = -1, last = -1;
    for (let x = 0; x < width; x++) if (alpha[row + x] > threshold) { first = x; break; }
    if (first < 0) continue;
    for (let x = width - 1; x >= first; x--) if (alpha[row + x] > threshold) { last = x; break; }
    if (top < 0) top = y;
    bottom = y;
    if (first < left) left = first;
    if (last > right) right = last;
  }
  return top < 0 ? null : { x0: left, y0: top, w: right - left + 1, h: bottom - top + 1 };
}

/** Copies a rectangle out of interleaved pixels. */
export function extractBox(data: Uint8Array, width: number, channels: number, box: Rect): Buffer {
  const out = Buffer.allocUnsafe(box.w * box.h * channels);
  const rowBytes = box.w * channels;
  for (let y = 0; y < box.h; y++) {
    const src = ((box.y0 + y) * width + box.x0) * channels;
    out.set(data.subarray(src, src + rowBytes), y * rowBytes);
  }
  return out;
}
