/**
 * A part of a face resampled into the face mesh's canonical (u, v) coordinates: every pixel of a box of the
 * canonical frame finds its point on the photo through the mesh's surface (piecewise affine over its
 * triangles) and reads the photo's colour and a coverage plane there. Beard styling's library of real beards
 * and beard removal's library of clean-shaven lower faces are stored this way, as RGBA PNGs (alpha = the
 * coverage), so any face's mesh can carry them onto another face.
 */
import sharp from 'sharp';
import type { RasterImage } from '../../image/raster.ts';
import type { Rect } from '../../image/rect.ts';
import { rasterPairs, type faceSurface, type P3 } from './uv-map.ts';

/** A box of the canonical frame (u across the face, v down it, about face widths). */
export interface FrameBox { u0: number; v0: number; u1: number; v1: number }

export interface FrameImage {
  /** Pixels per canonical unit; the box is w x h of them. */
  res: number;
  w: number;
  h: number;
  /** sRGB 0..255, interleaved RGB. */
  rgb: Float32Array;
  /** The coverage, 0..1 (0 where the source face's mesh did not reach). */
  alpha: Float32Array;
}

export const frameSizeOf = (box: FrameBox, res: number) => ({ w: Math.round((box.u1 - box.u0) * res), h: Math.round((box.v1 - box.v0) * res) });

/** Bilinear sample of a w x h plane of `ch` interleaved values at pixel coordinates (centres at +0.5), clamped. */
export function bilinear(p: ArrayLike<number>, w: number, h: number, ch: number, x: number, y: number, c: number): number {
  const fx = Math.min(w - 1.001, Math.max(0, x - 0.5)), fy = Math.min(h - 1.001, Math.max(0, y - 0.5));
  const x0 = Math.floor(fx), y0 = Math.floor(fy), ax = fx - x0, ay = fy - y0;
  const o = (y0 * w + x0) * ch + c, r = w * ch;
  return (p[o] * (1 - ax) + p[o + ch] * ax) * (1 - ay) + (p[o + r] * (1 - ax) + p[o + r + ch] * ax) * ay;
}

/** `image` and its `cover` plane (over `coverWin`, 0..1) through `surface` into `box` at `res` pixels per unit. */
export function cutToFrame(
  image: RasterImage, surface: ReturnType<typeof faceSurface>, box: FrameBox, cover: Float32Array, coverWin: Rect, res: number,
): FrameImage {
  const { w, h } = frameSizeOf(box, res);
  const { xy, q, tri } = surface;
  // The mesh's canonical points as frame pixels (depth kept, so a turned face's hidden side loses), with
  // their photo positions as the values interpolated.
  const frameXy: P3[] = q.map(([u, v], k) => [(u - box.u0) * res, (v - box.v0) * res, xy[k][2]]);
  const [px, py] = rasterPairs(frameXy, tri, xy.map((p) => [p[0], p[1]]), { x0: 0, y0: 0, w, h });
  const rgb = new Float32Array(w * h * 3), alpha = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++) {
    const x = px[i], y = py[i];
    if (x !== x) continue;
    for (let c = 0; c < 3; c++) rgb[i * 3 + c] = bilinear(image.data, image.width, image.height, image.channels, x, y, c);
    const mx = x - coverWin.x0, my = y - coverWin.y0;
    alpha[i] = mx < 0 || my < 0 || mx > coverWin.w || my > coverWin.h ? 0 : bilinear(cover, coverWin.w, coverWin.h, 1, mx, my, 0);
  }
  return { res, w, h, rgb, alpha };
}

/** A cut as an RGBA PNG (a library's asset). */
export async function encodeFrame(f: FrameImage): Promise<Buffer> {
  const data = Buffer.alloc(f.w * f.h * 4);
  for (let i = 0; i < f.w * f.h; i++) {
    for (let c = 0; c < 3; c++) data[i * 4 + c] = Math.round(Math.min(255, Math.max(0, f.rgb[i * 3 + c])));
    data[i * 4 + 3] = Math.round(255 * Math.min(1, Math.max(0, f.alpha[i])));
  }
  return sharp(data, { raw: { width: f.w, height: f.h, channels: 4 } }).png({ compressionLevel: 9 }).toBuffer();
}

/** A library asset back as a cut; `what` names it in the error when its size is not the box's at `res`. */
export async function decodeFrame(png: Buffer, box: FrameBox, res: number, what: string): Promise<FrameImage> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const { w, h } = frameSizeOf(box, res);
  if (info.width !== w || info.height !== h) throw new Error(`${what}: ${info.width}x${info.height}, expected ${w}x${h} at ${res} px per unit`);
  const rgb = new Float32Array(w * h * 3), alpha = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++) {
    for (let c = 0; c < 3; c++) rgb[i * 3 + c] = data[i * 4 + c];
    alpha[i] = data[i * 4 + 3] / 255;
  }
  return { res, w, h, rgb, alpha };
}
