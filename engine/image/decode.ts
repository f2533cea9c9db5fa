/**
 * Full decode into raw 8-bit pixels with EXIF orientation applied (runs in a worker). sharp reads
 * JPEG, PNG and WEBP; BMP goes through bmp-ts because libvips has no BMP loader.
 */
import sharp from 'sharp';
import { decode as decodeBmp } from 'bmp-ts';
import type { ImageFormat } from '../../contract/limits.ts';
import type { RasterImage } from './raster.ts';

export async function decodeImage(bytes: Uint8Array, format: ImageFormat, maxPixels: number): Promise<RasterImage> {
  // failOn 'warning', not 'error': libjpeg reports scan data that runs out before the frame header's size
  // ("premature end of data segment") only as a warning and fills the rest with grey; we refuse that.
  // The 596 photos of ../shared/testdata and the fixtures decode without any warning.
  const input = format === 'bmp' ? bmpToSharp(bytes) : sharp(bytes, { limitInputPixels: maxPixels, failOn: 'warning' });
  // rotate() with no angle applies the EXIF orientation; the output carries no metadata.
  const { data, info } = await input.rotate().toColourspace('srgb').raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  if (info.channels === 3 || info.channels === 4) return { data, width: info.width, height: info.height, channels: info.channels };
  // Grey or grey+alpha: expand to RGB(A) so every effect sees the same layouts.
  const { data: rgb, info: i2 } = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return { data: rgb, width: i2.width, height: i2.height, channels: i2.channels as 3 | 4 };
}

function bmpToSharp(bytes: Uint8Array) {
  const bmp = decodeBmp(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { toRGBA: true });
  const { width, height } = bmp;
  const rgba = Buffer.from(bmp.data.buffer, bmp.data.byteOffset, width * height * 4);
  // 24-bit BMPs carry no alpha; bmp-ts leaves that byte 0, which would make the photo invisible.
  if (!hasMeaningfulAlpha(rgba)) for (let i = 3; i < rgba.length; i += 4) rgba[i] = 255;
  return sharp(rgba, { raw: { width, height, channels: 4 } });
}

function hasMeaningfulAlpha(rgba: Buffer): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 0) return true;
  return false;
}
