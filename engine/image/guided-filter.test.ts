import { describe, expect, it } from 'vitest';
import { applyCoefficients, boxMean, fastGuidedFilter, guidedCoefficients, guidedFilter } from './guided-filter.ts';

const plane = (w: number, h: number, f: (x: number, y: number) => number) => {
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out[y * w + x] = f(x, y);
  return out;
};

/** A vertical step at x = edge in the guide, and the same step blurred over ±blur px in the alpha. */
const step = (edge: number) => (x: number) => (x < edge ? 0 : 1);
const ramp = (edge: number, blur: number) => (x: number) => Math.min(1, Math.max(0, (x - edge + blur) / (2 * blur)));

describe('boxMean', () => {
  // Windows narrower than, as wide as and wider than the plane: each part of the split sliding sums.
  it.each([[7, 5, 2], [5, 7, 2], [5, 5, 3], [6, 9, 2], [9, 6, 4], [4, 4, 1], [30, 3, 5]])('matches a brute-force clipped window mean (%i x %i, r %i)', (w, h, r) => {
    const src = plane(w, h, (x, y) => (x * 13 + y * 7) % 5);
    const got = boxMean(src, w, h, r);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      let s = 0, n = 0;
      for (let j = Math.max(0, y - r); j <= Math.min(h - 1, y + r); j++)
        for (let i = Math.max(0, x - r); i <= Math.min(w - 1, x + r); i++) { s += src[j * w + i]; n++; }
      expect(got[y * w + x]).toBeCloseTo(s / n, 5);
    }
  });

  // A plain sliding window (one row at a time, gain then lose a pixel, column sums in double): boxMean's
  // two-row interleave and row views change no addition, so it matches to the bit on random data.
  const slidingMean = (src: Float32Array, w: number, h: number, r: number) => {
    const tmp = new Float32Array(w * h), out = new Float32Array(w * h);
    const inv = (n: number, i: number) => Math.fround(1 / (Math.min(i + r, n - 1) - Math.max(i - r, 0) + 1));
    for (let y = 0; y < h; y++) {
      let s = 0;
      for (let x = 0; x <= Math.min(r, w - 1); x++) s += src[y * w + x];
      for (let x = 0; x < w; x++) { tmp[y * w + x] = s * inv(w, x); if (x + r + 1 < w) s += src[y * w + x + r + 1]; if (x - r >= 0) s -= src[y * w + x - r]; }
    }
    const col = new Float64Array(w);
    for (let y = 0; y <= Math.min(r, h - 1); y++) for (let x = 0; x < w; x++) col[x] += tmp[y * w + x];
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const c = col[x];
      out[y * w + x] = c * inv(h, y);
      col[x] = c + (y + r + 1 < h ? tmp[(y + r + 1) * w + x] : 0) - (y - r >= 0 ? tmp[(y - r) * w + x] : 0);
    }
    return out;
  };
  it.each([[57, 41, 1], [64, 33, 3], [31, 64, 7], [10, 9, 6], [3, 50, 2], [1, 7, 2], [8, 1, 3]])('equals a plain sliding window to the bit on random data (%i x %i, r %i)', (w, h, r) => {
    let seed = w * 1000 + h * 10 + r;
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    const src = plane(w, h, () => rand());
    const want = slidingMean(src, w, h, r);
    expect(boxMean(src, w, h, r)).toEqual(want);
    // In place (the caller's out is its src), as blurPlane and feather use it.
    const copy = Float32Array.from(src);
    expect(boxMean(copy, w, h, r, copy)).toEqual(want);
  });

  it('handles a radius larger than the image and a 1x1 image', () => {
    expect([...boxMean(new Float32Array([1, 3]), 2, 1, 10)]).toEqual([2, 2]);
    expect([...boxMean(new Float32Array([0.5]), 1, 1, 4)]).toEqual([0.5]);
  });
});

