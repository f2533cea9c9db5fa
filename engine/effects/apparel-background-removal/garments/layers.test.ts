/** hemKind on drawn masks: two tubes parted by background are trousers; parted by clothing, one skirt. */
import { describe, expect, it } from 'vitest';
import type { Geometry } from './body-garments.ts';
import { hemKind } from './layers.ts';

const W = 100, H = 200;
const g: Geometry = { ys: 20, yh: 80, yk: 130, ya: 180, cx: 50, thigh: 50, shin: 50, t: 60, sw: 40, arms: [], legs: [] };

/** A garment from the hips (y 80) down to y 170: one piece to the knee, then two tubes x 30..48 and 52..70. */
function tubes(): Uint8Array {
  const m = new Uint8Array(W * H);
  for (let y = 80; y < 170; y++) for (let x = 30; x < 70; x++) if (y < 130 || x < 48 || x >= 52) m[y * W + x] = 1;
  return m;
}

describe('hemKind', () => {
  it('takes two tubes as trousers when no open mask is given', () => {
    expect(hemKind(tubes(), W, H, g)).toBe('pants');
  });
  it('takes two tubes parted by background (open) as trousers', () => {
    const open = new Uint8Array(W * H).fill(1);
    const m = tubes();
    for (let i = 0; i < m.length; i++) if (m[i]) open[i] = 0;
    expect(hemKind(m, W, H, g, open)).toBe('pants');
  });
  it('takes a gap of other clothing inside one outline (a panel, a print) as one skirt', () => {
    const open = new Uint8Array(W * H).fill(1);
    for (let y = 80; y < 170; y++) for (let x = 30; x < 70; x++) open[y * W + x] = 0;
    expect(hemKind(tubes(), W, H, g, open)).toBe('skirt');
  });
});
