/** Strands on a synthetic face (the canonical mesh laid flat on a grey picture): seeded, anti-aliased, near their part. */
import { describe, expect, it } from 'vitest';
import { faceMeshTables } from '../../vision/models/human.ts';
import type { P3 } from '../../vision/regions/uv-map.ts';
import { presetByName } from './presets.ts';
import { faceShape } from './shape.ts';
import { seededRandom } from '../../image/random.ts';
import { drawPart, stubbleShadow } from './strands.ts';

const SIZE = { width: 640, height: 760 };
const mesh: P3[] = faceMeshTables().uv.map(([u, v]) => [120 + 400 * u, 60 + 440 * v, 0]);
// The iris points the 478-point mesh adds (regions need 478): at the eye centres.
while (mesh.length < 478) mesh.push([...mesh[mesh.length < 473 ? 159 : 386]] as P3);

function draw(name: string, seed: number, rgb: readonly [number, number, number] = [60, 40, 30], shadeAt: (x: number) => number = () => 1, grey = 0) {
  const preset = presetByName(name)!;
  const shape = faceShape(preset, mesh, SIZE);
  const out = new Float32Array(shape.win.w * shape.win.h * 3).fill(200);
  const shade = Float32Array.from({ length: shape.win.w * shape.win.h }, (_, i) => shadeAt(i % shape.win.w));
  const rand = seededRandom(seed);
  preset.parts.forEach((p, k) => drawPart(out, shape, p, shape.coverage[k], { rgb, shade, grey }, rand));
  return { out, shape, preset };
}

describe('drawPart', () => {
  it('draws the same hair for the same seed and different hair for another', () => {
    const a = draw('Goatee', 7).out, b = draw('Goatee', 7).out, c = draw('Goatee', 8).out;
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });

  it('keeps every strand within a strand length and a half of its part', () => {
    const { out, shape, preset } = draw('FullBeardClassic', 1);
    const { w, h } = shape.win;
    const reach = 1.5 * Math.max(...preset.parts.map((p) => p.length)) * shape.faceWidth + 2;
    let far = 0, changed = 0;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        if (out[i * 3] === 200) continue;
        changed++;
        // Distance to the nearest covered pixel, searched in a box of `reach`.
        let near = false;
        for (let yy = Math.max(0, Math.floor(y - reach)); yy <= Math.min(h - 1, y + reach) && !near; yy += 2) {
          for (let xx = Math.max(0, Math.floor(x - reach)); xx <= Math.min(w - 1, x + reach); xx += 2) {
            if (shape.union[yy * w + xx] > 0.02) { near = true; break; }
          }
        }
        if (!near) far++;
      }
    }
    expect(changed).toBeGreaterThan(1000);
    expect(far).toBe(0);
  });

  it('anti-aliases: strand edges blend with what is under them', () => {
    const { out } = draw('HeavyStubble', 3);
    let between = 0, drawn = 0;
    for (let i = 0; i < out.length; i += 3) {
      if (out[i] === 200) continue;
      drawn++;
      if (out[i] > 80 && out[i] < 190) between++;
    }
    expect(between / drawn).toBeGreaterThan(0.3);
  });

  it('draws stubble only darker than the skin under it, even from hair lighter than the skin', () => {
    for (const rgb of [[60, 40, 30], [240, 225, 200]] as const) {
      const { out } = draw('HeavyStubble', 5, rgb);
      let lighter = 0, darker = 0;
      for (let i = 0; i < out.length; i++) {
        if (out[i] > 200) lighter++;
        if (out[i] < 190) darker++;
      }
      expect(lighter).toBe(0);
      expect(darker).toBeGreaterThan(3000);
    }
  });

  it('shades a beard by the light under it: darker where the skin is darker', () => {
    const { out, shape } = draw('FullBeardClassic', 2);
    const shaded = draw('FullBeardClassic', 2, [60, 40, 30], (x) => (x < shape.win.w / 2 ? 1 : 0.5)).out;
    const { w } = shape.win;
    // Same seed, same strands: the left half as it was, the right half's hair darker.
    let left = 0, right = 0, n = 0;
    for (let i = 0; i < out.length / 3; i++) {
      if (shape.union[i] < 0.9) continue;
      if (i % w < w / 2) left += Math.abs(out[i * 3] - shaded[i * 3]);
      else { right += out[i * 3] - shaded[i * 3]; n++; }
    }
    expect(left).toBe(0);
    expect(right / n).toBeGreaterThan(10);
  });
});

