/**
 * JPEG coding processes. Arithmetic-coded JPEG (SOF9) is valid and decodes (libvips' libjpeg has the
 * arithmetic decoder), but its header was unreadable to the size check (image-size knows SOF0-2 only), so
 * it got 422. Processes the decoder lacks (hierarchical, lossless arithmetic) are refused by name with 415.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../../image/decode.ts';
import { readHeader } from '../../image/sniff.ts';
import { fixture, form, post, startTestEngine, testInvertEffect, type TestEngine } from '../helpers.ts';

const FACE_BEAUTY = '/api/portrait/effects/face-beauty';
const arithmetic = fixture('obama_official_arithmetic_96.jpg');

/** The file with its frame header's SOF marker replaced (the rest stays as it was). */
function withSof(bytes: Buffer, sof: number): Buffer {
  const b = Buffer.from(bytes);
  for (let i = 2; i < b.length;) {
    const m = b[i + 1];
    if (m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc) { b[i + 1] = sof; return b; }
    i += 2 + b.readUInt16BE(i + 2);
  }
  throw new Error('no SOF marker');
}

describe('headers', () => {
  it('reads the size of every JPEG coding process from its frame header', () => {
    expect(arithmetic[arithmetic.indexOf(Buffer.from([0xff, 0xc9])) + 1]).toBe(0xc9); // the fixture is SOF9
    expect(readHeader(arithmetic, 'jpeg')).toMatchObject({ width: 96, height: 121 });
    for (const sof of [0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xca, 0xcb, 0xcf]) {
      expect(readHeader(withSof(arithmetic, sof), 'jpeg'), sof.toString(16)).toMatchObject({ width: 96, height: 121 });
    }
    const obama = readHeader(fixture('obama_official_portrait.jpg'), 'jpeg');
    expect(obama.unsupported).toBeUndefined();
  });

  it('decodes the arithmetic-coded fixture', async () => {
    const img = await decodeImage(arithmetic, 'jpeg', 4096 * 4096);
    expect([img.width, img.height]).toEqual([96, 121]);
  });
});

describe('over HTTP', () => {
  let e: TestEngine;
  beforeAll(async () => { e = await startTestEngine({ extraEffects: { 'face-beauty': testInvertEffect } }); });
  afterAll(async () => { await e.close(); });

  it('takes an arithmetic-coded JPEG', async () => {
    const r = await post(e, FACE_BEAUTY, form({ image: arithmetic })); // decoded in the worker, then inverted
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  });

  it('refuses the processes the decoder lacks with 415 naming them', async () => {
    for (const [sof, what] of [[0xc5, /hierarchical/], [0xcd, /hierarchical/], [0xcb, /lossless/]] as const) {
      const r = await post(e, FACE_BEAUTY, form({ image: withSof(arithmetic, sof) }));
      expect(r.status, JSON.stringify(r.body)).toBe(415);
      expect(r.body.error_detail.code).toBe('UNSUPPORTED_FILE_TYPES');
      expect(r.body.error_detail.message).toMatch(what);
      expect(r.body.error_detail.message).toMatch(/image/);
    }
  });
});
