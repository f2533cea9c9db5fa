/**
 * OS/2 1.x BMPs (BITMAPCOREHEADER: a 12-byte header with 16-bit width and height, 3-byte palette entries)
 * were read as Windows BMPs, whose header has 32-bit sides at other offsets: a bogus size and a 413. They
 * are read and decoded now; BMP variants the decoder has no reader for are refused with 415 by name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../../image/decode.ts';
import { readHeader } from '../../image/sniff.ts';
import { form, post, startTestEngine, testInvertEffect, type TestEngine } from '../helpers.ts';

const FACE_BEAUTY = '/api/portrait/effects/face-beauty';

/** An RGB test pattern: each pixel's colour depends on its place. */
const pattern = (w: number, h: number) => Array.from({ length: w * h }, (_, i) => {
  const x = i % w, y = Math.floor(i / w);
  return [(x * 37) & 255, (y * 53) & 255, ((x + y) * 11) & 255] as const;
});

/**
 * An OS/2 1.x BMP of the pixels: 24-bit, or 8-bit with `palette` (RGB triples) and indices. Rows are
 * bottom-up, each padded to 4 bytes; the pixel data starts at bfOffBits.
 */
function os2Bmp(w: number, h: number, bpp: 24 | 8, pixels: readonly (readonly number[])[], palette: readonly (readonly number[])[] = []): Buffer {
  const row = Math.ceil((w * bpp) / 32) * 4;
  const offset = 14 + 12 + palette.length * 3;
  const b = Buffer.alloc(offset + row * h);
  b.write('BM', 0, 'latin1');
  b.writeUInt32LE(b.length, 2);
  b.writeUInt32LE(offset, 10);
  b.writeUInt32LE(12, 14);
  b.writeUInt16LE(w, 18);
  b.writeUInt16LE(h, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt16LE(bpp, 24);
  palette.forEach(([r, g, bl], i) => { b[26 + i * 3] = bl; b[27 + i * 3] = g; b[28 + i * 3] = r; });
  for (let y = 0; y < h; y++) {
    const at = offset + (h - 1 - y) * row;
    for (let x = 0; x < w; x++) {
      const p = pixels[y * w + x];
      if (bpp === 8) b[at + x] = p[0];
      else { b[at + x * 3] = p[2]; b[at + x * 3 + 1] = p[1]; b[at + x * 3 + 2] = p[0]; }
    }
  }
  return b;
}

const W = 37, H = 23; // odd widths exercise the row padding
const rgb = pattern(W, H);
const os2Rgb = os2Bmp(W, H, 24, rgb);
const palette = Array.from({ length: 16 }, (_, i) => [i * 16, 255 - i * 16, (i * 97) & 255]);
const indices = Array.from({ length: W * H }, (_, i) => [i % 16]);
const os2Palette = os2Bmp(W, H, 8, indices, palette);

describe('OS/2 1.x BMP', () => {
  it('reads its 16-bit sides from the 12-byte header', () => {
    expect(readHeader(os2Rgb, 'bmp')).toMatchObject({ format: 'bmp', width: W, height: H });
    expect(readHeader(os2Palette, 'bmp')).toMatchObject({ width: W, height: H });
    expect(readHeader(os2Rgb, 'bmp').unsupported).toBeUndefined();
  });

  it('decodes 24-bit and palette images to the pixels they hold', async () => {
    for (const [bytes, expected] of [[os2Rgb, rgb], [os2Palette, indices.map(([i]) => palette[i])]] as const) {
      const img = await decodeImage(bytes, 'bmp', 4096 * 4096);
      expect([img.width, img.height]).toEqual([W, H]);
      const got = Array.from({ length: W * H }, (_, i) => Array.from(img.data.subarray(i * img.channels, i * img.channels + 3)));
      expect(got).toEqual(expected.map((p) => [...p]));
      if (img.channels === 4) expect(img.data.filter((_, i) => i % 4 === 3).every((a) => a === 255)).toBe(true);
    }
  });
});

describe('over HTTP', () => {
  let e: TestEngine;
  beforeAll(async () => { e = await startTestEngine({ extraEffects: { 'face-beauty': testInvertEffect } }); });
  afterAll(async () => { await e.close(); });

  it('takes an OS/2 1.x BMP', async () => {
    for (const bmp of [os2Rgb, os2Palette]) {
      const r = await post(e, FACE_BEAUTY, form({ image: bmp }));
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
  });

  it('refuses BMP headers the decoder has no reader for with 415 naming the variant', async () => {
    const os22 = Buffer.concat([os2Rgb.subarray(0, 14), Buffer.alloc(64), os2Rgb.subarray(26)]);
    os22.writeUInt32LE(64, 14);
    os22.writeInt32LE(W, 18);
    os22.writeInt32LE(H, 22);
    const odd = Buffer.from(os22);
    odd.writeUInt32LE(20, 14);
    for (const [bytes, what] of [[os22, /OS\/2 2\.x BMP/], [odd, /20-byte header/]] as const) {
      const r = await post(e, FACE_BEAUTY, form({ image: bytes }));
      expect(r.status, JSON.stringify(r.body)).toBe(415);
      expect(r.body.error_detail.code).toBe('UNSUPPORTED_FILE_TYPES');
      expect(r.body.error_detail.message).toMatch(what);
    }
  });
});
