/**
 * The pixels the face detector sees: RGB, square (padded right and bottom, so blazeface's 256x256 input
 * keeps faces' proportions), scaled down when the image is larger than `maxSide`. Coordinates in the view
 * are image coordinates times `scale`.
 */
import sharp from 'sharp';
import type { RasterImage } from '../../effects/effect.ts';

export interface View {
  /** RGB, size x size. */
  data: Uint8Array;
  size: number;
  /** View pixels per image pixel. */
  scale: number;
  /** The image's own size (the part of the view that is not padding, divided by scale). */
  width: number;
  height: number;
}

const raw = (image: RasterImage) => sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } });

export async function detectorView(image: RasterImage, maxSide: number): Promise<View> {
  const side = Math.max(image.width, image.height);
  const scale = Math.min(1, maxSide / side);
  const w = Math.max(1, Math.round(image.width * scale)), h = Math.max(1, Math.round(image.height * scale));
  const size = Math.max(w, h);
  let s = raw(image);
  if (image.channels === 4) s = s.flatten({ background: '#ffffff' });
  if (scale < 1) {
    // resize() and extend() in one pipeline would extend first, so the scaled copy is made on its own.
    const scaled = await s.resize(w, h, { fit: 'fill', kernel: 'linear' }).raw().toBuffer();
    s = sharp(scaled, { raw: { width: w, height: h, channels: 3 } });
  }
  const data = await s.extend({ right: size - w, bottom: size - h, background: '#000000' }).removeAlpha().raw().toBuffer();
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), size, scale: size / Math.max(image.width, image.height), width: image.width, height: image.height };
}

/** The image turned clockwise by a multiple of 90 degrees. */
export async function rotateImage(image: RasterImage, clockwise: number): Promise<RasterImage> {
  const { data, info } = await raw(image).rotate(clockwise).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 };
}
