import { describe, expect, it } from 'vitest';
import { quiltBand } from './quilt.ts';

/**
 * A texture band over 160 x 120: the left half plain skin grain (noise of spread 1), with a strong edge
 * (a jaw's line, amplitude 12) running down it at x = 40 and a knitted stripe pattern (amplitude 6) over its
 * lower quarter that the caller's source mask lets in; the right half the target.
 */
function scene() {
  const w = 160, h = 120, n = w * h;
  let seed = 11;
  const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const gauss = () => Math.sqrt(-2 * Math.log(rand() + 1e-9)) * Math.cos(2 * Math.PI * rand());
  const L = new Float32Array(n), a = new Float32Array(n), b = new Float32Array(n);
  const source = new Uint8Array(n), target = new Uint8Array(n);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const i = y * w + x;
    if (x < 80) {
      L[i] = gauss() + (Math.abs(x - 40) <= 1 ? 12 * Math.sign(x - 40 + 0.5) : 0) + (y >= 90 ? 6 * Math.sin((2 * Math.PI * x) / 6) : 0);
      a[i] = 0.3 * gauss(); b[i] = 0.3 * gauss();
      source[i] = 1;
    } else if (x >= 90 && x < 150 && y >= 20 && y < 100) target[i] = 1;
  }
  const lowL = new Float32Array(n).fill(50), broadL = new Float32Array(n).fill(50);
  return { w, h, n, band: [L, a, b], source, target, lowL, broadL };
}

const spread = (v: number[]) => 1.4826 * v.map(Math.abs).sort((x, y) => x - y)[v.length >> 1];

describe('quiltBand', () => {
  it('lays plain skin grain at its own contrast, leaving out the edge and the stripes', () => {
    const { w, h, n, band, source, target, lowL, broadL } = scene();
    const q = quiltBand(band, w, h, source, target, lowL, broadL, { patch: 9, tries: 8, energyLo: 0.4, energyHi: 1.6 })!;
    expect(q).not.toBeNull();
    const inT: number[] = [];
    for (let i = 0; i < n; i++) if (target[i]) inT.push(q[0][i]);
    // The grain's contrast (spread 1), neither a smear nor doubled.
    expect(spread(inT)).toBeGreaterThan(0.8);
    expect(spread(inT)).toBeLessThan(1.25);
    // No edge copied in: the edge's 12 levels would stand far past the grain's tail.
    expect(Math.max(...inT.map(Math.abs))).toBeLessThan(6);
    // No stripes: the band's power at the stripes' period (6 px along x) stays at the grain's.
    let re = 0, im = 0, k = 0;
    for (let y = 20; y < 100; y++) for (let x = 90; x < 150; x++) { const v = q[0][y * w + x]; re += v * Math.cos((2 * Math.PI * x) / 6); im += v * Math.sin((2 * Math.PI * x) / 6); k++; }
    expect(Math.hypot(re, im) / k).toBeLessThan(0.15);
    // Nothing outside the target.
    for (let i = 0; i < n; i++) if (!target[i]) expect(q[0][i]).toBe(0);
  });

  it('gives up without enough plain skin', () => {
    const { w, h, band, target, lowL, broadL } = scene();
    const source = new Uint8Array(w * h);
    for (let y = 0; y < 10; y++) for (let x = 0; x < 10; x++) source[y * w + x] = 1;
    expect(quiltBand(band, w, h, source, target, lowL, broadL, { patch: 9, tries: 8, energyLo: 0.4, energyHi: 1.6 })).toBeNull();
  });
});
