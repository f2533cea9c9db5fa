import { describe, expect, it } from 'vitest';
import { glossHighlight } from './gloss.ts';

/**
 * A lower lip: an ellipse 120 x 30 px in a 200 x 100 area, lit from above (lighter toward its top), with
 * vertical creases of a few levels; skin around it lighter above than below.
 */
function lowerLip() {
  const w = 200, h = 100, cx = 100, cy = 50, rx = 60, ry = 15;
  const data = new Uint8Array(w * h * 3), mask = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const i = y * w + x, d = ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2;
    const inLip = d <= 1;
    mask[i] = inLip ? 1 : 0;
    const crease = 8 * Math.sin(x * 0.9);
    const v = inLip ? [150 + crease - (y - cy), 70 + crease * 0.5, 80] : [200 - y * 0.4, 150 - y * 0.4, 130 - y * 0.4];
    data.set(v.map((c) => Math.max(0, Math.min(255, Math.round(c)))), i * 3);
  }
  return { image: { data, width: w, height: h, channels: 3 }, mask, area: { x0: 0, y0: 0, w, h }, rx, cx };
}

describe('glossHighlight', () => {
  it('lights the middle of the lip and breaks along its creases, not one band from corner to corner', () => {
    const { image, mask, area, rx, cx } = lowerLip();
    const { weight } = glossHighlight(image, mask, area, 240);
    const column = new Float32Array(area.w);
    for (let y = 0; y < area.h; y++) for (let x = 0; x < area.w; x++) column[x] = Math.max(column[x], weight[y * area.w + x]);
    const peak = Math.max(...column);
    expect(peak).toBeGreaterThan(0.2);
    // Lit across under 60 % of the lip's width, around its middle.
    const lit = [...column.keys()].filter((x) => column[x] > peak / 2);
    expect(lit.length).toBeLessThan(0.6 * 2 * rx);
    expect(Math.abs(lit.reduce((a, b) => a + b, 0) / lit.length - cx)).toBeLessThan(0.15 * rx);
    // Broken: neighbouring columns inside the lit part differ as the creases do.
    let jumps = 0;
    for (const x of lit) if (Math.abs(column[x + 1] - column[x]) > 0.15 * peak) jumps++;
    expect(jumps).toBeGreaterThan(3);
  });
});
