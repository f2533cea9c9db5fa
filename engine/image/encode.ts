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
