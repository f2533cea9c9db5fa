/** The skin kernels on planes whose answer is known by construction (lines and blobs have files of their own). */
import { describe, expect, it } from 'vitest';
import { toLab } from '../../../image/colour.ts';
import { gauss, zoneSpans } from '../../../image/gauss.ts';
import { SKIN_AGE_RANGE } from '../tuning.ts';
import { fromAgeScale, skinAgeOf, toAgeScale } from './age.ts';
import { fades, grows } from './confidence.ts';
import { along } from './eyes.ts';
import { irisDiameter, pixelsPerMm, resamplePlane } from './frame.ts';
import { darkCircle, HAEMOGLOBIN, itaClass, itaOf, MELANIN, nth, pigments } from './pigment.ts';
import { shineMap, skinType } from './shine.ts';
import { renderSynthetic } from './synthetic.ts';
import { flat, H, W } from './test-planes.ts';
import { nearestUp } from './zones.ts';

describe('gauss', () => {
  it('keeps the mean and spreads an impulse by σ', () => {
    const p = new Float32Array(W * H); p[50 * W + 60] = 1;
    const g = gauss(p, W, H, 1.2);
    expect(g.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 3);
    let v = 0;
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) v += (x - 60) ** 2 * g[y * W + x];
    expect(Math.sqrt(v)).toBeGreaterThan(1.1); expect(Math.sqrt(v)).toBeLessThan(1.3);
  });

  it('gives exactly the whole plane\'s values within row spans (a disc near the edge, grown)', () => {
    const p = new Float32Array(W * H).map((_, i) => 50 + 20 * Math.sin(i * 0.37) * Math.cos(i * 0.011));
    const zone = new Float32Array(W * H);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (Math.hypot(x - 8, y - 60) < 25) zone[y * W + x] = 1;
    const spans = zoneSpans(zone, W, H, 2);
    expect(spans.lo[60]).toBe(0);
    expect(spans.hi[60]).toBe(8 + 24 + 2);
    expect(spans.hi[10]).toBeLessThan(spans.lo[10]); // no zone within 2 rows
    for (const sigma of [0.7, 1.5, 2.2]) {
      const all = gauss(p, W, H, sigma), part = gauss(p, W, H, sigma, spans);
      let inside = 0;
      for (let y = 0; y < H; y++) for (let x = spans.lo[y]; x <= spans.hi[y]; x++) { expect(part[y * W + x]).toBe(all[y * W + x]); inside++; }
      expect(inside).toBeGreaterThan(1000);
    }
  });

  // The explicit kernel tap by tap, one pixel at a time (rows then columns, each sum in double in tap
  // order, the edges clamped): gauss computes four pixels and two column taps a sweep, which changes no
  // addition, so it matches to the bit on random data, across the edge cases of small planes.
  it.each([[37, 29, 0.7], [37, 29, 1.4], [41, 23, 2.3], [5, 9, 1.1], [9, 4, 2], [1, 6, 0.9]])('equals a tap-by-tap reference to the bit on random data (%i x %i, σ %f)', (w, h, sigma) => {
    let seed = w * 977 + h;
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    const p = new Float32Array(w * h).map(() => 100 * rand());
    const r = Math.ceil(3 * sigma), k = new Float32Array(2 * r + 1);
    let sum = 0;
    for (let i = -r; i <= r; i++) { k[i + r] = Math.exp(-(i * i) / (2 * sigma * sigma)); sum += k[i + r]; }
    for (let i = 0; i < k.length; i++) k[i] /= sum;
    const cl = (v: number, n: number) => (v < 0 ? 0 : v >= n ? n - 1 : v);
    const tmp = new Float32Array(w * h), want = new Float32Array(w * h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) { let s = 0; for (let i = -r; i <= r; i++) s += k[i + r] * p[y * w + cl(x + i, w)]; tmp[y * w + x] = s; }
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) { let s = 0; for (let i = -r; i <= r; i++) s += k[i + r] * tmp[cl(y + i, h) * w + x]; want[y * w + x] = s; }
    expect(gauss(p, w, h, sigma)).toEqual(want);
    const zone = new Float32Array(w * h).map(() => (rand() < 0.3 ? 1 : 0)), spans = zoneSpans(zone, w, h, 1);
    const part = gauss(p, w, h, sigma, spans);
    for (let y = 0; y < h; y++) for (let x = Math.max(0, spans.lo[y]); x <= Math.min(w - 1, spans.hi[y]); x++) expect(part[y * w + x]).toBe(want[y * w + x]);
  });
});

