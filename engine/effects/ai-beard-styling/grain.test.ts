/** The photo's blur and grain at the beard's scale, and the drawn hair softened and grained to match. */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../image/random.ts';
import { gauss } from '../../image/gauss.ts';
import { addGrain, edgeBlur, fineGrain, soften } from './grain.ts';

const W = 96, H = 96;
/** A dark disc on a light ground (edges in every direction), blurred by `sigma` px, with Gaussian noise of `noise`. */
function disc(sigma: number, noise = 0, seed = 1) {
  const p = new Float32Array(W * H);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) p[y * W + x] = Math.hypot(x + 0.5 - 48, y + 0.5 - 48) < 25 ? 0.2 : 0.8;
  // Two explicit-kernel passes (gauss() takes box means from 2.5 px, only roughly Gaussian).
  const b = gauss(gauss(p, W, H, sigma / Math.SQRT2), W, H, sigma / Math.SQRT2);
  const rand = seededRandom(seed);
  for (let i = 0; i < b.length; i++) b[i] += noise * Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  return b;
}
const AREA = { x0: 8, y0: 8, w: 80, h: 80 };

describe('edgeBlur', () => {
  it('reads the blur a photo was given, within a fifth', () => {
    for (const s of [1, 1.5, 2, 3]) expect(Math.abs(edgeBlur(disc(s), W, H, AREA) - s)).toBeLessThan(0.2 * s);
  });
  it('reads a pixel-sharp edge as under a fifth of a pixel, and grows with the blur', () => {
    const sharp = edgeBlur(disc(0), W, H, AREA);
    expect(sharp).toBeLessThan(0.2);
    expect(edgeBlur(disc(1.2), W, H, AREA)).toBeGreaterThan(sharp + 0.5);
  });
  it('is not fooled by mild noise', () => {
    expect(Math.abs(edgeBlur(disc(2, 0.01), W, H, AREA) - 2)).toBeLessThan(0.4);
  });
});

describe('fineGrain', () => {
  it('reads the noise of a flat patch, near zero without noise', () => {
    const ones = new Float32Array(W * H).fill(1);
    expect(fineGrain(disc(2), W, H, ones)).toBeLessThan(0.002);
    const n = fineGrain(disc(2, 0.02), W, H, ones);
    expect(n).toBeGreaterThan(0.012);
    expect(n).toBeLessThan(0.025);
  });
});

describe('soften and addGrain', () => {
  /** A one-pixel dark line drawn over a flat grey: `under` and `out` as RGB floats. */
  function line() {
    const under = new Float32Array(W * H * 3).fill(150), out = under.slice(), alpha = new Float32Array(W * H);
    for (let y = 20; y < 70; y++) { alpha[y * W + 48] = 1; for (let c = 0; c < 3; c++) out[(y * W + 48) * 3 + c] = 40; }
    return { under, out, alpha };
  }
  it('spreads the drawn change by the photo blur, keeping its sum, and leaves a sharp photo alone', () => {
    const { under, out, alpha } = line();
    const sharp = out.slice();
    soften(sharp, under, alpha, W, H, 0.4);
    expect(sharp).toEqual(out);
    const soft = out.slice();
    soften(soft, under, alpha, W, H, 2);
    const at = (p: Float32Array, x: number) => p[(40 * W + x) * 3];
    expect(at(soft, 48)).toBeGreaterThan(100);
    expect(at(soft, 50)).toBeLessThan(150);
    let before = 0, after = 0;
    for (let i = 0; i < out.length; i++) { before += out[i] - under[i]; after += soft[i] - under[i]; }
    expect(after).toBeCloseTo(before, -1);
  });
  it('hides the photo\'s detail under dense hair (a collar\'s edge does not show through a beard)', () => {
    // The photo: a sharp step (a collar's edge) at x = 48; the hair laid fully over the window's middle.
    const under = new Float32Array(W * H * 3), out = new Float32Array(W * H * 3), alpha = new Float32Array(W * H);
    for (let i = 0; i < W * H; i++) {
      const x = i % W;
      alpha[i] = x >= 20 && x < 80 ? 1 : 0;
      for (let c = 0; c < 3; c++) { under[i * 3 + c] = x < 48 ? 220 : 40; out[i * 3 + c] = alpha[i] ? 60 : under[i * 3 + c]; }
    }
    soften(out, under, alpha, W, H, 2);
    // Inside the hair, away from its border, the step is gone: flat hair colour on both sides of x = 48.
    const at = (x: number) => out[(40 * W + x) * 3];
    for (const x of [40, 46, 47, 48, 49, 50, 56]) expect(Math.abs(at(x) - 60)).toBeLessThan(0.5);
    // Outside the hair the photo is as it was.
    expect(at(5)).toBeCloseTo(220, 3);
    expect(at(95)).toBeCloseTo(40, 3);
  });
  it('adds grain only where hair replaced the photo, up to the photo grain, and seeded', () => {
    const flat = new Float32Array(W * H * 3).fill(120);
    const alpha = new Float32Array(W * H);
    for (let i = 0; i < W * H; i++) alpha[i] = i % W < 48 ? 1 : 0;
    const a = flat.slice(), b = flat.slice();
    addGrain(a, alpha, W, H, 0.02, seededRandom(3));
    addGrain(b, alpha, W, H, 0.02, seededRandom(3));
    expect(a).toEqual(b);
    const luma = new Float32Array(W * H);
    for (let i = 0; i < W * H; i++) luma[i] = a[i * 3] / 255;
    const left = Float32Array.from(alpha), right = Float32Array.from(alpha, (v) => 1 - v);
    // Away from the seam (the fine band there mixes both sides).
    for (let i = 0; i < W * H; i++) { if (Math.abs((i % W) - 48) < 4) { left[i] = 0; right[i] = 0; } }
    expect(fineGrain(luma, W, H, left)).toBeCloseTo(0.02, 2);
    expect(fineGrain(luma, W, H, right)).toBe(0);
    // Hair with grain enough of its own gets none.
    const grainy = a.slice();
    addGrain(grainy, alpha, W, H, 0.01, seededRandom(4));
    expect(grainy).toEqual(a);
  });
});
