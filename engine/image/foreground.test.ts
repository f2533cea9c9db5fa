import { describe, expect, it } from 'vitest';
import { decontaminate, decontaminator } from './foreground.ts';

/** Radii for a 1024 px image: about 20 and 3 px on these 80 px test images. */
const RADII = { wide: 256, narrow: 40 };

/**
 * A w x h composite: a subject of colour `fg` on the left, the background `bg` on the right, and a soft
 * vertical edge between them where alpha falls linearly from 255 to 0 over `band` columns.
 */
function composite(w: number, h: number, band: number, fg: number[], bg: number[], channels = 3) {
  const alpha = new Uint8Array(w * h);
  const data = new Uint8Array(w * h * channels);
  const start = Math.floor((w - band) / 2);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const i = y * w + x;
    const a = x < start ? 255 : x >= start + band ? 0 : Math.round(255 * (1 - (x - start + 0.5) / band));
    alpha[i] = a;
    for (let c = 0; c < 3; c++) data[i * channels + c] = Math.round((a * fg[c] + (255 - a) * bg[c]) / 255);
    if (channels === 4) data[i * channels + 3] = 200;
  }
  return { data, alpha };
}

/**
 * Over the partly transparent pixels, the mean absolute difference between the cutout laid on grey and the
 * subject colour laid on grey with the same alpha: the fringe a customer sees on a new background.
 */
function bandError(data: Uint8Array, alpha: Uint8Array, fg: number[], channels = 3): number {
  let sum = 0, n = 0;
  for (let i = 0; i < alpha.length; i++) {
    const a = alpha[i] / 255;
    if (a === 0 || a === 1) continue;
    for (let c = 0; c < 3; c++) sum += Math.abs(a * data[i * channels + c] - a * fg[c]);
    n += 3;
  }
  return sum / n;
}

describe('decontaminate', () => {
  it('gives the partly transparent pixels the subject colour instead of the old background mix', () => {
    const fg = [230, 220, 200], bg = [200, 20, 30];
    const { data, alpha } = composite(80, 40, 12, fg, bg);
    const before = bandError(data, alpha, fg);
    const after = bandError(decontaminate(data, 80, 40, 3, alpha, RADII), alpha, fg);
    expect(before).toBeGreaterThan(20);
    expect(after).toBeLessThan(before / 5);
  });

  it('works the same on a photo larger than the grid (its means on block averages, the fusion at full size)', () => {
    const fg = [240, 230, 210], bg = [190, 30, 40];
    const { data, alpha } = composite(2500, 40, 30, fg, bg);
    const after = bandError(decontaminate(data, 2500, 40, 3, alpha, RADII), alpha, fg);
    expect(after).toBeLessThan(bandError(data, alpha, fg) / 5);
  });

  it('gives each of several alphas over one photo what decontaminate gives it alone (the photo\'s planes made once)', () => {
    for (const w of [80, 2500]) {
      const { data, alpha } = composite(w, 40, 12, [230, 220, 200], [200, 20, 30]);
      const wider = composite(w, 40, 30, [230, 220, 200], [200, 20, 30]).alpha;
      const hard = alpha.map((a) => (a >= 128 ? 255 : 0));
      const each = decontaminator(data, w, 40, 3, RADII);
      for (const a of [hard, alpha, wider, alpha]) expect(Buffer.compare(each(a), decontaminate(data, w, 40, 3, a, RADII))).toBe(0);
    }
  });

  it('leaves opaque and fully transparent pixels exactly as they were', () => {
    const { data, alpha } = composite(60, 30, 10, [30, 90, 200], [250, 250, 0]);
    const out = decontaminate(data, 60, 30, 3, alpha, RADII);
    for (let i = 0; i < alpha.length; i++) {
      if (alpha[i] !== 0 && alpha[i] !== 255) continue;
      for (let c = 0; c < 3; c++) expect(out[i * 3 + c]).toBe(data[i * 3 + c]);
    }
  });

  it('keeps an RGBA input\'s own alpha channel and works on its colour', () => {
    const fg = [20, 200, 40], bg = [10, 10, 250];
    const { data, alpha } = composite(50, 20, 8, fg, bg, 4);
    const out = decontaminate(data, 50, 20, 4, alpha, RADII);
    for (let i = 0; i < alpha.length; i++) expect(out[i * 4 + 3]).toBe(200);
    expect(bandError(out, alpha, fg, 4)).toBeLessThan(bandError(data, alpha, fg, 4) / 5);
  });

  it('does not modify its input and returns a copy when no pixel is partly transparent', () => {
    const data = new Uint8Array([1, 2, 3, 4, 5, 6]);
    const out = decontaminate(data, 2, 1, 3, new Uint8Array([255, 0]), RADII);
    expect([...out]).toEqual([1, 2, 3, 4, 5, 6]);
    out[0] = 9;
    expect(data[0]).toBe(1);
  });

  it('refuses pixels and alpha of different sizes', () => {
    expect(() => decontaminate(new Uint8Array(12), 2, 2, 3, new Uint8Array(3), RADII)).toThrow(/2x2x3/);
  });
});
