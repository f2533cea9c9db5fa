import { describe, expect, it } from 'vitest';
import { closePlane, dilatePlane, erodePlane } from './morphology.ts';

describe('greyscale morphology', () => {
  it('dilates and erodes over a (2r+1) square, clamped at the borders', () => {
    const w = 5, h = 5, v = new Float32Array(w * h);
    v[12] = 9; // centre
    const d = dilatePlane(v, w, h, 1), e = erodePlane(d, w, h, 1);
    expect(Array.from(d).filter((x) => x === 9).length).toBe(9);
    expect(d[0]).toBe(0);
    expect(e[12]).toBe(9);
    expect(Array.from(e).filter((x) => x === 9).length).toBe(1);
  });

  it('a closing fills dark dots narrower than the element and keeps a gradient', () => {
    const w = 40, h = 40, v = new Float32Array(w * h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) v[y * w + x] = 50 + x; // shading left to right
    const dotted = Float32Array.from(v);
    for (let y = 4; y < h - 4; y += 6) for (let x = 4; x < w - 4; x += 6) dotted[y * w + x] -= 30; // hairs
    const closed = closePlane(dotted, w, h, 2);
    let worst = 0;
    for (let y = 3; y < h - 3; y++) for (let x = 3; x < w - 3; x++) worst = Math.max(worst, Math.abs(closed[y * w + x] - v[y * w + x]));
    // The gradient is one level a pixel, so a closing of radius 2 is within 2 of it; the dots (30 deep) are gone.
    expect(worst).toBeLessThanOrEqual(2);
  });

  it('keeps a dark area broader than the element', () => {
    const w = 30, h = 30, v = new Float32Array(w * h).fill(80);
    for (let y = 10; y < 20; y++) for (let x = 10; x < 20; x++) v[y * w + x] = 20;
    expect(closePlane(v, w, h, 2)[15 * w + 15]).toBe(20);
  });
});
