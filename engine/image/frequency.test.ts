import { describe, expect, it } from 'vitest';
import { bandEnergy, blurPlane, blurPlaneCoarse, mergeBands, splitBands } from './frequency.ts';

const W = 64, H = 32;
/** A step edge at x = 32 (0.2 | 0.8) with a ±0.03 checkerboard "pore" texture on top. */
const photo = () => Float32Array.from({ length: W * H }, (_, i) => ((i % W) < 32 ? 0.2 : 0.8) + (((i % W) + Math.floor(i / W)) % 2 ? 0.03 : -0.03));
const ones = new Float32Array(W * H).fill(1);

describe('frequency separation', () => {
  it('splits into bands that add back to the plane', () => {
    const p = photo(), { low, high } = splitBands(p, W, H, 2);
    const back = mergeBands(low, high);
    for (let i = 0; i < p.length; i++) expect(back[i]).toBeCloseTo(p[i], 5);
    expect(bandEnergy(high, ones)).toBeGreaterThan(0.0008);
  });
  it('blurs a checkerboard to its mean and leaves a sub-pixel sigma alone', () => {
    const b = blurPlane(photo(), W, H, 2);
    expect(b[10 * W + 10]).toBeCloseTo(0.2, 2);
    expect([...blurPlane(photo(), W, H, 0.3)]).toEqual([...photo()]);
  });
});

describe('blurPlaneCoarse', () => {
  // The box radii round differently at the two scales (sigma 20 against 5 on blocks of 4): a few percent.
  it('is the broad blur within 5 % of a unit step', () => {
    const w = 200, h = 150;
    const p = Float32Array.from({ length: w * h }, (_, i) => ((i % w) > 90 && Math.floor(i / w) < 70 ? 1 : 0) + 0.3 * Math.sin(i / 37));
    const fine = blurPlane(p, w, h, 20), coarse = blurPlaneCoarse(p, w, h, 20);
    let worst = 0;
    for (let i = 0; i < p.length; i++) worst = Math.max(worst, Math.abs(fine[i] - coarse[i]));
    expect(worst).toBeLessThan(0.05);
  });
});
