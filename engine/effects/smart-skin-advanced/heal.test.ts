import { describe, expect, it } from 'vitest';
import { blurCoarse, blurPlane, maskedBlur } from '../../image/frequency.ts';
import { healSpots } from './heal.ts';
import { valleyDepth, valleyness } from './ridges.ts';

const W = 96, H = 96;
/** A deterministic grain (±3) on a gentle ramp: skin-like lightness. */
const rand = (i: number) => { const s = Math.sin(i * 12.9898) * 43758.5453; return s - Math.floor(s); };
const skin = () => Float32Array.from({ length: W * H }, (_, i) => 50 + 0.1 * (i % W) + 6 * (rand(i) - 0.5));
const disc = (p: Float32Array, cx: number, cy: number, r: number, dv: number) => {
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (Math.hypot(x - cx, y - cy) <= r) p[y * W + x] += dv;
  return p;
};
const stats = (p: Float32Array, cx: number, cy: number, r: number) => {
  const v: number[] = [];
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (Math.hypot(x - cx, y - cy) <= r) v.push(p[y * W + x]);
  const mean = v.reduce((s, x) => s + x, 0) / v.length;
  return { mean, sd: Math.sqrt(v.reduce((s, x) => s + (x - mean) ** 2, 0) / v.length) };
};

describe('healSpots', () => {
  it('covers a dark spot with the skin around, grain included, and touches nothing beyond its halo', () => {
    const clean = skin(), p = disc(skin(), 48, 48, 5, -20), before = Float32Array.from(p);
    expect(healSpots([p], W, H, [{ x: 48, y: 48, r: 5 }], { allowed: new Float32Array(W * H).fill(1) })).toBe(1);
    const a = stats(p, 48, 48, 5), c = stats(clean, 48, 48, 5);
    expect(Math.abs(a.mean - c.mean)).toBeLessThan(1.5);
    // Not a smear: the spot keeps most of the grain's spread (a membrane fill alone would have sd ~0.3).
    expect(a.sd).toBeGreaterThan(0.6 * c.sd);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (Math.hypot(x - 48, y - 48) > 5 * 1.6 + 1) expect(p[y * W + x]).toBe(before[y * W + x]);
  });
  it('leaves a spot alone when no clean skin lies beside it', () => {
    const p = disc(skin(), 48, 48, 5, -20), before = Float32Array.from(p);
    const allowed = new Float32Array(W * H); // nowhere
    expect(healSpots([p], W, H, [{ x: 48, y: 48, r: 5 }], { allowed })).toBe(0);
    expect([...p]).toEqual([...before]);
  });
  it('never takes a donor patch from another spot', () => {
    // Two spots side by side: each heals from clean skin, so both end near the clean level.
    const clean = skin(), p = disc(disc(skin(), 40, 48, 4, -20), 62, 48, 4, -20);
    healSpots([p], W, H, [{ x: 40, y: 48, r: 4 }, { x: 62, y: 48, r: 4 }], { allowed: new Float32Array(W * H).fill(1) });
    for (const x of [40, 62]) expect(Math.abs(stats(p, x, 48, 4).mean - stats(clean, x, 48, 4).mean)).toBeLessThan(2);
  });
});

describe('valleyness and valleyDepth', () => {
  it('find a thin dark line, not a round dot of the same width, and measure its depth', () => {
    const p = new Float32Array(W * H).fill(60);
    for (let y = 10; y < 86; y++) for (let x = 0; x < W; x++) p[y * W + x] -= 10 * Math.exp(-((x - 30) ** 2) / 4);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) p[y * W + x] -= 10 * Math.exp(-((x - 70) ** 2 + (y - 48) ** 2) / 4);
    const v = valleyness(p, W, H, 1.5, 0.5), d = valleyDepth(p, W, H, 1.5);
    expect(v[48 * W + 30]).toBeGreaterThan(0.5);
    expect(v[48 * W + 70]).toBeLessThan(0.15);
    expect(v[48 * W + 50]).toBe(0);
    expect(d[48 * W + 30]).toBeGreaterThan(3);
    expect(d[48 * W + 50]).toBeCloseTo(0, 3);
  });
});

describe('maskedBlur', () => {
  it('averages only the weighted pixels', () => {
    // Left half skin at 40, right half background at 90: the skin's local mean near the border stays 40.
    const p = Float32Array.from({ length: W * H }, (_, i) => (i % W < 48 ? 40 : 90));
    const m = Float32Array.from({ length: W * H }, (_, i) => (i % W < 48 ? 1 : 0));
    expect(maskedBlur(p, m, W, H, 6)[48 * W + 46]).toBeCloseTo(40, 3);
  });
});

describe('blurCoarse', () => {
  it('matches blurPlane on a textured ramp to within a few hundredths of its range', () => {
    const p = Float32Array.from({ length: W * H }, (_, i) => (i % W) / W + Math.floor(i / W) / H + 0.3 * rand(i));
    const exact = blurPlane(p, W, H, 12), coarse = blurCoarse(p, W, H, 12);
    let worst = 0;
    for (let y = 12; y < H - 12; y++) for (let x = 12; x < W - 12; x++) worst = Math.max(worst, Math.abs(exact[y * W + x] - coarse[y * W + x]));
    expect(worst).toBeLessThan(0.03);
  });
});
