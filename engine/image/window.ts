/** Copying a rectangle of an image's pixels out and back, so an effect can work on one face's window only. */
import type { RasterImage } from './raster.ts';
import type { Rect } from './rect.ts';

export function readWindow(img: RasterImage, win: Rect): Buffer {
  const ch = img.channels, out = Buffer.alloc(win.w * win.h * ch);
  for (let y = 0; y < win.h; y++) {
    const s = ((win.y0 + y) * img.width + win.x0) * ch;
    img.data.copy(out, y * win.w * ch, s, s + win.w * ch);
  }
  return out;
}

export function writeWindow(img: RasterImage, win: Rect, px: Buffer): void {
  const ch = img.channels;
  for (let y = 0; y < win.h; y++) px.copy(img.data, ((win.y0 + y) * img.width + win.x0) * ch, y * win.w * ch, (y + 1) * win.w * ch);
}
