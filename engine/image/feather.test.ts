import { describe, expect, it } from 'vitest';
import { toMask } from './mask.ts';
import { fillDisc, fillPolygon } from './polygon.ts';
import { feather, grow, minus, union } from './feather.ts';
import { boxMean } from './guided-filter.ts';
import type { Rect } from './rect.ts';

const sum = (p: Float32Array) => p.reduce((s, v) => s + v, 0);
const at = (p: Float32Array, win: Rect, x: number, y: number) => p[(y - win.y0) * win.w + (x - win.x0)];

describe('fillPolygon', () => {
  const win: Rect = { x0: 0, y0: 0, w: 12, h: 12 };
  it('covers exactly the polygon area, with fractional edge pixels', () => {
    const p = fillPolygon([[2.25, 3], [7.75, 3], [7.75, 8.5], [2.25, 8.5]], win);
    expect(sum(p)).toBeCloseTo(5.5 * 5.5, 1);
    expect(at(p, win, 4, 5)).toBe(1);
    expect(at(p, win, 2, 5)).toBeCloseTo(0.75, 5);
    expect(at(p, win, 7, 5)).toBeCloseTo(0.75, 5);
    expect(at(p, win, 4, 8)).toBeCloseTo(0.5, 5); // row 8 is covered down to 8.5
    expect(at(p, win, 1, 5)).toBe(0);
    expect(at(p, win, 4, 9)).toBe(0);
  });
  it('handles a window offset into the image, and triangles', () => {
    const w2: Rect = { x0: 100, y0: 50, w: 20, h: 20 };
    const p = fillPolygon([[102, 52], [112, 52], [102, 62]], w2);
    expect(sum(p)).toBeCloseTo(50, 0);
    expect(at(p, w2, 103, 53)).toBe(1);
  });
  it('fills discs by area', () => {
    const w: Rect = { x0: 0, y0: 0, w: 40, h: 40 };
    expect(sum(fillDisc(20, 20, 10, w))).toBeCloseTo(Math.PI * 100, -1);
  });
});

describe('feather and mask operations', () => {
  const win: Rect = { x0: 0, y0: 0, w: 41, h: 41 };
  it('blurs with about the asked sigma and keeps the mass', () => {
    const p = new Float32Array(41 * 41); p[20 * 41 + 20] = 1;
    const b = feather(p, win, 3);
    expect(sum(b)).toBeCloseTo(1, 3);
    let v = 0;
    for (let y = 0; y < 41; y++) for (let x = 0; x < 41; x++) v += b[y * 41 + x] * (x - 20) ** 2;
    expect(Math.sqrt(v)).toBeGreaterThan(2.5);
    expect(Math.sqrt(v)).toBeLessThan(3.6);
  });
  it('grows, subtracts and unites', () => {
    const a = fillPolygon([[10, 10], [30, 10], [30, 30], [10, 30]], win);
    const g = grow(a, win, 4);
    expect(sum(g)).toBeGreaterThan(24 * 24);
    expect(sum(g)).toBeLessThan(28 * 28);
    expect(at(g, win, 31, 20)).toBe(1);
    expect(at(g, win, 35, 20)).toBeLessThan(0.1);
    expect(at(g, win, 20, 20)).toBe(1);
    const hole = fillPolygon([[15, 15], [25, 15], [25, 25], [15, 25]], win);
    expect(sum(minus(a, hole))).toBeCloseTo(300, 0);
    expect(sum(union(hole, a))).toBeCloseTo(400, 0);
  });
  it('places a window into a full-size 8-bit mask, clipped to the image', () => {
    const w: Rect = { x0: 5, y0: 2, w: 4, h: 3 };
    const m = toMask(new Float32Array(12).fill(0.5), w, { width: 8, height: 4 });
    expect(m.data.length).toBe(32);
    expect(m.data[2 * 8 + 5]).toBe(128);
    expect(m.data[3 * 8 + 7]).toBe(128);
    expect(m.data[1 * 8 + 5]).toBe(0);
    expect(m.data.reduce((s, v) => s + (v ? 1 : 0), 0)).toBe(3 * 2);
  });
});

describe('feather over the feature\'s part of the window', () => {
  it('gives what blurring the whole window gives', () => {
    const win: Rect = { x0: 3, y0: 7, w: 160, h: 120 };
    const a = fillPolygon([[40, 30], [60, 28], [58, 44], [41, 47]], win);
    const g = feather(a, win, 3);
    const whole = boxMean(boxMean(boxMean(a, win.w, win.h, 3), win.w, win.h, 3), win.w, win.h, 3);
    for (let i = 0; i < g.length; i++) expect(g[i]).toBeCloseTo(whole[i], 5);
    expect(sum(grow(new Float32Array(win.w * win.h), win, 9))).toBe(0);
  });
});