describe('drawPart with a stop and a blur', () => {
  it('ends strands at the stop and keeps the part as dense where it shows (a lip over a moustache)', () => {
    const preset = presetByName('ChevronMoustache')!;
    const shape = faceShape(preset, mesh, SIZE);
    const { w, h } = shape.win;
    // The part's lower half stopped (as a smiling face's upper lip is).
    let top = h, bottom = 0;
    for (let i = 0; i < w * h; i++) if (shape.coverage[0][i] > 0.5) { const y = Math.floor(i / w); top = Math.min(top, y); bottom = Math.max(bottom, y); }
    const cut = Math.round((top + bottom) / 2);
    const stop = Float32Array.from({ length: w * h }, (_, i) => (Math.floor(i / w) >= cut ? 1 : 0));
    const run = (withStop: boolean) => {
      const out = new Float32Array(w * h * 3).fill(200);
      drawPart(out, shape, { ...preset.parts[0], body: 0 }, shape.coverage[0], { rgb: [60, 40, 30], shade: new Float32Array(w * h).fill(1) }, seededRandom(9), withStop ? stop : undefined);
      return out;
    };
    const free = run(false), stopped = run(true);
    /** Mean darkening over the covered pixels above the cut, and the pixels changed below it (past a strand's width). */
    const read = (out: Float32Array) => {
      let dark = 0, n = 0, below = 0;
      for (let i = 0; i < w * h; i++) {
        // A strand's last splat reaches a pixel past where it ended.
        if (Math.floor(i / w) >= cut) { if (Math.floor(i / w) >= cut + 2 && out[i * 3] !== 200) below++; continue; }
        if (shape.coverage[0][i] > 0.5) { dark += 200 - out[i * 3]; n++; }
      }
      return { dark: dark / n, below };
    };
    const a = read(free), b = read(stopped);
    expect(a.below).toBeGreaterThan(100);
    expect(b.below).toBe(0);
    expect(b.dark).toBeGreaterThan(a.dark);
  });

  it('draws locks wider on a blurred photo (the blur leaves their texture), fewer of them', () => {
    const sharp = draw('Goatee', 6).out;
    const preset = presetByName('Goatee')!;
    const shape = faceShape(preset, mesh, SIZE);
    const out = new Float32Array(shape.win.w * shape.win.h * 3).fill(200);
    const shade = new Float32Array(shape.win.w * shape.win.h).fill(1);
    const rand = seededRandom(6);
    preset.parts.forEach((p, k) => drawPart(out, shape, p, shape.coverage[k], { rgb: [60, 40, 30], shade, blur: 4 }, rand));
    /** Horizontal luma steps over the covered pixels: fine strands make many sharp ones. */
    const roughness = (o: Float32Array) => {
      let s = 0, n = 0;
      for (let i = 1; i < shape.union.length; i++) if (shape.union[i] > 0.95 && shape.union[i - 1] > 0.95) { s += Math.abs(o[i * 3] - o[i * 3 - 3]); n++; }
      return s / n;
    };
    expect(out).not.toEqual(sharp);
    expect(roughness(out)).toBeLessThan(roughness(sharp));
  });
});

describe('drawPart on white hair', () => {
  it('gives it bright highlights and darker strands between, not a flat grey', () => {
    const rgb = [200, 196, 192] as const;
    /** The share of the beard's pixels lit above the hair's colour (highlights), and below 0.7 of it (the gaps). */
    const tones = (grey: number) => {
      const { out, shape } = draw('FullBeardClassic', 4, rgb, () => 1, grey);
      let hi = 0, lo = 0, n = 0;
      for (let i = 0; i < shape.union.length; i++) {
        if (shape.union[i] < 0.95) continue;
        n++;
        if (out[i * 3 + 1] > rgb[1] + 15) hi++;
        if (out[i * 3 + 1] < 0.7 * rgb[1]) lo++;
      }
      return { hi: hi / n, lo: lo / n };
    };
    const flat = tones(0), white = tones(1);
    expect(white.hi).toBeGreaterThan(2 * flat.hi);
    expect(white.lo).toBeGreaterThan(flat.lo);
  });
});

describe('stubbleShadow', () => {
  it('darkens the skin toward a bluish grey in proportion to coverage, never lightens', () => {
    const cover = Float32Array.from([0, 0.5, 1]);
    const out = new Float32Array(9).fill(180);
    stubbleShadow(out, cover, 0.8, () => 1);
    expect([...out.slice(0, 3)]).toEqual([180, 180, 180]);
    expect(out[3]).toBeLessThan(180);
    expect(out[6]).toBeLessThan(out[3]);
    // Red goes most, blue least: the shadow is cool.
    expect(out[6]).toBeLessThan(out[8]);
    for (const v of out) expect(v).toBeLessThanOrEqual(180);
  });
});
