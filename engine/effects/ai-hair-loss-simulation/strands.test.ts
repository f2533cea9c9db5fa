/** The strand noise and mask: which strands go first as the loss grows, and the loss field's smoothing. */
import { describe, expect, it } from 'vitest';
import { equalise, fibreScale, flowNoise, hash2, smoothLoss, strandGone, strandKeep, strandNoise, strandScale } from './strands.ts';

describe('strands', () => {
  it('hashes deterministically into 0..1', () => {
    expect(hash2(3, 4, 5)).toBe(hash2(3, 4, 5));
    expect(hash2(3, 4, 5)).not.toBe(hash2(3, 4, 6));
    for (let i = 0; i < 100; i++) { const h = hash2(i, -i, 1); expect(h).toBeGreaterThanOrEqual(0); expect(h).toBeLessThan(1); }
  });

  it('equalises to uniform, so a loss of x removes about x of the strands', () => {
    const n = 200 * 200, across = new Float32Array(n), along = new Float32Array(n);
    for (let i = 0; i < n; i++) { across[i] = i % 200; along[i] = Math.floor(i / 200); }
    const noise = strandNoise(across, along, { strand: 2, clump: 10, stretch: 5 }, 1);
    for (const loss of [0.1, 0.3, 0.6]) {
      let gone = 0;
      for (let i = 0; i < n; i++) gone += strandGone(loss, noise[i]);
      expect(gone / n).toBeGreaterThan(loss - 0.05);
      expect(gone / n).toBeLessThan(loss + 0.05);
    }
    // Longer along the strands than across: neighbours along agree more.
    let alongDiff = 0, acrossDiff = 0;
    for (let y = 1; y < 199; y++) for (let x = 1; x < 199; x++) { const i = y * 200 + x; alongDiff += Math.abs(noise[i] - noise[i + 200]); acrossDiff += Math.abs(noise[i] - noise[i + 1]); }
    expect(alongDiff).toBeLessThan(acrossDiff * 0.6);
    expect(equalise(new Float32Array([5, 5, 5]))).toEqual(new Float32Array([0.5, 0.5, 0.5]));
  });

  it('strandGone grows with the loss for any noise', () => {
    for (let noise = 0; noise <= 1; noise += 0.05) {
      expect(strandGone(0, noise)).toBe(0);
      expect(strandGone(1, noise)).toBe(1);
      for (let l = 0; l < 1; l += 0.05) expect(strandGone(l + 0.05, noise)).toBeGreaterThanOrEqual(strandGone(l, noise));
    }
  });
});

describe('strand kernels', () => {
  it('keeps the dark strands longest and lets the light gaps between them go first', () => {
    // Vertical strands: dark columns 2 px wide, light gaps 2 px wide, on the left half only (hair there).
    const w = 64, h = 32, L = new Float32Array(w * h), wt = new Float32Array(w * h), noise = new Float32Array(w * h).fill(0.5);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) { L[y * w + x] = x % 4 < 2 ? 20 : 45; if (x < 32) wt[y * w + x] = 1; }
    const keep = strandKeep(L, wt, noise, w, h, 1);
    let dark = 0, light = 0, nd = 0, nl = 0;
    for (let y = 4; y < h - 4; y++) for (let x = 4; x < 28; x++) { const k = keep[y * w + x]; if (x % 4 < 2) { dark += k; nd++; } else { light += k; nl++; } }
    expect(dark / nd).toBeGreaterThan(0.6);
    expect(light / nl).toBeLessThan(0.4);
    for (let i = 0; i < w * h; i++) { expect(keep[i]).toBeGreaterThanOrEqual(0); expect(keep[i]).toBeLessThanOrEqual(1); }
    expect(keep[10 * w + 50]).toBe(0.5);
  });
});

