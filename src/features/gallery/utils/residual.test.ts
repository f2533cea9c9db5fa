import { describe, expect, it } from 'vitest';
import { fullSizeWay } from '../../../lib/full-size.ts';
import { addResidual, windowOnOriginal } from './residual.ts';

type Px = { data: Uint8ClampedArray; width: number; height: number };

const image = (width: number, height: number, f: (x: number, y: number) => [number, number, number]): Px => {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = f(x, y);
      data.set([r, g, b, 255], (y * width + x) * 4);
    }
  }
  return { data, width, height };
};
const at = (p: Px | { data: Uint8ClampedArray; width: number }, x: number, y: number) => Array.from(p.data.slice((y * p.width + x) * 4, (y * p.width + x) * 4 + 3));

/** A 2x downscale by averaging 2x2 blocks: the fitted copy. */
const half = (p: Px): Px =>
  image(p.width / 2, p.height / 2, (x, y) => {
    const s = [0, 0, 0];
    for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]]) at(p, 2 * x + dx, 2 * y + dy).forEach((v, c) => (s[c] += v / 4));
    return s.map(Math.round) as [number, number, number];
  });

// A grey photo with a one-pixel checkerboard only the full size holds, and a dark disc (the "lips").
const inDisc = (x: number, y: number) => (x - 40) ** 2 + (y - 40) ** 2 < 20 ** 2;
const original = image(80, 80, (x, y) => {
  const base = inDisc(x, y) ? 60 : 180;
  const d = (x + y) % 2 ? 10 : -10;
  return [base + d, base + d, base + d];
});
const sent = half(original);
// The engine reddens the disc on the copy (its edge pixels by their share of disc).
const result = image(40, 40, (x, y) => {
  const [r, g, b] = at(sent, x, y);
  return inDisc(2 * x + 1, 2 * y + 1) ? [r + 50, g - 20, b - 20] : [r, g, b];
});

describe('addResidual: an in-place edit on the fitted copy carried to the original', () => {
  it('adds the change inside the edit and keeps the original (its fine detail included) elsewhere', () => {
    const out = addResidual(original, sent, result);
    const o = { data: out, width: 80 };
    // Inside the disc: the original's checkerboard, reddened.
    for (const [x, y] of [[40, 40], [41, 40], [35, 45]]) {
      const [r, g, b] = at(original, x, y);
      expect(at(o, x, y)).toEqual([r + 50, g - 20, b - 20]);
    }
    // Far outside: exactly the original.
    for (const [x, y] of [[2, 2], [3, 2], [77, 70]]) expect(at(o, x, y)).toEqual(at(original, x, y));
  });

  it('edge-aware: the change stops at the original edge where bilinear lets it bleed', () => {
    const edge = addResidual(original, sent, result);
    const plain = addResidual(original, sent, result, { sigma: 0 });
    // Just outside the disc (bright background), next to reddened copy pixels.
    let bleedEdge = 0, bleedPlain = 0;
    for (let y = 0; y < 80; y++) {
      for (let x = 0; x < 80; x++) {
        const d = Math.hypot(x - 40, y - 40);
        if (d < 20.5 || d > 23) continue;
        bleedEdge += Math.abs(edge[(y * 80 + x) * 4] - original.data[(y * 80 + x) * 4]);
        bleedPlain += Math.abs(plain[(y * 80 + x) * 4] - original.data[(y * 80 + x) * 4]);
      }
    }
    expect(bleedPlain).toBeGreaterThan(0);
    expect(bleedEdge).toBeLessThan(bleedPlain / 3);
  });

  it('refuses a result that is not the size of the copy sent', () => {
    expect(() => addResidual(original, sent, original)).toThrow(/not the size of the copy sent/);
  });
});

describe('windowOnOriginal: smart crop window from the copy to the original', () => {
  it('scales by the two sizes and stays inside the photo', () => {
    expect(windowOnOriginal({ x: 578, y: 0, width: 843, height: 1499 }, { width: 1999, height: 1499 }, { width: 4032, height: 3024 })).toEqual({ x: 1166, y: 0, width: 1700, height: 3024 });
    expect(windowOnOriginal({ x: 1990, y: 0, width: 9, height: 1499 }, { width: 1999, height: 1499 }, { width: 4032, height: 3024 }).x + 18).toBeLessThanOrEqual(4032);
  });
});

describe('fullSizeWay: which effects come back at the photo size, and how', () => {
  it('cutouts by their alpha (not on white), colour edits by residual, smart crop by its window, redrawing effects not', () => {
    expect(fullSizeWay('commodity-background-removal')).toBe('cutout');
    expect(fullSizeWay('commodity-background-removal', { return_form: 'whiteBK' })).toBe('engine');
    expect(fullSizeWay('lips-color-changer')).toBe('residual');
    expect(fullSizeWay('face-beauty')).toBe('residual');
    expect(fullSizeWay('image-cropping')).toBe('window');
    expect(fullSizeWay('ai-beard-styling')).toBe('engine');
    expect(fullSizeWay('face-analyzer')).toBeUndefined();
  });
});
