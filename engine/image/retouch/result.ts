/** The retouched photo as the answer's image: JPEG for opaque photos (a tenth of the PNG's time and size), PNG where there is alpha. */
import sharp from 'sharp';
import { encodePngFast } from '../encode.ts';
import type { EncodedImage, RasterImage } from '../raster.ts';

export async function encodeRetouched(img: RasterImage): Promise<EncodedImage> {
  if (img.channels === 4) return encodePngFast(img);
  const data = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
    .jpeg({ quality: 92, chromaSubsampling: '4:4:4' }).toBuffer();
  return { data, format: 'jpeg' };
}
