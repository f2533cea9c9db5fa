import { converter } from 'culori';
import { describe, expect, it } from 'vitest';
import { deltaE, fromLab, labOf, labToLinear, LINEAR, mapGamut, toByte, toLab } from './colour.ts';

const culoriLab = converter('lab65');

/** Every 8-bit grey and a 17-step cube: the converter against culori. */
function samples(): number[][] {
  const out: number[][] = [];
  for (let v = 0; v < 256; v++) out.push([v, v, v]);
  for (let r = 0; r < 256; r += 15) for (let g = 0; g < 256; g += 15) for (let b = 0; b < 256; b += 15) out.push([r, g, b]);
  return out;
}

describe('colour', () => {
  it('converts buffers to Lab as culori does, to within 0.02', () => {
    const s = samples();
    const data = new Uint8Array(s.flat());
    const lab = toLab({ data, width: s.length, height: 1, channels: 3 });
    let worst = 0;
    s.forEach(([r, g, b], i) => {
      const c = culoriLab({ mode: 'rgb', r: r / 255, g: g / 255, b: b / 255 });
      worst = Math.max(worst, Math.abs(c.l - lab.L[i]), Math.abs(c.a - lab.a[i]), Math.abs(c.b - lab.b[i]));
    });
    expect(worst).toBeLessThan(0.02);
  });

  it('round-trips every sampled colour to the same bytes (off by at most one)', () => {
    const s = samples();
    const data = new Uint8Array(s.flat());
    const img = { data: Uint8Array.from(data), width: s.length, height: 1, channels: 3 };
    fromLab(toLab(img), img);
    let worst = 0;
    for (let i = 0; i < data.length; i++) worst = Math.max(worst, Math.abs(img.data[i] - data[i]));
    expect(worst).toBeLessThanOrEqual(1);
  });

  it('works on a window of an RGBA buffer and leaves the rest and the alpha alone', () => {
    const data = new Uint8Array(4 * 4 * 4).fill(100);
    const img = { data, width: 4, height: 4, channels: 4 };
    const lab = toLab(img, { x0: 1, y0: 1, w: 2, h: 2 });
    expect(lab.L).toHaveLength(4);
    lab.a.fill(40); // redden the window
    fromLab(lab, img);
    const px = (x: number, y: number) => [...data.subarray((y * 4 + x) * 4, (y * 4 + x) * 4 + 4)];
    expect(px(0, 0)).toEqual([100, 100, 100, 100]);
    expect(px(1, 1)[0]).toBeGreaterThan(120);
    expect(px(1, 1)[3]).toBe(100);
    expect(px(3, 3)).toEqual([100, 100, 100, 100]);
  });

  it('maps an out-of-gamut colour by lowering chroma, keeping lightness and hue', () => {
    const l = 60, a = 120, b = 20;
    expect(Math.max(...labToLinear(l, a, b))).toBeGreaterThan(1);
    const rgb = mapGamut(l, a, b);
    for (const c of rgb) { expect(c).toBeGreaterThanOrEqual(-1e-3); expect(c).toBeLessThanOrEqual(1.001); }
    const back = culoriLab({ mode: 'lrgb', r: rgb[0], g: rgb[1], b: rgb[2] });
    expect(back.l).toBeCloseTo(l, 0);
    expect(Math.atan2(back.b, back.a)).toBeCloseTo(Math.atan2(b, a), 1);
  });

  it('encodes linear light to the nearest byte', () => {
    for (let i = 0; i < 256; i++) expect(toByte(LINEAR[i])).toBe(i);
    expect(toByte(-0.2)).toBe(0);
    expect(toByte(1.3)).toBe(255);
  });

  it('measures colour difference with culori (CIEDE2000)', () => {
    expect(deltaE(labOf(200, 30, 60), labOf(200, 30, 60))).toBe(0);
    expect(deltaE(labOf(200, 30, 60), labOf(202, 30, 60))).toBeLessThan(1.5);
    expect(deltaE(labOf(200, 30, 60), labOf(30, 60, 200))).toBeGreaterThan(40);
  });
});
