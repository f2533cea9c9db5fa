/**
 * Full decode into raw 8-bit pixels with EXIF orientation applied (runs in a worker). sharp reads
 * JPEG, PNG and WEBP; BMP goes through bmp-ts because libvips has no BMP loader, except palette BMPs
 * and OS/2 1.x ones (indexedBmpToSharp below), which bmp-ts decodes wrongly or not at all.
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
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerSize = buffer.readUInt32LE(14);
  if (headerSize === 12 || buffer.readUInt16LE(28) <= 8) return indexedBmpToSharp(buffer, headerSize);
  const bmp = decodeBmp(buffer, { toRGBA: true });
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

/**
 * A BMP of 1, 4 or 8 bits per pixel (palette indices), or any OS/2 1.x BMP (BITMAPCOREHEADER: 12 bytes,
 * 16-bit sides, 3-byte palette entries, 1, 4, 8 or 24 bits), uncompressed (sniff.ts refuses RLE), as RGB.
 * bmp-ts reads no OS/2 header, and writes palette pixels in ABGR order even when asked for RGBA (its
 * 4-bit reader also stops after the first row of an odd width, its 1-bit one drops pixels).
 * Rows are padded to 4 bytes, bottom-up unless a Windows height is negative.
 */
function indexedBmpToSharp(src: Buffer, headerSize: number) {
  const os2 = headerSize === 12;
  const width = os2 ? src.readUInt16LE(18) : src.readInt32LE(18);
  const signedHeight = os2 ? src.readUInt16LE(20) : src.readInt32LE(22);
  const height = Math.abs(signedHeight);
  const bpp = src.readUInt16LE(os2 ? 24 : 28);
  if (![1, 4, 8, 24].includes(bpp) || (!os2 && bpp === 24)) throw new Error(`BMP with ${bpp} bits per pixel`);
  const pixelsAt = src.readUInt32LE(10);
  const paletteAt = 14 + headerSize;
  const entrySize = os2 ? 3 : 4;
  const declared = os2 ? 0 : src.readUInt32LE(46);
  const entries = bpp === 24 ? 0 : Math.min(declared || 1 << bpp, 1 << bpp, Math.floor((pixelsAt - paletteAt) / entrySize));
  const stride = Math.ceil((width * bpp) / 32) * 4;
  if (width <= 0 || pixelsAt < paletteAt + entries * entrySize || pixelsAt + stride * height > src.length) throw new Error('BMP truncated');
  const rgb = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    const row = pixelsAt + (signedHeight < 0 ? y : height - 1 - y) * stride;
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 3;
      let at: number;
      if (bpp === 24) {
        at = row + x * 3;
      } else {
        const index = bpp === 8 ? src[row + x]
          : bpp === 4 ? (src[row + (x >> 1)] >> (x & 1 ? 0 : 4)) & 15
          : (src[row + (x >> 3)] >> (7 - (x & 7))) & 1;
        if (index >= entries) continue; // outside the palette: black
        at = paletteAt + index * entrySize;
      }
      rgb[o] = src[at + 2];
      rgb[o + 1] = src[at + 1];
      rgb[o + 2] = src[at];
    }
  }
  return sharp(rgb, { raw: { width, height, channels: 3 } });
}
