import { describe, expect, it } from 'vitest';
import { bandEnergy, blurPlane, splitBands } from '../image/frequency.ts';
import { faceEps, faceShapeBand, sizeRamp, smoothMasked, smoothPlane } from './smooth.ts';
import { labToRgb, rgbToLab } from '../image/colour.ts';
import { whitenSkin } from './tone.ts';

const W = 64, H = 32;
/** A step edge at x = 32 (0.2 | 0.8) with a ±0.03 checkerboard "pore" texture on top. */
const photo = () => Float32Array.from({ length: W * H }, (_, i) => ((i % W) < 32 ? 0.2 : 0.8) + (((i % W) + Math.floor(i / W)) % 2 ? 0.03 : -0.03));
const ones = new Float32Array(W * H).fill(1);

describe('smoothPlane', () => {
  it('flattens texture below eps, keeps the edge, and restores the pore band in part', () => {
    const p = photo();
    const flat = smoothPlane(p, W, H, { radius: 4, eps: 0.01, poreSigma: 1, texture: 0 });
    const kept = smoothPlane(p, W, H, { radius: 4, eps: 0.01, poreSigma: 1, texture: 0.5 });
    const hp = splitBands(p, W, H, 1).high, hf = splitBands(flat, W, H, 1).high, hk = splitBands(kept, W, H, 1).high;
    // Away from the edge the checkerboard is gone without texture, about half back with it.
    const inner = Float32Array.from(ones, (_, i) => (Math.abs((i % W) - 32) > 8 ? 1 : 0));
    expect(bandEnergy(hf, inner)).toBeLessThan(0.1 * bandEnergy(hp, inner));
    expect(bandEnergy(hk, inner) / bandEnergy(hp, inner)).toBeGreaterThan(0.15);
    expect(bandEnergy(hk, inner) / bandEnergy(hp, inner)).toBeLessThan(0.5);
    // The 0.6 step survives: 3 px either side of it the levels are still apart.
    expect(flat[10 * W + 35] - flat[10 * W + 28]).toBeGreaterThan(0.5);
  });

  it('gives back `shape` of the broad shading it flattened, and not the grain', () => {
    // A soft shadow (a Gaussian dip of 0.06, sigma 5 px: below eps, so the filter flattens it) under the grain.
    const p = photo().map((v, i) => (i % W < 32 ? v - 0.06 * Math.exp(-(((i % W) - 16) ** 2 + (Math.floor(i / W) - 16) ** 2) / 50) : v));
    const o = { radius: 8, eps: 0.01, poreSigma: 1, texture: 0 };
    const flat = smoothPlane(p, W, H, o), shaped = smoothPlane(p, W, H, { ...o, shapeSigma: 2, shape: 0.5 });
    const depth = (q: Float32Array) => blurPlane(q, W, H, 2)[16 * W + 4] - blurPlane(q, W, H, 2)[16 * W + 16];
    expect(depth(shaped)).toBeGreaterThan(depth(flat) + 0.3 * depth(p) - 0.01);
    const inner = Float32Array.from(ones, (_, i) => (Math.abs((i % W) - 32) > 8 ? 1 : 0));
    expect(bandEnergy(splitBands(shaped, W, H, 1).high, inner)).toBeLessThan(0.1 * bandEnergy(splitBands(p, W, H, 1).high, inner));
  });
});

describe('per face width', () => {
  it('keeps eps from fullWidth up and grows it as the face shrinks below', () => {
    expect(faceEps(0.01, 300, 100)).toBe(0.01);
    expect(faceEps(0.01, 100, 100)).toBe(0.01);
    expect(faceEps(0.01, 50, 100)).toBeCloseTo(0.02, 10);
    expect(faceEps(0.004, 40, 400)).toBeCloseTo(0.04, 10);
    // Power 2: the contrast threshold (sqrt eps) grows as the pixel's share of the face.
    expect(faceEps(0.004, 85, 170, 2)).toBeCloseTo(0.016, 10);
    expect(faceEps(0.004, 200, 170, 2)).toBe(0.004);
  });
  it('ramps a size-bound part from nothing at `from` px to all of it at `to` px', () => {
    expect(sizeRamp(30, 35, 50)).toBe(0);
    expect(sizeRamp(35, 35, 50)).toBe(0);
    expect(sizeRamp(42.5, 35, 50)).toBeCloseTo(0.5, 10);
    expect(sizeRamp(50, 35, 50)).toBe(1);
    expect(sizeRamp(400, 35, 50)).toBe(1);
  });
  it('floors the shape band at minPx and gives more of it back on faces too small to reach it', () => {
    const t = { sigma: 0.015, share: 0.3, minPx: 1.5, smallShare: 0.8 };
    expect(faceShapeBand(60, t)).toEqual({ shapeSigma: 1.5, shape: 0.8 });
    const big = faceShapeBand(400, t);
    expect(big.shapeSigma).toBeCloseTo(6, 10);
    expect(big.shape).toBeCloseTo(0.3, 10);
    const mid = faceShapeBand(150, t);
    expect(mid.shapeSigma).toBeCloseTo(2.25, 10);
    expect(mid.shape).toBeCloseTo(0.55, 10);
  });
});

