import { describe, expect, it } from 'vitest';
import { inpaint } from './inpaint.ts';

const W = 96, H = 80;
const rand = (i: number) => { const s = Math.sin(i * 12.9898) * 43758.5453; return s - Math.floor(s); };
/** A periodic weave with grain: texture a smear could never reproduce. */
const weave = (x: number, y: number) => 50 + 12 * Math.sin((2 * Math.PI * x) / 8) * Math.sin((2 * Math.PI * y) / 6);
const image = (f: (x: number, y: number, i: number) => number) => Float32Array.from({ length: W * H }, (_, i) => f(i % W, (i / W) | 0, i));
const box = (x0: number, y0: number, x1: number, y1: number) => Uint8Array.from({ length: W * H }, (_, i) => {
  const x = i % W, y = (i / W) | 0;
  return x >= x0 && x < x1 && y >= y0 && y < y1 ? 1 : 0;
});
const everywhere = () => new Uint8Array(W * H).fill(1);
const inHole = (p: Float32Array, hole: Uint8Array) => [...p].filter((_, i) => hole[i]);
const sd = (v: number[]) => { const m = v.reduce((s, x) => s + x, 0) / v.length; return Math.sqrt(v.reduce((s, x) => s + (x - m) ** 2, 0) / v.length); };

describe('inpaint', () => {
  it('continues a texture through a hole instead of smearing it', () => {
    const truth = image(weave);
    const hole = box(36, 28, 62, 52);
    const broken = Float32Array.from(truth, (v, i) => (hole[i] ? 0 : v));
    const { data } = inpaint(broken, W, H, 1, hole, everywhere(), { patch: 7 });
    const got = inHole(data, hole), want = inHole(truth, hole);
    const err = got.reduce((s, v, k) => s + Math.abs(v - want[k]), 0) / got.length;
    // The weave's amplitude is 12 (sd about 6): a smear would sit near 50 with an error about 5.
    expect(err).toBeLessThan(1.5);
    expect(sd(got)).toBeGreaterThan(0.8 * sd(want));
  });

  it('keeps every pixel outside the hole and copies only from the source', () => {
    // Left half dark grain, right half light grain; only the right half may be copied from.
    const img = image((x, _y, i) => (x < W / 2 ? 20 : 80) + 4 * rand(i));
    const hole = box(12, 30, 30, 50);
    const source = box(W / 2, 0, W, H);
    const { data, from } = inpaint(img, W, H, 1, hole, source);
    for (let i = 0; i < W * H; i++) {
      if (!hole[i]) { expect(data[i]).toBe(img[i]); expect(from[i]).toBe(-1); continue; }
      expect(source[from[i]]).toBe(1);
      expect(data[i]).toBeGreaterThan(78);
    }
  });

  it('fills every channel of a pixel from the same place', () => {
    const C = 3, img = new Float32Array(W * H * C);
    for (let i = 0; i < W * H; i++) { const v = weave(i % W, (i / W) | 0) + 3 * rand(i); img[i * 3] = v; img[i * 3 + 1] = 2 * v; img[i * 3 + 2] = -v; }
    const hole = box(40, 30, 56, 46);
    const { data, from } = inpaint(img, W, H, C, hole, everywhere());
    for (let i = 0; i < W * H; i++) {
      if (!hole[i]) continue;
      // Channels keep their relation, since whole pixels are voted.
      expect(data[i * 3 + 1]).toBeCloseTo(2 * data[i * 3], 3);
      expect(data[i * 3 + 2]).toBeCloseTo(-data[i * 3], 3);
      expect(hole[from[i]]).toBe(0);
    }
  });

  it('is repeatable with a seed', () => {
    const img = image((x, y, i) => weave(x, y) + 5 * rand(i));
    const hole = box(30, 20, 60, 60);
    const a = inpaint(img, W, H, 1, hole, everywhere(), { seed: 7 }), b = inpaint(img, W, H, 1, hole, everywhere(), { seed: 7 });
    expect([...a.data]).toEqual([...b.data]);
  });

  it('refuses when no source patch fits, rather than smearing', () => {
    const img = image(weave);
    const hole = box(30, 20, 60, 60);
    expect(() => inpaint(img, W, H, 1, hole, box(0, 0, 5, 5), { patch: 7 })).toThrow(/no source patch/);
  });

  it('returns the image as it is without a hole', () => {
    const img = image(weave);
    const { data } = inpaint(img, W, H, 1, new Uint8Array(W * H), everywhere());
    expect([...data]).toEqual([...img]);
  });
});
