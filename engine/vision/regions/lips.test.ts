import { describe, expect, it } from 'vitest';
import { labOf } from '../../image/colour.ts';
import type { LabPlanes } from '../../image/colour.ts';
import type { Rect } from '../../image/rect.ts';
import { removeOccluders, removeTongue } from './lips.ts';

/**
 * A mouth drawn as rows of a 90 x 60 window: the upper lip (rows 10-17), the opening (18-31), the mesh's
 * "lower lip" (32-43). What fills the opening and the lower lip is given per column.
 */
const W = 90, H = 60, win: Rect = { x0: 0, y0: 0, w: W, h: H };
const LIP = labOf(150, 30, 45), TONGUE = labOf(225, 120, 125), DARK = labOf(25, 12, 12);
function mouth(opening: (x: number) => typeof LIP, lower: (x: number) => typeof LIP) {
  const n = W * H, lab: LabPlanes = { L: new Float32Array(n), a: new Float32Array(n), b: new Float32Array(n), area: win };
  const upper = new Float32Array(n), low = new Float32Array(n), open = new Float32Array(n), plane = new Float32Array(n);
  const skin = labOf(210, 160, 140);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const i = y * W + x;
    let c = skin;
    if (y >= 10 && y < 18) { c = LIP; upper[i] = 1; plane[i] = 1; } else if (y >= 18 && y < 32) { c = opening(x); open[i] = 1; } else if (y >= 32 && y < 44) { c = lower(x); low[i] = 1; plane[i] = 1; }
    lab.L[i] = c.l; lab.a[i] = c.a; lab.b[i] = c.b;
  }
  return { lab, upper, low, open, plane };
}
const mean = (p: Float32Array, x0: number, x1: number, y0: number, y1: number) => {
  let s = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) s += p[y * W + x];
  return s / ((x1 - x0) * (y1 - y0));
};

describe('removeTongue', () => {
  it('takes the tongue off the lower lip where it lies over it, and leaves the lip beside it and the upper lip', () => {
    // The tongue fills the opening and covers the lower lip's left half.
    const m = mouth(() => TONGUE, (x) => (x < 45 ? TONGUE : LIP));
    removeTongue(m.plane, m.upper, m.low, m.open, win, m.lab, 100);
    expect(mean(m.plane, 0, 40, 32, 44)).toBeLessThan(0.05);
    expect(mean(m.plane, 55, 90, 32, 44)).toBeGreaterThan(0.95);
    expect(mean(m.plane, 0, 90, 10, 18)).toBe(1);
  });

  it('changes nothing when the opening shows no tongue (dark inside)', () => {
    const m = mouth(() => DARK, () => LIP);
    const before = Float32Array.from(m.plane);
    removeTongue(m.plane, m.upper, m.low, m.open, win, m.lab, 100);
    expect(m.plane).toEqual(before);
  });

  it('changes nothing when the tongue is the lips\' own colour (nothing tells them apart)', () => {
    const m = mouth(() => LIP, () => LIP);
    const before = Float32Array.from(m.plane);
    removeTongue(m.plane, m.upper, m.low, m.open, win, m.lab, 100);
    expect(m.plane).toEqual(before);
  });
});

describe('removeTongue, a tongue behind the teeth', () => {
  it('leaves a lower lip of the tongue colour alone when teeth stand between them', () => {
    // Tongue in the opening, a row band of pale teeth (rows 28-31) along its lower edge, a lower lip as pink as the tongue.
    const TEETH = labOf(235, 232, 220);
    const m = mouth(() => TONGUE, () => TONGUE);
    for (let y = 28; y < 32; y++) for (let x = 0; x < W; x++) { const i = y * W + x; m.lab.L[i] = TEETH.l; m.lab.a[i] = TEETH.a; m.lab.b[i] = TEETH.b; m.open[i] = 1; }
    const before = Float32Array.from(m.plane);
    removeTongue(m.plane, m.upper, m.low, m.open, win, m.lab, 100);
    expect(mean(m.plane, 0, 90, 36, 44)).toBeGreaterThan(0.95);
    expect(mean(before, 0, 90, 32, 44)).toBe(1);
  });
});

describe('removeOccluders', () => {
  // Skin of chroma about 20 (labOf(210, 160, 140)); a face 100 px wide, so islands of 40 px and more count.
  const SKIN_CHROMA = Math.hypot(labOf(210, 160, 140).a, labOf(210, 160, 140).b);
  const GREY = labOf(120, 120, 122), SHEEN = labOf(240, 236, 236);
  it('takes a grey microphone across the lips off them, and its soft edge with it', () => {
    const m = mouth(() => DARK, (x) => (x >= 30 && x < 60 ? GREY : LIP));
    for (let y = 10; y < 18; y++) for (let x = 30; x < 60; x++) { const i = y * W + x; m.lab.L[i] = GREY.l; m.lab.a[i] = GREY.a; m.lab.b[i] = GREY.b; }
    removeOccluders(m.plane, win, m.lab, SKIN_CHROMA, 100);
    expect(mean(m.plane, 30, 60, 32, 44)).toBe(0);
    expect(mean(m.plane, 30, 60, 10, 18)).toBe(0);
    expect(mean(m.plane, 0, 20, 32, 44)).toBe(1);
    expect(mean(m.plane, 70, 90, 10, 18)).toBe(1);
  });

  it('leaves lips with a small specular highlight as they were', () => {
    const m = mouth(() => DARK, (x) => LIP);
    for (let y = 34; y < 38; y++) for (let x = 40; x < 46; x++) { const i = y * W + x; m.lab.L[i] = SHEEN.l; m.lab.a[i] = SHEEN.a; m.lab.b[i] = SHEEN.b; }
    const before = Float32Array.from(m.plane);
    removeOccluders(m.plane, win, m.lab, SKIN_CHROMA, 100);
    expect(m.plane).toEqual(before);
  });
});
