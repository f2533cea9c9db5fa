/**
 * Windows BMPs with a palette (1, 4 and 8 bits per pixel). bmp-ts writes their pixels in ABGR order even
 * when asked for RGBA (and a 4-bit one of odd width stops after its first pixel row, a 1-bit one loses
 * pixels to stray alpha writes), so they decoded to wrong colours, often transparent. RLE-compressed ones,
 * whose bmp-ts decoder writes every pixel into one byte, are refused by name.
 */
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../../image/decode.ts';
import { readHeader } from '../../image/sniff.ts';

/** A Windows BMP (40-byte BITMAPINFOHEADER) of palette indices; `topDown` stores rows top first (negative height). */
function indexedBmp(w: number, h: number, bpp: 1 | 4 | 8, indices: number[], palette: number[][], o: { topDown?: boolean; compression?: number } = {}): Buffer {
  const stride = Math.ceil((w * bpp) / 32) * 4;
  const offset = 14 + 40 + palette.length * 4;
  const b = Buffer.alloc(offset + stride * h);
  b.write('BM', 0, 'latin1');
  b.writeUInt32LE(b.length, 2);
  b.writeUInt32LE(offset, 10);
  b.writeUInt32LE(40, 14);
  b.writeInt32LE(w, 18);
  b.writeInt32LE(o.topDown ? -h : h, 22);
  b.writeUInt16LE(1, 26);
  b.writeUInt16LE(bpp, 28);
  b.writeUInt32LE(o.compression ?? 0, 30);
  b.writeUInt32LE(palette.length, 46);
  palette.forEach(([r, g, bl], i) => { b[54 + i * 4] = bl; b[55 + i * 4] = g; b[56 + i * 4] = r; });
  for (let y = 0; y < h; y++) {
    const row = offset + (o.topDown ? y : h - 1 - y) * stride;
    for (let x = 0; x < w; x++) {
      const v = indices[y * w + x];
      if (bpp === 8) b[row + x] = v;
      else if (bpp === 4) b[row + (x >> 1)] |= v << (x & 1 ? 0 : 4);
      else b[row + (x >> 3)] |= v << (7 - (x & 7));
    }
  }
  return b;
}

const W = 37, H = 23;
const palette = Array.from({ length: 256 }, (_, i) => [i, (i * 7) & 255, 255 - i]);

describe('Windows BMP with a palette', () => {
  for (const bpp of [8, 4, 1] as const) {
    for (const topDown of [false, true]) {
      it(`decodes ${bpp}-bit${topDown ? ', top-down' : ''} to the palette's colours, opaque`, async () => {
        const colours = palette.slice(0, 1 << bpp);
        const indices = Array.from({ length: W * H }, (_, i) => (i * 5 + Math.floor(i / W)) % colours.length);
        const img = await decodeImage(indexedBmp(W, H, bpp, indices, colours, { topDown }), 'bmp', 4096 * 4096);
        expect([img.width, img.height]).toEqual([W, H]);
        const got = Array.from({ length: W * H }, (_, i) => Array.from(img.data.subarray(i * img.channels, i * img.channels + 3)));
        expect(got).toEqual(indices.map((k) => colours[k]));
        if (img.channels === 4) expect(img.data.filter((_, i) => i % 4 === 3).every((a) => a === 255)).toBe(true);
      });
    }
  }

  it('refuses RLE-compressed ones by name', () => {
    const rle8 = indexedBmp(W, H, 8, Array(W * H).fill(0), palette, { compression: 1 });
    expect(readHeader(rle8, 'bmp').unsupported).toMatch(/RLE/);
    const rle4 = indexedBmp(W, H, 4, Array(W * H).fill(0), palette.slice(0, 16), { compression: 2 });
    expect(readHeader(rle4, 'bmp').unsupported).toMatch(/RLE/);
  });
});
