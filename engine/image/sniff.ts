/**
 * Decides an upload's format from its bytes and reads its size from the header, before any decode,
 * so a tiny file that claims a huge canvas is refused without allocating it.
 */
import { imageSize } from 'image-size';
import type { ImageFormat } from '../../contract/limits.ts';

export interface ImageHeader {
  format: ImageFormat;
  width: number;
  height: number;
  /** PNG only: bits per pixel (bit depth × channels). */
  bitsPerPixel?: number;
}

const startsWith = (b: Uint8Array, sig: number[], at = 0) => sig.every((v, i) => b[at + i] === v);

/** The format the bytes are, among those we know by name (for messages), or undefined. */
export function sniffFormat(b: Uint8Array): ImageFormat | 'gif' | 'tiff' | 'heic' | 'avif' | undefined {
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(b, [0x42, 0x4d]) && b.length >= 26) return 'bmp';
  if (startsWith(b, [0x52, 0x49, 0x46, 0x46]) && startsWith(b, [0x57, 0x45, 0x42, 0x50], 8)) return 'webp';
  if (startsWith(b, [0x47, 0x49, 0x46, 0x38])) return 'gif';
  if (startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  if (startsWith(b, [0x66, 0x74, 0x79, 0x70], 4)) {
    const brand = String.fromCharCode(...b.subarray(8, 12));
    return brand.startsWith('avi') ? 'avif' : 'heic';
  }
  return undefined;
}

const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Reads width and height (and PNG depth) from the header. Throws if the header is unreadable. */
export function readHeader(b: Uint8Array, format: ImageFormat): ImageHeader {
  if (format === 'png') {
    // IHDR is always the first chunk: width, height, bit depth, colour type at fixed offsets.
    if (b.length < 33 || String.fromCharCode(...b.subarray(12, 16)) !== 'IHDR') throw new Error('PNG header unreadable');
    const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
    const depth = b[24];
    const channels = PNG_CHANNELS[b[25]];
    if (!channels) throw new Error('PNG colour type unknown');
    return { format, width: dv.getUint32(16), height: dv.getUint32(20), bitsPerPixel: depth * channels };
  }
  const size = imageSize(b);
  if (!size.width || !size.height) throw new Error('image header unreadable');
  return { format, width: size.width, height: Math.abs(size.height) };
}
