/** The photo's luma over a parsing window: the guide the guided filter takes the classes' edges from. */
import sharp from 'sharp';
import { lumaPlane } from '../../image/luma.ts';
import type { RasterImage } from '../../image/raster.ts';
import type { Rect } from '../../image/rect.ts';
import type { Lattice } from './upsample.ts';

/** Luma (0..1) of the image pixels in `win`. */
export function windowLuma(image: RasterImage, win: Rect): Float32Array {
  const ch = image.channels;
  const rows = new Uint8Array(win.w * win.h * ch);
  for (let y = 0; y < win.h; y++) {
    const src = ((win.y0 + y) * image.width + win.x0) * ch;
    rows.set(image.data.subarray(src, src + win.w * ch), y * win.w * ch);
  }
  return lumaPlane(rows, win.w, win.h, ch);
}

/** Luma (0..1) at the lattice's points (window pixels; 0 outside the window), row-major. */
export function latticeLuma(image: RasterImage, win: Rect, at: Lattice): Float32Array {
  const ch = image.channels, nx = at.xs.length;
  const rgb = new Uint8Array(nx * at.ys.length * ch);
  for (let q = 0; q < at.ys.length; q++) {
    const y = at.ys[q];
    if (y < 0 || y >= win.h) continue;
    for (let k = 0; k < nx; k++) {
      const x = at.xs[k];
      if (x < 0 || x >= win.w) continue;
      const src = ((win.y0 + y) * image.width + win.x0 + x) * ch, dst = (q * nx + k) * ch;
      for (let c = 0; c < ch; c++) rgb[dst + c] = image.data[src + c];
    }
  }
  return lumaPlane(rgb, nx, at.ys.length, ch);
}

/** Luma of `win` resized to gw x gh (pixel centres aligned, as applyCoefficients assumes). */
export async function resizedLuma(image: RasterImage, win: Rect, gw: number, gh: number): Promise<Float32Array> {
  const rgb = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
    .extract({ left: win.x0, top: win.y0, width: win.w, height: win.h })
    .resize(gw, gh, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true });
  return lumaPlane(rgb.data, gw, gh, rgb.info.channels);
}