describe('nearestUp', () => {
  it('gives every pixel its grid cell\'s value (a small zone, an empty one)', () => {
    const zw = 23, zh = 17, w = 50, h = 39;
    const p = new Float32Array(zw * zh);
    for (let y = 5; y < 9; y++) for (let x = 12; x < 20; x++) p[y * zw + x] = (x * 7 + y * 3) % 5 / 4;
    const xs = Int32Array.from({ length: w }, (_, x) => Math.min(zw - 1, Math.floor(((x + 0.5) * zw) / w)));
    const ys = Int32Array.from({ length: h }, (_, y) => Math.min(zh - 1, Math.floor(((y + 0.5) * zh) / h)));
    const v = nearestUp(p, zw, zh, xs, ys, w, h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) expect(v[y * w + x]).toBe(p[ys[y] * zw + xs[x]]);
    expect(nearestUp(new Float32Array(zw * zh), zw, zh, xs, ys, w, h).every((x) => x === 0)).toBe(true);
  });
});

describe('pigment', () => {
  it('separates a melanin change from a haemoglobin change and from shading', () => {
    const base = [180, 130, 110];
    const shift = (dir: readonly number[], k: number) => base.map((v, i) => {
      const lin = ((v / 255 + 0.055) / 1.055) ** 2.4 * Math.exp(-k * dir[i]);
      return Math.round(255 * (1.055 * lin ** (1 / 2.4) - 0.055));
    });
    const px = new Uint8Array([...base, ...shift(MELANIN, 0.5), ...shift(HAEMOGLOBIN, 0.5), ...shift([1, 1, 1], 0.5)]);
    const p = pigments(px, 4);
    // The two directions are close, so byte rounding moves the other density by up to ~0.1.
    expect(p.melanin[1] - p.melanin[0]).toBeGreaterThan(0.4);
    expect(Math.abs(p.haemoglobin[1] - p.haemoglobin[0])).toBeLessThan(0.1);
    expect(p.haemoglobin[2] - p.haemoglobin[0]).toBeGreaterThan(0.4);
    expect(Math.abs(p.melanin[2] - p.melanin[0])).toBeLessThan(0.1);
    expect(p.shading[3] - p.shading[0]).toBeGreaterThan(0.4);
    expect(Math.abs(p.melanin[3] - p.melanin[0]) + Math.abs(p.haemoglobin[3] - p.haemoglobin[0])).toBeLessThan(0.15);
  });
  it('selects the k-th smallest as a sort would, duplicates and all', () => {
    let seed = 11; const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const v = Float32Array.from({ length: 1001 }, () => Math.round(rnd() * 40) / 4);
    const sorted = Float32Array.from(v).sort();
    for (const k of [0, 1, 250, 500, 999, 1000]) expect(nth(Float32Array.from(v), k)).toBe(sorted[k]);
  });
  it('puts ITA° into the five classes', () => {
    expect(itaOf(70, 10)).toBeCloseTo(63.43, 1);
    expect([60, 45, 35, 20, 0, -40].map(itaClass)).toEqual([0, 1, 2, 3, 4, 4]);
  });
  it('types dark circles by the density that darkens most', () => {
    const cheek = { L: 60, m: 1, h: 1, s: 1 };
    expect(darkCircle({ L: 59, m: 1.2, h: 1, s: 1 }, cheek).type).toBe(0);
    expect(darkCircle({ L: 54, m: 1.4, h: 1.05, s: 1 }, cheek).type).toBe(1);
    expect(darkCircle({ L: 54, m: 1, h: 1.5, s: 1.05 }, cheek).type).toBe(2);
    expect(darkCircle({ L: 54, m: 1.02, h: 1, s: 1.3 }, cheek).type).toBe(3);
  });
});

describe('shine and skin type', () => {
  it('marks a pale highlight, not a darker or more coloured patch', () => {
    const L = flat(), a = new Float32Array(W * H).fill(14), b = new Float32Array(W * H).fill(18);
    for (let y = 45; y < 55; y++) for (let x = 30; x < 40; x++) { const i = y * W + x; L[i] = 78; a[i] = 6; b[i] = 8; }
    for (let y = 45; y < 55; y++) for (let x = 80; x < 90; x++) { const i = y * W + x; L[i] = 50; a[i] = 20; }
    const s = shineMap({ L, a, b, w: W, h: H }, 3);
    expect(s[50 * W + 35]).toBeGreaterThan(0.8);
    expect(s[50 * W + 85]).toBe(0);
    expect(s[10 * W + 10]).toBe(0);
  });
  it('tells oily, dry, neutral and combination apart', () => {
    expect(skinType(0.08, 0.06, 1.5).type).toBe(0);
    expect(skinType(0.005, 0.004, 3.5).type).toBe(1);
    expect(skinType(0.005, 0.004, 1.2).type).toBe(2);
    expect(skinType(0.08, 0.004, 1.5).type).toBe(3);
  });
});

