/**
 * What the face detector sees: square tiles of the image scaled to the detector's input, padded with black
 * past the image's right and bottom edges, so faces keep their proportions. A tile covers image pixels
 * [x0, x0 + side) x [y0, y0 + side); tile pixel p is image pixel x0 + p * side / out.
 */
import sharp from 'sharp';
import type { RasterImage } from '../../image/raster.ts';

/** A square of image pixels (a Rect with w = h = side); it may reach past the image's right and bottom. */
export interface Tile { x0: number; y0: number; side: number }

const raw = (image: RasterImage) => sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } });

/** One tile as out x out RGB. */
export async function tilePixels(image: RasterImage, tile: Tile, out: number): Promise<Buffer> {
  const k = out / tile.side;
  const x0 = Math.max(0, tile.x0), y0 = Math.max(0, tile.y0);
  const x1 = Math.min(image.width, tile.x0 + tile.side), y1 = Math.min(image.height, tile.y0 + tile.side);
  const w = Math.max(1, Math.min(out, Math.round((x1 - x0) * k))), h = Math.max(1, Math.min(out, Math.round((y1 - y0) * k)));
  let s = raw(image);
  if (image.channels === 4) s = s.flatten({ background: '#ffffff' });
  const scaled = await s.extract({ left: x0, top: y0, width: x1 - x0, height: y1 - y0 })
    .resize(w, h, { fit: 'fill', kernel: k < 1 ? 'lanczos3' : 'cubic' }).removeAlpha().raw().toBuffer();
  if (w === out && h === out) return scaled;
  const left = Math.round((x0 - tile.x0) * k), top = Math.round((y0 - tile.y0) * k);
  return sharp(scaled, { raw: { width: w, height: h, channels: 3 } })
    .extend({ left, top, right: Math.max(0, out - w - left), bottom: Math.max(0, out - h - top), background: '#000000' })
    .raw().toBuffer();
}

/** The whole image as one tile. */
export const wholeImage = (image: { width: number; height: number }): Tile =>
  ({ x0: 0, y0: 0, side: Math.max(image.width, image.height) });

/**
 * Overlapping tiles of about half the image's longer side, to find faces too small for the whole-image
 * pass: a grid over the image with at least `overlap` of a tile shared between neighbours.
 */
export function halfTiles(image: { width: number; height: number }, overlap = 0.25): Tile[] {
  const side = Math.ceil(Math.max(image.width, image.height) / (2 - overlap));
  const starts = (len: number) => {
    if (len <= side) return [0];
    const n = Math.ceil((len - side) / (side * (1 - overlap))) + 1;
    return Array.from({ length: n }, (_, i) => Math.round((i * (len - side)) / (n - 1)));
  };
  return starts(image.height).flatMap((top) => starts(image.width).map((left) => ({ x0: left, y0: top, side })));
}

/** A square RGB view of the whole image (padded right and bottom), at most maxSide wide. */
export interface View {
  data: Uint8Array;
  size: number;
  /** View pixels per image pixel. */
  scale: number;
  width: number;
  height: number;
}

/** The whole image as a square view for square-input models; coordinates in it are image coordinates times `scale`. */
export async function detectorView(image: RasterImage, maxSide: number): Promise<View> {
  const side = Math.max(image.width, image.height);
  const size = Math.min(side, maxSide);
  const data = await tilePixels(image, wholeImage(image), size);
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), size, scale: size / side, width: image.width, height: image.height };
}

/** The image turned clockwise by a multiple of 90 degrees. */
export async function rotateImage(image: RasterImage, clockwise: number): Promise<RasterImage> {
  const { data, info } = await raw(image).rotate(clockwise).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 };
}
