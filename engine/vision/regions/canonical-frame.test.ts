import { describe, expect, it } from 'vitest';
import { bilinear, decodeFrame, encodeFrame, frameSizeOf, type FrameImage } from './canonical-frame.ts';

const box = { u0: -0.1, v0: 0.4, u1: 1.1, v1: 1.3 };

describe('canonical frame', () => {
  it('sizes a box at res pixels per unit', () => {
    expect(frameSizeOf(box, 100)).toEqual({ w: 120, h: 90 });
  });

  it('samples between pixel centres and clamps at the edges', () => {
    const p = [0, 10, 20, 30]; // 2 x 2, one channel
    expect(bilinear(p, 2, 2, 1, 0.5, 0.5, 0)).toBeCloseTo(0);
    expect(bilinear(p, 2, 2, 1, 1, 1, 0)).toBeCloseTo(15);
    expect(bilinear(p, 2, 2, 1, -5, 0.5, 0)).toBeCloseTo(0);
  });

  it('keeps a cut through its PNG: colour to the level, coverage to half a level', async () => {
    const { w, h } = frameSizeOf(box, 10);
    const f: FrameImage = { res: 10, w, h, rgb: new Float32Array(w * h * 3), alpha: new Float32Array(w * h) };
    for (let i = 0; i < w * h; i++) {
      f.alpha[i] = (i % 17) / 16;
      for (let c = 0; c < 3; c++) f.rgb[i * 3 + c] = (i * 7 + c * 50) % 256;
    }
    const back = await decodeFrame(await encodeFrame(f), box, 10, 'test exemplar');
    expect(Array.from(back.rgb)).toEqual(Array.from(f.rgb));
    for (let i = 0; i < w * h; i++) expect(Math.abs(back.alpha[i] - f.alpha[i])).toBeLessThanOrEqual(0.6 / 255);
    await expect(decodeFrame(await encodeFrame(f), box, 11, 'test exemplar')).rejects.toThrow(/test exemplar: 12x9, expected 13x10/);
  });
});
