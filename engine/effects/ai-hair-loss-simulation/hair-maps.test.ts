/** What the parsing's hair says in the head frame: the scalp's hair cover and long hair beside the head. */
import { describe, expect, it } from 'vitest';
import { fromHead, FRONTAL, toHead, type HeadFrame } from './hairline.ts';
import { hairCover, hangsBeside, otherHeads, type HairMaps } from './hair-maps.ts';
import { MIN_HAIR_COVER } from './tuning.ts';

describe('hair cover', () => {
  it('measures the hair cover of the scalp: a hat or a bald head is below the threshold, a head of hair above', () => {
    const f: HeadFrame = { ox: 150, oy: 250, ax: [1, 0], up: [0, -1], halfWidth: 80, forehead: 80, mid: 0 };
    const win = { x0: 0, y0: 0, w: 300, h: 360 };
    const hair = new Float32Array(300 * 360);
    expect(hairCover(f, hair, win)).toBe(0);
    hair.fill(1);
    expect(hairCover(f, hair, win)).toBe(1);
    // A hat: hair only below its brim, at the sides.
    hair.fill(0);
    for (let y = 0; y < 360; y++) for (let x = 0; x < 300; x++) { const [u, v] = toHead(f, x + 0.5, y + 0.5); if (Math.abs(u) > 0.8 && v < 1) hair[y * 300 + x] = 1; }
    expect(hairCover(f, hair, win)).toBeLessThan(MIN_HAIR_COVER);
    // Thin hair on top (one point in eight) still counts.
    for (let y = 0; y < 360; y++) for (let x = 0; x < 300; x++) if ((x >> 3) % 8 === 0) hair[y * 300 + x] = 1;
    expect(hairCover(f, hair, win)).toBeGreaterThan(MIN_HAIR_COVER);
  });
});

describe('hair beside the head', () => {
  it('hangs where the parsing sees hair beside the ears, on that side only', () => {
    const f: HeadFrame = { ox: 150, oy: 250, ax: [1, 0], up: [0, -1], halfWidth: 80, forehead: 80, mid: 0 };
    const win = { x0: 0, y0: 0, w: 300, h: 360 }, n = 300 * 360;
    const maps = (hairAt: (u: number, v: number) => boolean): HairMaps => {
      const hair = new Float32Array(n);
      for (let y = 0; y < 360; y++) for (let x = 0; x < 300; x++) { const [u, v] = toHead(f, x + 0.5, y + 0.5); if (hairAt(u, v)) hair[y * 300 + x] = 1; }
      return { hair, skin: new Float32Array(n), background: new Float32Array(n) };
    };
    // Short hair: the head's top and its sides down to the temples; the ears and the backdrop below.
    expect(hangsBeside(f, FRONTAL, maps((u, v) => v > 0.1 && Math.hypot(u / 1.3, (v - 0.45) / 1.5) < 1), win)).toEqual([false, false]);
    // Long hair falling past the jaw on the subject's right (u < 0) only.
    expect(hangsBeside(f, FRONTAL, maps((u, v) => (v > 0.1 && Math.hypot(u / 1.3, (v - 0.45) / 1.5) < 1) || (u < -1 && u > -1.5 && v > -1.2)), win)).toEqual([true, false]);
  });
});

describe('heads of a group photo', () => {
  it('gives each face its own head: a neighbour\'s skull and hair beside this head are theirs, this head\'s own sides are not', () => {
    // Two heads side by side, 1.9 half face widths apart (their skulls' sides nearly touch), the neighbour smaller.
    const a: HeadFrame = { ox: 150, oy: 250, ax: [1, 0], up: [0, -1], halfWidth: 80, forehead: 80, mid: 0 };
    const b: HeadFrame = { ox: 302, oy: 260, ax: [1, 0], up: [0, -1], halfWidth: 60, forehead: 60, mid: 0 };
    const win = { x0: 0, y0: 0, w: 420, h: 360 };
    const theirs = otherHeads(a, [b], win);
    const at = (f: HeadFrame, u: number, v: number) => { const [x, y] = fromHead(f, u, v).map(Math.floor); return theirs[y * win.w + x]; };
    for (const [u, v] of [[0, 1.3], [0.9, 0.9], [-1, 0.8], [0.7, 1.5]]) expect(at(a, u, v)).toBe(0);
    for (const [u, v] of [[0, 1.2], [-0.9, 0.9], [0, 0.3]]) expect(at(b, u, v)).toBe(1);
    expect(otherHeads(a, [], win).every((k) => k === 0)).toBe(true);
  });
});