describe('guidedFilter', () => {
  it('sharpens a blurred alpha towards the step edge of the guide', () => {
    const w = 64, h = 16, row = 8 * w;
    const guide = plane(w, h, step(32));
    const blurred = plane(w, h, ramp(32, 6));
    const q = guidedFilter(guide, blurred, w, h, 4, 1e-4);
    // The blur spreads the edge over 12 px in steps of 0.08; the filter puts a jump of over half the
    // range back where the guide has its edge (the rest stays as a faint tail, as the method does).
    expect(blurred[row + 32] - blurred[row + 31]).toBeLessThan(0.1);
    expect(q[row + 32] - q[row + 31]).toBeGreaterThan(0.35);
    expect(q[row + 31]).toBeLessThan(0.3);
    expect(q[row + 32]).toBeGreaterThan(0.6);
    // Squared error to the true step: the L1 error does not move (the filter keeps local means, so the
    // mass it takes from the ramp reappears in the tails), but the edge itself is much closer.
    const sq = (a: Float32Array) => a.reduce((s, v, i) => s + (v - guide[i]) ** 2, 0);
    expect(sq(q)).toBeLessThan(sq(blurred) * 0.7);
  });

  it('leaves a flat alpha flat, whatever the guide', () => {
    const w = 20, h = 20;
    const guide = plane(w, h, (x, y) => ((x * 7 + y * 3) % 11) / 10);
    const q = guidedFilter(guide, new Float32Array(w * h).fill(0.7), w, h, 3, 1e-3);
    for (const v of q) expect(v).toBeCloseTo(0.7, 5);
  });

  it('reduces to a box blur of the alpha where the guide is flat', () => {
    const w = 40, h = 4;
    const p = plane(w, h, step(20));
    const q = guidedFilter(new Float32Array(w * h).fill(0.5), p, w, h, 2, 1e-3);
    // Mean of means: the step spreads over 2r = 4 px either side instead of staying sharp.
    expect(q[w + 18]).toBeGreaterThan(0.05);
    expect(q[w + 21]).toBeLessThan(0.95);
    expect(q[w + 10]).toBeCloseTo(0, 5);
    expect(q[w + 30]).toBeCloseTo(1, 5);
  });
});

describe('applyCoefficients (fast guided filter)', () => {
  it('puts a low-resolution alpha edge where the full-resolution guide has it', () => {
    // Low grid: 32 px wide, step at 16 blurred. Full image: 128 px wide, the true edge at 67 (not a
    // multiple of the 4x scale, so a plain upscale would put the soft edge around 64).
    const cw = 32, ch = 8, W = 128, H = 32, edge = 67;
    const lowGuide = plane(cw, ch, step(edge / 4));
    const lowAlpha = plane(cw, ch, ramp(16, 3));
    const coef = guidedCoefficients(lowGuide, lowAlpha, cw, ch, 3, 1e-4);
    const out = applyCoefficients(coef, plane(W, H, step(edge)), W, H);
    const row = 16 * W;
    // The alpha crosses one half exactly at the guide's edge (a bilinear upscale would cross near 64)
    // and jumps there by far more than the ramp's ~20 per pixel.
    expect(out[row + edge - 1]).toBeLessThan(100);
    expect(out[row + edge]).toBeGreaterThan(170);
    expect(out[row + 64]).toBeLessThan(100);
    expect(out[row + 10]).toBe(0);
    expect(out[row + 120]).toBe(255);
  });

  it('reproduces a constant field exactly and copes with a 1x1 grid', () => {
    const coef = { a: new Float32Array([0]), b: new Float32Array([0.5]), width: 1, height: 1 };
    const out = applyCoefficients(coef, new Float32Array(6).fill(0.3), 3, 2);
    expect([...out]).toEqual([128, 128, 128, 128, 128, 128]);
  });
});

describe('fastGuidedFilter', () => {
  it('matches the full filter on blotches over an edge, keeping the edge, at a quarter grid', () => {
    const W = 120, H = 90;
    // A 0.3 | 0.7 edge at x = 61 with smooth blotches (period ~20 px, ±0.04) and a pixel-scale texture.
    const f = (x: number, y: number) => (x < 61 ? 0.3 : 0.7) + 0.04 * Math.sin(x / 3.2) * Math.cos(y / 3.7) + ((x + y) % 2 ? 0.01 : -0.01);
    const p = plane(W, H, f);
    const full = guidedFilter(p, p, W, H, 12, 0.01), fast = fastGuidedFilter(p, p, W, H, 12, 0.01, 4);
    let worst = 0;
    for (let i = 0; i < full.length; i++) worst = Math.max(worst, Math.abs(full[i] - fast[i]));
    expect(worst).toBeLessThan(0.02);
    expect(fast[45 * W + 64] - fast[45 * W + 57]).toBeGreaterThan(0.3);
    expect(fastGuidedFilter(p, p, W, H, 3, 0.01, 1)).toEqual(guidedFilter(p, p, W, H, 3, 0.01));
  });
});
