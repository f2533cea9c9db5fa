import { describe, expect, it } from 'vitest';
import { applyCoefficients, guidedCoefficients } from '../../image/guided-filter.ts';
import { boundingBox, guidedUpsample, guideStats } from './upsample.ts';

/** A w x h guide with an edge and some texture, and a soft disc as the plane to filter. */
function scene(w: number, h: number, cx: number, cy: number, r: number) {
  const guide = new Float32Array(w * h), p = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const d = Math.hypot(x - cx, y - cy);
    guide[y * w + x] = (d < r ? 0.7 : 0.2) + 0.05 * Math.sin(x * 0.7) * Math.cos(y * 0.3);
    p[y * w + x] = Math.max(0, Math.min(1, (r + 3 - d) / 6));
  }
  return { guide, p };
}

/** The same guide at 3x: each grid pixel's block of 3 x 3. */
function upscale3(g: Float32Array, w: number, h: number): Float32Array {
  const out = new Float32Array(9 * w * h);
  for (let y = 0; y < 3 * h; y++) for (let x = 0; x < 3 * w; x++) out[y * 3 * w + x] = g[Math.floor(y / 3) * w + Math.floor(x / 3)];
  return out;
}

describe('guidedUpsample', () => {
  const w = 60, h = 50, r = 4, eps = 1e-3;
  const { guide, p } = scene(w, h, 20, 22, 8);
  const full = upscale3(guide, w, h);
  const reference = applyCoefficients(guidedCoefficients(guide, p, w, h, r, eps), full, 3 * w, 3 * h);

  it('matches the plain fast guided filter over the whole grid', () => {
    const out = guidedUpsample(guideStats(guide, w, h, r), guide, p, { x0: 0, y0: 0, w, h }, eps, full, 3 * w, 3 * h);
    let worst = 0;
    for (let i = 0; i < out.length; i++) worst = Math.max(worst, Math.abs(out[i] - reference[i]));
    expect(worst).toBeLessThanOrEqual(1);
  });

  it('gives the same within the plane\'s bounding box (grown by 2r) and zero outside it', () => {
    const box = boundingBox(p, w, h, 0.5 / 255, 2 * r + 1)!;
    expect(box.x0).toBeGreaterThan(0);
    expect(box.x0 + box.w).toBeLessThan(w);
    const out = guidedUpsample(guideStats(guide, w, h, r), guide, p, box, eps, full, 3 * w, 3 * h);
    let worst = 0, outside = 0;
    for (let y = 0; y < 3 * h; y++) for (let x = 0; x < 3 * w; x++) {
      const i = y * 3 * w + x;
      worst = Math.max(worst, Math.abs(out[i] - reference[i]));
      const inBox = x / 3 >= box.x0 && x / 3 < box.x0 + box.w && y / 3 >= box.y0 && y / 3 < box.y0 + box.h;
      if (!inBox) outside = Math.max(outside, out[i]);
    }
    expect(worst).toBeLessThanOrEqual(2);
    expect(outside).toBe(0);
  });

  it('gives the same values at a lattice\'s points as at full resolution, 0 at points off the plane', () => {
    const box = boundingBox(p, w, h, 0.5 / 255, 2 * r + 1)!;
    const stats = guideStats(guide, w, h, r);
    const all = guidedUpsample(stats, guide, p, box, eps, full, 3 * w, 3 * h);
    const xs = Int32Array.from([-2, 0, 5, 31, 32, 64, 100, 3 * w - 1, 3 * w + 4]), ys = Int32Array.from([-1, 3, 40, 66, 67, 90, 3 * h]);
    const at = new Float32Array(xs.length * ys.length);
    ys.forEach((y, q) => xs.forEach((x, k) => { if (x >= 0 && y >= 0 && x < 3 * w && y < 3 * h) at[q * xs.length + k] = full[y * 3 * w + x]; }));
    const out = guidedUpsample(stats, guide, p, box, eps, at, 3 * w, 3 * h, { xs, ys });
    ys.forEach((y, q) => xs.forEach((x, k) => {
      expect(out[q * xs.length + k]).toBe(x >= 0 && y >= 0 && x < 3 * w && y < 3 * h ? all[y * 3 * w + x] : 0);
    }));
    expect(out.some((v) => v > 100)).toBe(true);
  });

  it('finds no box for an empty plane', () => {
    expect(boundingBox(new Float32Array(100), 10, 10, 0.01, 3)).toBeNull();
  });
});
