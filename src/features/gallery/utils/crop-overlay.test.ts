import { describe, expect, it } from 'vitest';
import { containRect, isRect, keptShare, retainToDisplay } from './crop-overlay.ts';

const round = (r: object) => Object.fromEntries(Object.entries(r as Record<string, number>).map(([k, v]) => [k, Math.round(v * 100) / 100]));

describe('containRect', () => {
  it('letterboxes a portrait photo in a landscape frame: bands left and right', () => {
    // 910×1137 in 800×600: height bound, scale 600/1137.
    const r = containRect({ width: 910, height: 1137 }, { width: 800, height: 600 });
    expect(r.scale).toBeCloseTo(600 / 1137, 10);
    expect(r.height).toBeCloseTo(600, 10);
    expect(r.y).toBe(0);
    expect(r.width).toBeCloseTo(480.21, 2);
    expect(r.x).toBeCloseTo((800 - 480.21) / 2, 2);
  });

  it('letterboxes a landscape photo in a tall frame: bands above and below', () => {
    expect(round(containRect({ width: 600, height: 400 }, { width: 300, height: 500 }))).toEqual({ x: 0, y: 150, width: 300, height: 200, scale: 0.5 });
  });

  it('scales up a small photo, and gives nothing for a frame not laid out yet', () => {
    expect(round(containRect({ width: 100, height: 50 }, { width: 400, height: 400 }))).toEqual({ x: 0, y: 100, width: 400, height: 200, scale: 4 });
    expect(containRect({ width: 100, height: 50 }, { width: 0, height: 0 })).toEqual({ x: 0, y: 0, width: 0, height: 0, scale: 0 });
  });
});

describe('retainToDisplay', () => {
  it('maps input pixels through the scale and the letterbox offset', () => {
    // A 4:5 window of a 910×1137 portrait, in an 800×600 frame.
    const r = retainToDisplay({ x: 0, y: 113, width: 910, height: 910 }, { width: 910, height: 1137 }, { width: 800, height: 600 });
    const k = 600 / 1137;
    expect(r.x).toBeCloseTo((800 - 910 * k) / 2, 6);
    expect(r.y).toBeCloseTo(113 * k, 6);
    expect(r.width).toBeCloseTo(910 * k, 6);
    expect(r.height).toBeCloseTo(910 * k, 6);
  });

  it('puts a right-hand window of a landscape photo below the top band', () => {
    // 600×400 photo in a 300×500 frame: scale 0.5, image at y 150..350.
    expect(round(retainToDisplay({ x: 200, y: 0, width: 400, height: 400 }, { width: 600, height: 400 }, { width: 300, height: 500 }))).toEqual({ x: 100, y: 150, width: 200, height: 200 });
  });

  it('clips a window that reaches outside the photo', () => {
    expect(round(retainToDisplay({ x: -10, y: 350, width: 100, height: 100 }, { width: 600, height: 400 }, { width: 600, height: 400 }))).toEqual({ x: 0, y: 350, width: 90, height: 50 });
  });
});

describe('isRect and keptShare', () => {
  it('accepts four finite numbers with a positive size only', () => {
    expect(isRect({ x: 0, y: 0, width: 1, height: 1 })).toBe(true);
    expect(isRect({ x: 0, y: 0, width: 0, height: 1 })).toBe(false);
    expect(isRect({ x: '0', y: 0, width: 1, height: 1 })).toBe(false);
    expect(isRect(undefined)).toBe(false);
    expect(keptShare({ x: 0, y: 0, width: 300, height: 400 }, { width: 600, height: 400 })).toBe(0.5);
  });
});
