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
  /** A variant of the format that the decoder cannot read, in words ("hierarchical JPEG"): refused by name. */
  unsupported?: string;
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
  if (format === 'jpeg') return readJpegHeader(b);
  if (format === 'bmp') return readBmpHeader(b);
  const size = imageSize(b);
  if (!size.width || !size.height) throw new Error('image header unreadable');
  return { format, width: size.width, height: Math.abs(size.height) };
}

/**
 * JPEG coding processes by SOF marker that libvips' libjpeg cannot decode. It reads baseline, extended and
 * progressive Huffman (SOF0-2), lossless (SOF3) and arithmetic (SOF9-10) frames; hierarchical frames
 * ("Unsupported JPEG process") and lossless arithmetic ones ("omitted at compile time") it refuses.
 */
const JPEG_UNSUPPORTED: Record<number, string> = {
  0xc5: 'hierarchical JPEG', 0xc6: 'hierarchical JPEG', 0xc7: 'hierarchical JPEG',
  0xcb: 'lossless arithmetic-coded JPEG',
  0xcd: 'hierarchical JPEG', 0xce: 'hierarchical JPEG', 0xcf: 'hierarchical JPEG',
};

/**
 * Width and height from the first frame header (any SOFn: image-size reads only SOF0-2, so an
 * arithmetic-coded JPEG's size was unreadable). Walks the marker segments up to the scan.
 */
function readJpegHeader(b: Uint8Array): ImageHeader {
  const u16 = (at: number) => (b[at] << 8) | b[at + 1];
  let i = 2;
  while (i + 1 < b.length) {
    if (b[i] !== 0xff) { i++; continue; } // stray bytes between segments, as image-size tolerates
    const m = b[i + 1];
    if (m === 0xff) { i++; continue; } // fill byte
    if ((m >= 0xd0 && m <= 0xd7) || m === 0x01) { i += 2; continue; } // markers without a length
    if (m === 0xda || m === 0xd9) break; // the scan (or the end) before any frame header
    if (i + 3 >= b.length) break;
    const length = u16(i + 2);
    if (length < 2) break;
    const sof = m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;
    if (sof) {
      if (length < 8 || i + 9 > b.length) break;
      const height = u16(i + 5);
      const width = u16(i + 7);
      if (!width || !height) break; // height 0 is defined later by a DNL marker, which libjpeg does not read
      return { format: 'jpeg', width, height, ...(JPEG_UNSUPPORTED[m] ? { unsupported: JPEG_UNSUPPORTED[m] } : {}) };
    }
    i += 2 + length;
  }
  throw new Error('JPEG header unreadable: no frame header before the scan');
}

/** BMP info headers by size that the decoder reads (bmp-ts: Windows 3.x and later; decode.ts: OS/2 1.x). */
const BMP_HEADERS = new Set([12, 40, 52, 56, 108, 124]);
/**
 * BMP compressions the decoder reads: none, bit fields, alpha bit fields. Not RLE8 and RLE4 (bmp-ts's RLE
 * reader writes every pixel's colour into one byte), nor embedded JPEG or PNG.
 */
const BMP_COMPRESSIONS = new Set([0, 3, 6]);

/**
 * Width and height by the info header's kind, told by its size: OS/2 1.x's 12-byte BITMAPCOREHEADER has
 * 16-bit sides, the Windows headers (40 bytes and up) 32-bit ones, the height negative for top-down rows.
 * (image-size read every BMP as Windows, so an OS/2 one got a bogus size.)
 */
function readBmpHeader(b: Uint8Array): ImageHeader {
  if (b.length < 26) throw new Error('BMP header unreadable');
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const headerSize = dv.getUint32(14, true);
  if (headerSize === 12) {
    const width = dv.getUint16(18, true);
    const height = dv.getUint16(20, true);
    if (!width || !height) throw new Error('BMP header unreadable');
    return { format: 'bmp', width, height };
  }
  if (headerSize < 16 || b.length < 14 + Math.min(headerSize, 40)) throw new Error('BMP header unreadable');
  const width = dv.getInt32(18, true);
  const height = Math.abs(dv.getInt32(22, true));
  if (width <= 0 || height <= 0) throw new Error('BMP header unreadable');
  if (!BMP_HEADERS.has(headerSize)) {
    const what = headerSize === 64 || headerSize === 16 ? 'OS/2 2.x BMP' : `BMP with a ${headerSize}-byte header`;
    return { format: 'bmp', width, height, unsupported: what };
  }
  const compression = dv.getUint32(30, true);
  if (!BMP_COMPRESSIONS.has(compression)) {
    const what = compression === 1 || compression === 2 ? `RLE${compression === 1 ? 8 : 4}-compressed BMP`
      : compression === 4 ? 'BMP holding a JPEG' : compression === 5 ? 'BMP holding a PNG' : `BMP with compression ${compression}`;
    return { format: 'bmp', width, height, unsupported: what };
  }
  return { format: 'bmp', width, height };
}
