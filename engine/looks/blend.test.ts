import { describe, expect, it } from 'vitest';
import { blend, blendChannel } from './blend.ts';
import { LINEAR } from '../image/colour.ts';

const grey = (v: number, w = 3, h = 1, ch = 3) => ({ data: new Uint8Array(w * h * ch).fill(v), width: w, height: h, channels: ch });

describe('retouch blend', () => {
  it('mixes in linear light: half of black over white is sRGB 188, not 128', () => {
    const img = grey(255, 1, 1);
    blend(img, [0, 0, 0], new Float32Array([0.5]), { x0: 0, y0: 0, w: 1, h: 1 });
    expect(img.data[0]).toBeGreaterThanOrEqual(187);
    expect(img.data[0]).toBeLessThanOrEqual(188);
  });

  it('leaves pixels of weight 0 and those outside the area untouched, and respects opacity', () => {
    const img = grey(90, 3, 1, 4);
    blend(img, [255, 0, 0], new Float32Array([1, 0]), { x0: 1, y0: 0, w: 2, h: 1 }, 0.5);
    expect([...img.data.subarray(0, 4)]).toEqual([90, 90, 90, 90]);
    expect([...img.data.subarray(8, 12)]).toEqual([90, 90, 90, 90]);
    const [r, g, , a] = img.data.subarray(4, 8);
    expect(r).toBeGreaterThan(170); // halfway to 255 in linear light
    expect(g).toBeLessThan(90);
    expect(a).toBe(90);
  });

  it('blends a layer of pixels the size of the area', () => {
    const img = grey(50, 2, 2);
    const layer = grey(200, 1, 2);
    blend(img, layer, new Float32Array([1, 1]), { x0: 1, y0: 0, w: 1, h: 2 });
    expect(img.data[3]).toBe(200);
    expect(img.data[9]).toBe(200);
    expect(img.data[0]).toBe(50);
  });

  it('has the modes of the W3C formulas', () => {
    expect(blendChannel('screen', 0.5, 0.5)).toBeCloseTo(0.75);
    expect(blendChannel('multiply', 0.5, 0.5)).toBeCloseTo(0.25);
    expect(blendChannel('soft-light', 0.3, 0.5)).toBeCloseTo(0.3); // neutral at 0.5
    expect(blendChannel('soft-light', 0.3, 1)).toBeGreaterThan(0.3);
    expect(blendChannel('soft-light', 0.3, 0)).toBeLessThan(0.3);
    expect(LINEAR[255]).toBe(1);
  });
});
