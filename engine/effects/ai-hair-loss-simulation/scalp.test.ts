/** The scalp's kernels: the membrane, the highlights' roll-off, the fills and the dome's light. */
import { describe, expect, it } from 'vitest';
import { domeDiffuse, domeLight, domeNormal, domeShade, fitDomeShade, harmonicFill, mirror, mirrorFill, pushPull } from './scalp.ts';
import { softCap } from './scalp-layer.ts';

describe('scalp kernels', () => {
  it('fills the membrane between known values, converged far from them too', () => {
    // Known 0 on the left edge and 30 on the right, 600 px apart: the harmonic fill in between is the ramp.
    const w = 600, h = 40, p = new Float32Array(w * h), wt = new Float32Array(w * h);
    for (let y = 0; y < h; y++) for (const x of [0, 1, 2, w - 3, w - 2, w - 1]) { wt[y * w + x] = 1; p[y * w + x] = x < 3 ? 0 : 30; }
    const [out] = harmonicFill([p], wt, w, h);
    for (const x of [100, 300, 500]) expect(Math.abs(out[20 * w + x] - (30 * x) / (w - 1))).toBeLessThan(1.5);
  });

  it('screened, the membrane still meets the known values and falls off away from them as exp(-d / decay)', () => {
    // Known 30 on the left edge only, decay 60 px: at 60 and 180 px about 30/e and 30/e³, where the plain
    // membrane stays at 30.
    const w = 600, h = 40, p = new Float32Array(w * h), wt = new Float32Array(w * h);
    for (let y = 0; y < h; y++) for (const x of [0, 1, 2]) { wt[y * w + x] = 1; p[y * w + x] = 30; }
    const [plain] = harmonicFill([p], wt, w, h);
    const [out] = harmonicFill([p], wt, w, h, 40, 60);
    expect(plain[20 * w + 300]).toBeGreaterThan(29);
    expect(out[20 * w + 4]).toBeGreaterThan(27);
    expect(Math.abs(out[20 * w + 62] - 30 / Math.E)).toBeLessThan(2.5);
    expect(out[20 * w + 182]).toBeLessThan(3);
  });

  it('rolls the scalp off into the highlights: below the knee as it is, above it rising but never past the cap', () => {
    expect(softCap(50, 80, 10)).toBe(50);
    const ys = [70, 75, 80, 90, 120].map((x) => softCap(x, 80, 10));
    for (let k = 1; k < ys.length; k++) expect(ys[k]).toBeGreaterThan(ys[k - 1]);
    expect(Math.max(...ys)).toBeLessThan(80);
  });

  it('mirror-repeats and push-pull fills holes from what is known', () => {
    expect([-2, -1, 0, 1, 2, 3, 4, 5, 6].map((i) => mirror(i, 3))).toEqual([1, 0, 0, 1, 2, 2, 1, 0, 0]);
    const w = 16, h = 16, p = new Float32Array(w * h), wt = new Float32Array(w * h);
    for (let i = 0; i < w * h; i++) if (i % w < 4) { p[i] = 10; wt[i] = 1; } else p[i] = 999;
    const [out] = pushPull([p], wt, w, h);
    for (let i = 0; i < w * h; i++) expect(out[i]).toBeCloseTo(10, 3);
  });
});

describe('dome and backdrop kernels', () => {
  it('lights the dome from the side the forehead is lit from, its outline darker than its front', () => {
    const fromLeft = domeLight(-0.3), fromRight = domeLight(0.3);
    const left = domeNormal(-0.8, 0.6, 1.6), right = domeNormal(0.8, 0.6, 1.6), front = domeNormal(0, 0.2, 1.6), edge = domeNormal(1.04, 0.45, 1.6);
    expect(domeDiffuse(right, fromRight)).toBeGreaterThan(domeDiffuse(left, fromRight) + 0.1);
    expect(domeDiffuse(left, fromLeft)).toBeGreaterThan(domeDiffuse(right, fromLeft) + 0.1);
    expect(domeDiffuse(front, domeLight(0))).toBeGreaterThan(domeDiffuse(edge, domeLight(0)));
    expect(domeDiffuse(edge, domeLight(0))).toBeGreaterThanOrEqual(0.45);
  });

  it('mirrors the backdrop in across its edge along the ray from the head, NaN where none is in reach', () => {
    const w = 60, h = 9, p = new Float32Array(w * h), src = new Float32Array(w * h), need = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) { p[y * w + x] = x; if (x >= 40) src[y * w + x] = 1; if (x >= 30 && x < 40) need[y * w + x] = 1; }
    const [out] = mirrorFill([p], src, need, w, h, 0, 4, 20);
    // x = 35 lies 5 short of the backdrop's edge at 40: its reflection is x = 45.
    expect(out[4 * w + 35]).toBe(45);
    expect(out[4 * w + 39]).toBe(41);
    expect(Number.isNaN(out[4 * w + 10])).toBe(true);
    const [none] = mirrorFill([p], src, need, w, h, 0, 4, 3);
    expect(Number.isNaN(none[4 * w + 30])).toBe(true);
  });
  it('carries a frontal forehead\'s fall-off round the dome: darker toward the crown and the sides, lighter on the lit side', () => {
    // A forehead lit from its right (+x), falling off as a sphere does: z = 1 + 0.2 nx - 0.35 (nx² + ny²), over
    // normals across -0.6..0.6 and up to 0.35.
    const nx: number[] = [], ny: number[] = [], z: number[] = [];
    for (let x = -0.6; x <= 0.6; x += 0.05) for (let y = 0; y <= 0.35; y += 0.05) { nx.push(x); ny.push(y); z.push(1 + 0.2 * x - 0.35 * (x * x + y * y)); }
    const s = fitDomeShade(nx, ny, z)!;
    const at = (x: number, y: number) => domeShade([x, y, Math.sqrt(Math.max(0, 1 - x * x - y * y))], s);
    expect(at(0, 0.9)).toBeLessThan(at(0, 0) - 0.15);
    expect(at(0.5, 0.1)).toBeGreaterThan(at(-0.5, 0.1) + 0.1);
    expect(at(0.9, 0.3)).toBeLessThan(at(0.3, 0.3));
  });

  it('keeps a turned head\'s crown within reach of its forehead: a narrow band of normals on one side does not extrapolate to grey', () => {
    // The near side of a turned forehead, nx 0.58..0.9 and ny under 0.14, falling off steeply toward the edge:
    // a free fit of that carried to the crown went far below anything on the forehead.
    const nx: number[] = [], ny: number[] = [], z: number[] = [];
    for (let x = 0.58; x <= 0.9; x += 0.02) for (let y = 0; y <= 0.14; y += 0.02) { nx.push(x); ny.push(y); z.push(1.6 - 0.9 * x * x - 0.5 * x); }
    const s = fitDomeShade(nx, ny, z)!;
    let least = Infinity;
    for (let k = 0; k < z.length; k++) least = Math.min(least, domeShade([nx[k], ny[k], 0], s));
    for (const [x, y] of [[0, 0.99], [-0.5, 0.8], [-0.9, 0.3], [0.3, 0.9]]) {
      const d = domeShade([x, y, Math.sqrt(Math.max(0, 1 - x * x - y * y))], s);
      expect(d).toBeGreaterThanOrEqual(0.84 * least);
    }
    // Still the forehead's level where it was fitted.
    let mean = 0;
    for (let k = 0; k < z.length; k++) mean += domeShade([nx[k], ny[k], 0], s) - z[k];
    expect(Math.abs(mean / z.length)).toBeLessThan(0.05);
  });
});