describe('frame, eyes, confidences, skin age', () => {
  it('takes the scale from the iris and falls back to the face width when the iris is implausible', () => {
    const mesh = Array.from({ length: 478 }, () => [0, 0, 0]);
    mesh[234] = [100, 200, 0]; mesh[454] = [380, 200, 0]; // 280 px face: 2 px/mm
    const iris = (c: number, x: number, r: number) => { mesh[c] = [x, 150, 0]; [[r, 0], [0, -r], [-r, 0], [0, r]].forEach(([dx, dy], k) => { mesh[c + 1 + k] = [x + dx, 150 + dy, 0]; }); };
    iris(468, 180, 12); iris(473, 300, 12);
    expect(irisDiameter(mesh)).toBeCloseTo(24, 5);
    expect(pixelsPerMm(mesh).pxPerMm).toBeCloseTo(24 / 11.7, 5);
    iris(468, 180, 40); iris(473, 300, 40);
    expect(pixelsPerMm(mesh).pxPerMm).toBeCloseTo(2, 5);
  });
  it('resamples planes and walks polylines', () => {
    const p = new Float32Array([0, 1, 0, 1]);
    expect(Array.from(resamplePlane(p, 2, 2, 4, 4)).every((v) => v >= 0 && v <= 1)).toBe(true);
    expect(along([[0, 0], [10, 0], [10, 10]], 0.75)).toEqual([10, 5]);
  });
  it('makes confidences 0.5 at a threshold and larger with the margin, either way', () => {
    expect(grows(10, 10)).toBeCloseTo(0.5);
    expect(grows(30, 10)).toBeGreaterThan(grows(15, 10));
    expect(fades(0, 10)).toBe(1);
    expect(fades(2, 10)).toBeGreaterThan(fades(8, 10));
  });
  it('ages skin with more lines and spots', () => {
    expect(skinAgeOf([0, 0, 0, 0, 0, 0, 0])).toBeLessThan(skinAgeOf([6, 2, 0.05, 2, 5, 1, 0]));
    expect(skinAgeOf([0, 0, 0, 0, 0, 0, -20])).toBeLessThan(skinAgeOf([0, 0, 0, 0, 0, 0, 0])); // a child's narrower face
    expect(skinAgeOf([100, 0, 100, 100, 100, 100, 0])).toBe(SKIN_AGE_RANGE[1]);
  });
  it('reads a child\'s smooth skin and narrow face as a child\'s age, below the clamp a model in years had', () => {
    // No lines or spots, cheek texture 0.15 L*, a face 20 mm short of an adult's (fit-half children: 114-127 mm).
    expect(skinAgeOf([0, 3, 0, 1.4, 0, 0.15, -20])).toBeLessThan(10);
  });
  it('fits and reads the age on the model\'s scale, ln at power 0', () => {
    for (const power of [0, 0.5, 1]) expect(fromAgeScale(toAgeScale(37, power), power)).toBeCloseTo(37, 6);
    expect(skinAgeOf([1], { power: 0, intercept: Math.log(20), weights: [Math.log(2)] })).toBe(40);
  });
});

describe('synthetic findings', () => {
  it('render where asked with the Lab change asked for', () => {
    const img = { data: Buffer.alloc(W * H * 3), width: W, height: H, channels: 3 as const };
    for (let i = 0; i < W * H; i++) img.data.set([190, 140, 120], i * 3);
    const out = renderSynthetic(img, [{ kind: 'mole', x: 40, y: 50, size: 2 }, { kind: 'acne', x: 90, y: 50, size: 2 }], 3);
    const lab = toLab({ data: out.data, width: W, height: H, channels: 3 }), before = toLab({ data: img.data, width: W, height: H, channels: 3 });
    const i = 50 * W + 40, j = 50 * W + 90;
    expect(lab.L[i] - before.L[i]).toBeCloseTo(-28, 0);
    expect(lab.a[j] - before.a[j]).toBeGreaterThan(9);
    expect(lab.L[10 * W + 10]).toBeCloseTo(before.L[10 * W + 10], 3);
  });
});