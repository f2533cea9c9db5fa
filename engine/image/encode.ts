/** Encoding raw pixels for the response. */
import sharp from 'sharp';
import type { EncodedImage } from './raster.ts';

export interface RawPixels { data: Uint8Array; width: number; height: number; channels: 1 | 3 | 4 }

/**
 * Lossless PNG tuned for speed: zlib level 1 without adaptive row filtering. Results are kept for a day,
 * not archived, so a few percent of size is worth far less than the time a 2000x2000 RGBA would take.
 */
export async function encodePngFast(img: RawPixels): Promise<EncodedImage> {
  let s = sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } });
  // sharp would widen one raw channel to sRGB; 'b-w' keeps a mask a single-channel grey PNG.
  if (img.channels === 1) s = s.toColourspace('b-w');
  const data = await s.png({ compressionLevel: 1, adaptiveFiltering: false })
    .toBuffer();
  return { data, format: 'png' };
}

/** An edited photo: JPEG (quality 92, no chroma subsampling) when opaque, fast PNG where it has transparency. */
export async function encodePhoto(img: RawPixels): Promise<EncodedImage> {
  if (img.channels !== 3) return encodePngFast(img);
  const data = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
    .jpeg({ quality: 92, chromaSubsampling: '4:4:4' }).toBuffer();
  return { data, format: 'jpeg' };
}