describe('hairline kernels', () => {
  it('smoothLoss rounds a corner of the loss, keeps the stages ordered and leaves unweighted pixels alone', () => {
    const w = 80, h = 80, n = w * h, a = new Float32Array(n), b = new Float32Array(n), wt = new Float32Array(n);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const i = y * w + x;
      // Hair on the left 70 columns; a square corner of loss 1 at (40, 40), a larger one for the later stage.
      if (x < 70) wt[i] = 1;
      if (x < 40 && y < 40) a[i] = 1;
      if (x < 46 && y < 46) b[i] = 1;
      if (x >= 70) { a[i] = 0.3; b[i] = 0.3; }
    }
    const sa = smoothLoss(a, wt, w, h, 4), sb = smoothLoss(b, wt, w, h, 4);
    for (let i = 0; i < n; i++) expect(sb[i]).toBeGreaterThanOrEqual(sa[i] - 1e-6);
    // Deep inside and far outside as before; the corner cut (below a half at the square's corner) and the
    // loss carried a little past its edges.
    expect(sa[10 * w + 10]).toBeGreaterThan(0.98);
    expect(sa[70 * w + 60]).toBeLessThan(0.02);
    expect(sa[39 * w + 39]).toBeLessThan(0.45);
    expect(sa[20 * w + 41]).toBeGreaterThan(0.2);
    expect(sa[20 * w + 75]).toBeCloseTo(0.3, 6);
  });

  it('fibreScale draws single hairs: finer across and longer along than strandScale', () => {
    const m = 200, n = m * m, across = new Float32Array(n), along = new Float32Array(n);
    for (let i = 0; i < n; i++) { across[i] = i % m; along[i] = Math.floor(i / m); }
    const diffs = (noise: Float32Array) => {
      let al = 0, ac = 0;
      for (let y = 1; y < m - 1; y++) for (let x = 1; x < m - 1; x++) { const i = y * m + x; al += Math.abs(noise[i] - noise[i + m]); ac += Math.abs(noise[i] - noise[i + 1]); }
      return { al, ac };
    };
    const fibre = diffs(strandNoise(across, along, fibreScale(800), 3)), strand = diffs(strandNoise(across, along, strandScale(800), 3));
    expect(fibre.ac).toBeGreaterThan(1.5 * strand.ac);
    expect(fibre.al / fibre.ac).toBeLessThan(strand.al / strand.ac);
    // No finer than strandScale on a small face (a pixel-wide lattice is only noise there).
    expect(fibreScale(100).strand).toBe(strandScale(100).strand);
  });

  it("strandKeep's texture share: none of it ranks by the noise alone", () => {
    const w = 32, h = 16, n = w * h, L = new Float32Array(n), wt = new Float32Array(n).fill(1), noise = new Float32Array(n);
    for (let i = 0; i < n; i++) { L[i] = (i % 2) * 30; noise[i] = i / n; }
    const keep = strandKeep(L, wt, noise, w, h, 1, 0);
    for (let i = 1; i < n; i++) expect(keep[i]).toBeGreaterThan(keep[i - 1]);
  });
  it('runs flow noise along the hair\'s own strands, not the frame\'s fan, where the hair shows a direction', () => {
    // Hair combed at 30 degrees (stripes of lightness along (cos 30, sin 30)), the frame's fan vertical: the
    // noise must change little along the stripes and much across them.
    const w = 160, h = 160, n = w * h, L = new Float32Array(n), tx = new Float32Array(n), ty = new Float32Array(n).fill(1);
    const c = Math.cos(Math.PI / 6), s = Math.sin(Math.PI / 6);
    for (let y = 0, i = 0; y < h; y++) for (let x = 0; x < w; x++, i++) L[i] = 40 + 12 * Math.sin((-x * s + y * c) * 0.5);
    const out = flowNoise(L, tx, ty, w, h, { strand: 4, clump: 16, stretch: 8 }, 7);
    let along = 0, across = 0, k = 0;
    for (let y = 40; y < 120; y++) for (let x = 40; x < 120; x++) {
      const i = y * w + x;
      along += Math.abs(out[i] - out[Math.round(y + 5 * s) * w + Math.round(x + 5 * c)]);
      across += Math.abs(out[i] - out[Math.round(y + 5 * c) * w + Math.round(x - 5 * s)]);
      k++;
    }
    expect(along / k).toBeLessThan(0.6 * (across / k));
  });
});
