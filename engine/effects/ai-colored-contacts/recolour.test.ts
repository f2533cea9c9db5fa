import { describe, expect, it } from 'vitest';
import { rgbToLab } from '../../image/colour.ts';
import { readLens, type Lens } from './lens.ts';
import { tintIris } from './recolour.ts';

/** A dark brown iris (radius 20 px) with radial fibres of a few L levels, on white, its pupil black. */
function darkIris() {
  const size = 64, cx = 32, cy = 32, r = 20;
  const data = Buffer.alloc(size * size * 3, 255);
  const weight = new Uint8Array(size * size);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) {
    const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy) / r;
    if (d > 1) continue;
    const i = y * size + x;
    weight[i] = 255;
    const fibre = 6 * Math.sin(Math.atan2(y + 0.5 - cy, x + 0.5 - cx) * 24);
    const v = d < 0.4 ? [10, 8, 6] : [70 + fibre, 45 + fibre * 0.7, 25 + fibre * 0.5];
    data.set(v.map(Math.round), i * 3);
  }
  return { image: { data, width: size, height: size, channels: 3 as const }, weight: { data: weight, width: size, height: size }, iris: { cx, cy, r } };
}

/** The spread of lightness over the iris's ring between 0.6 and 0.75 radii (fibres, no pupil, no limbal ring). */
function fibreSpread(data: Buffer, size: number, cx: number, cy: number, r: number) {
  const lab = [0, 0, 0], values: number[] = [];
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) {
    const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy) / r;
    if (d < 0.6 || d > 0.75) continue;
    const o = (y * size + x) * 3;
    rgbToLab(data[o], data[o + 1], data[o + 2], lab);
    values.push(lab[0]);
  }
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
}

describe('tintIris', () => {
  it('keeps a dark iris\'s fibres visible under a light lens: their contrast grows with the lightness', () => {
    const { image, weight, iris } = darkIris();
    const out = Buffer.from(image.data);
    tintIris(image, out, weight, iris, readLens('light blue') as Lens);
    const before = fibreSpread(image.data, 64, iris.cx, iris.cy, iris.r), after = fibreSpread(out, 64, iris.cx, iris.cy, iris.r);
    expect(after).toBeGreaterThan(1.3 * before);
  });
});
