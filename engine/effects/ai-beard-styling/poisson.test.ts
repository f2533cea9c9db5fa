import { describe, expect, it } from 'vitest';
import { poissonBlend, solveHarmonic } from './poisson.ts';

const W = 96, H = 80;
const disc = (cx: number, cy: number, r: number) => {
  const m = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (Math.hypot(x - cx, y - cy) <= r) m[y * W + x] = 1;
  return m;
};

describe('solveHarmonic', () => {
  it('reproduces a linear ramp (harmonic) from its values around a hole', () => {
    const d = new Float32Array(W * H), known = new Uint8Array(W * H).fill(1);
    const hole = disc(48, 40, 25);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) { const i = y * W + x; d[i] = hole[i] ? 0 : 2 * x - y + 7; known[i] = hole[i] ? 0 : 1; }
    solveHarmonic(d, known, W, H);
    let worst = 0;
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) worst = Math.max(worst, Math.abs(d[y * W + x] - (2 * x - y + 7)));
    expect(worst).toBeLessThan(0.5);
  });
});

describe('poissonBlend', () => {
  it('takes the destination tone at the border and keeps the source texture inside', () => {
    const dst = new Float32Array(W * H * 3), src = new Float32Array(W * H * 3);
    const inside = disc(48, 40, 22);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const i = y * W + x;
        const stripes = (x >> 2) % 2 ? 20 : 0; // texture the source carries
        for (let c = 0; c < 3; c++) { dst[i * 3 + c] = 100 + 10 * c; src[i * 3 + c] = 170 - 20 * c + stripes; }
      }
    }
    const out = poissonBlend(dst, src, inside, W, H, 3);
    // Outside: untouched.
    expect(out[0]).toBe(dst[0]);
    // Inside: the source's stripes over the destination's tone (not the source's 170).
    for (let c = 0; c < 3; c++) {
      const at = (x: number) => out[(40 * W + x) * 3 + c];
      expect(Math.abs(at(45) - at(49) - 20)).toBeLessThan(2); // x 44..47 striped, 48..51 not
      const mean = [44, 45, 46, 47, 48, 49, 50, 51].reduce((s, x) => s + at(x), 0) / 8;
      expect(Math.abs(mean - (100 + 10 * c))).toBeLessThan(3); // the border sees the stripes half the time
    }
  });

  it('lets only trusted border pixels set the tone', () => {
    const dst = new Float32Array(W * H).fill(50), src = new Float32Array(W * H).fill(80);
    const inside = disc(48, 40, 15), trusted = new Uint8Array(W * H);
    // The left half of the border is a different surface in the destination (200) and not trusted.
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) { if (x < 48) dst[y * W + x] = 200; else trusted[y * W + x] = 1; }
    const out = poissonBlend(dst, src, inside, W, H, 1, trusted);
    expect(Math.abs(out[40 * W + 40] - 50)).toBeLessThan(1);
    expect(Math.abs(out[40 * W + 56] - 50)).toBeLessThan(1);
  });
});
