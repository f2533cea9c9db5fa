/**
 * Reads the format (and, where the header says so, the size and PNG bit depth) from an image's first bytes,
 * as the engine does: the file name and the browser's MIME guess do not decide the format.
 */
import type { ImageFormat } from '../../../../contract/limits.ts';

/** Formats the studio recognises: the engine's four, plus two it can convert in the browser before sending. */
export type SeenFormat = ImageFormat | 'gif' | 'heic';

export const seenFormatLabel: Record<SeenFormat, string> = { jpeg: 'JPEG', png: 'PNG', bmp: 'BMP', webp: 'WEBP', gif: 'GIF', heic: 'HEIC' };

export interface Sniffed {
  format: SeenFormat | null;
  width?: number;
  height?: number;
  /** PNG only: bit depth × channels (8 for palette or 8-bit grey, 32 for 8-bit RGBA, 64 for 16-bit RGBA). */
  pngBitsPerPixel?: number;
}

const ascii = (b: Uint8Array, at: number, s: string) => [...s].every((c, i) => b[at + i] === c.charCodeAt(0));
const be16 = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];
const be32 = (b: Uint8Array, at: number) => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
const le16 = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const le24 = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8) | (b[at + 2] << 16);
const le32 = (b: Uint8Array, at: number) => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) | 0;

const pngChannels: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

export function sniffImage(b: Uint8Array): Sniffed {
  if (b.length >= 26 && b[0] === 0x89 && ascii(b, 1, 'PNG') && ascii(b, 12, 'IHDR')) {
    const channels = pngChannels[b[25]];
    return { format: 'png', width: be32(b, 16), height: be32(b, 20), pngBitsPerPixel: channels ? b[24] * channels : undefined };
  }
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return { format: 'jpeg', ...jpegSize(b) };
  if (b.length >= 26 && ascii(b, 0, 'BM')) return { format: 'bmp', width: Math.abs(le32(b, 18)), height: Math.abs(le32(b, 22)) };
  if (b.length >= 12 && ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')) return { format: 'webp', ...webpSize(b) };
  if (b.length >= 10 && (ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a'))) return { format: 'gif', width: le16(b, 6), height: le16(b, 8) };
  // ISO-BMFF with a HEIF brand (iPhone photos): ftyp at offset 4.
  if (b.length >= 12 && ascii(b, 4, 'ftyp') && ['heic', 'heix', 'hevc', 'heim', 'heis', 'mif1', 'msf1'].some((brand) => ascii(b, 8, brand))) return { format: 'heic' };
  return { format: null };
}

function jpegSize(b: Uint8Array): { width?: number; height?: number } {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) { i++; continue; }
    const marker = b[i + 1];
    if (marker === 0xff) { i++; continue; }
    // Start-of-frame markers (baseline, progressive, …) carry height then width.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: be16(b, i + 5), width: be16(b, i + 7) };
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7)) { i += 2; continue; }
    i += 2 + be16(b, i + 2);
  }
  return {};
}

function webpSize(b: Uint8Array): { width?: number; height?: number } {
  if (b.length < 30) return {};
  if (ascii(b, 12, 'VP8X')) return { width: le24(b, 24) + 1, height: le24(b, 27) + 1 };
  if (ascii(b, 12, 'VP8L')) {
    const bits = b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (ascii(b, 12, 'VP8 ')) return { width: le16(b, 26) & 0x3fff, height: le16(b, 28) & 0x3fff };
  return {};
}