describe('smoothPlane keep', () => {
  const inner = Float32Array.from(ones, (_, i) => (Math.abs((i % W) - 32) > 8 ? 1 : 0));
  const ratio = (q: Float32Array) => bandEnergy(splitBands(q, W, H, 1).high, inner) / bandEnergy(splitBands(photo(), W, H, 1).high, inner);
  const o = { radius: 4, eps: 0.01, poreSigma: 1, texture: 0.2 };

  it('gives back as much of the pore band as leaves `energy` of the fine texture', () => {
    const kept = smoothPlane(photo(), W, H, { ...o, keep: { energy: 0.6, sigma: 1, where: inner } });
    expect(ratio(smoothPlane(photo(), W, H, o))).toBeLessThan(0.3);
    expect(ratio(kept)).toBeCloseTo(0.6, 2);
  });

  it('never gives back less than `texture`, nor more than all of the band', () => {
    expect([...smoothPlane(photo(), W, H, { ...o, keep: { energy: 0.01, sigma: 1, where: inner } })]).toEqual([...smoothPlane(photo(), W, H, o)]);
    const all = smoothPlane(photo(), W, H, { ...o, keep: { energy: 5, sigma: 1, where: inner } });
    expect([...all]).toEqual([...smoothPlane(photo(), W, H, { ...o, texture: 1 })]);
  });
});

describe('smoothMasked keep', () => {
  const rgb = () => Uint8Array.from({ length: W * H * 3 }, (_, j) => Math.round(255 * photo()[Math.floor(j / 3)]));
  const o = { radius: 4, eps: 0.01, poreSigma: 1, texture: 0.2 };
  // The texture is weighed away from the step edge, which the filter keeps.
  const inner = Float32Array.from(ones, (_, i) => (Math.abs((i % W) - 32) > 8 ? 1 : 0));
  const run = (strength: number, keep?: number) => {
    const px = rgb();
    smoothMasked(px, 3, W, H, ones, keep === undefined ? o : { ...o, keep: { energy: keep, sigma: 1, where: inner } }, strength);
    return [...px];
  };

  it('asks the smoothed plane for less texture when it is blended in at part strength', () => {
    // At 0.5 the original's half already keeps most of the texture: nothing more comes back.
    expect(run(0.5, 0.4)).toEqual(run(0.5));
    expect(run(1, 0.4)).not.toEqual(run(1));
  });
});

describe('Lab whitening', () => {
  it('round-trips sRGB through Lab', () => {
    const lab = [0, 0, 0], rgb = [0, 0, 0];
    for (const c of [[0, 0, 0], [255, 255, 255], [200, 150, 120], [90, 60, 40], [12, 200, 90]]) {
      rgbToLab(c[0], c[1], c[2], lab);
      labToRgb(lab[0], lab[1], lab[2], rgb);
      expect(rgb).toEqual(c);
    }
    rgbToLab(255, 255, 255, lab);
    expect(lab[0]).toBeCloseTo(100, 1);
  });
  it('lifts lightness where the mask is on, keeps hue, and leaves the rest', () => {
    const w = 16, h = 1, px = Buffer.alloc(w * 3);
    for (let i = 0; i < w; i++) px.set([180, 120, 95], i * 3);
    const mask = Float32Array.from({ length: w }, (_, i) => (i < 8 ? 1 : 0));
    whitenSkin(px, 3, w, h, mask, { strength: 1, lift: 9, even: 0.5, toneSigma: 2 });
    const a = [0, 0, 0], b = [0, 0, 0];
    rgbToLab(180, 120, 95, a); rgbToLab(px[0], px[1], px[2], b);
    expect(b[0] - a[0]).toBeGreaterThan(6);
    expect(Math.abs(Math.atan2(b[2], b[1]) - Math.atan2(a[2], a[1]))).toBeLessThan(0.02);
    expect([...px.subarray(8 * 3)]).toEqual(Array(8).fill([180, 120, 95]).flat());
  });
});
