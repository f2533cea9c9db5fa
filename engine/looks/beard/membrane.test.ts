import { describe, expect, it } from 'vitest';
import { membraneFill } from './membrane.ts';

describe('membraneFill', () => {
  it('carries a linear ramp across a hole exactly (a harmonic function is its own membrane)', () => {
    const w = 40, h = 30, n = w * h;
    const ramp = new Float32Array(n), hole = new Uint8Array(n), known = new Uint8Array(n);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const i = y * w + x;
      ramp[i] = 10 + 2 * x - 1.5 * y;
      if (x >= 5 && x < 35 && y >= 5 && y < 25) hole[i] = 1; else known[i] = 1;
    }
    const damaged = Float32Array.from(ramp);
    for (let i = 0; i < n; i++) if (hole[i]) damaged[i] = 999;
    const [out] = membraneFill([damaged], w, h, hole, known);
    let worst = 0;
    for (let i = 0; i < n; i++) worst = Math.max(worst, Math.abs(out[i] - ramp[i]));
    expect(worst).toBeLessThan(0.05);
    // Known pixels are kept as given; the input plane is not changed.
    expect(damaged[20 * w + 20]).toBe(999);
  });

  it('does not smooth across sides nor through walls', () => {
    const w = 30, h = 20, n = w * h;
    const v = new Float32Array(n), hole = new Uint8Array(n), known = new Uint8Array(n), side = new Uint8Array(n);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const i = y * w + x;
      side[i] = y < 10 ? 1 : 0;
      // Known only at the left and right columns: top side 80, bottom side 20.
      if (x === 0 || x === w - 1) { known[i] = 1; v[i] = side[i] ? 80 : 20; } else if (x !== 15 || y < 8) hole[i] = 1; // a wall at x 15 low down
    }
    const [out] = membraneFill([v], w, h, hole, known, { side });
    expect(Math.abs(out[5 * w + 10] - 80)).toBeLessThan(0.01);
    expect(Math.abs(out[15 * w + 10] - 20)).toBeLessThan(0.01);
    // Without sides the two mix near the seam.
    const [mixed] = membraneFill([v], w, h, hole, known);
    expect(Math.abs(mixed[10 * w + 10] - 50)).toBeLessThan(15);
  });
});
