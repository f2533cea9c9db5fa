import { describe, expect, it } from 'vitest';
import { blankness, resultForm } from './blank-image.ts';

/** A w×h RGBA image filled with `bg`, with `fg` painted over the given rectangle. */
function image(w: number, h: number, bg: number[], fg?: { x: number; y: number; width: number; height: number; rgba: number[] }) {
  const data = new Uint8ClampedArray(w * h * 4);
  for (let i = 0; i < w * h; i++) data.set(bg, i * 4);
  if (fg) for (let y = fg.y; y < fg.y + fg.height; y++) for (let x = fg.x; x < fg.x + fg.width; x++) data.set(fg.rgba, (y * w + x) * 4);
  return { data, width: w, height: h };
}

describe('blankness', () => {
  it('finds a fully transparent cutout empty, and a garment in it not empty, with its bounds', () => {
    expect(blankness(image(100, 80, [0, 0, 0, 0]), 'transparent')).toEqual({ blank: true, content: 0, total: 8000, bounds: undefined });
    const found = blankness(image(100, 80, [0, 0, 0, 0], { x: 10, y: 20, width: 30, height: 40, rgba: [200, 30, 30, 255] }), 'transparent');
    expect(found).toEqual({ blank: false, content: 1200, total: 8000, bounds: { x: 10, y: 20, width: 30, height: 40 } });
  });

  it('ignores faint seams and a few stray pixels, but not a small garment', () => {
    expect(blankness(image(100, 100, [0, 0, 0, 10]), 'transparent').blank).toBe(true);
    // 4 pixels of 10 000 (0.04%) are strays; 36 (0.36%) are a thing.
    expect(blankness(image(100, 100, [0, 0, 0, 0], { x: 5, y: 5, width: 2, height: 2, rgba: [9, 9, 9, 255] }), 'transparent')).toMatchObject({ blank: true, content: 4 });
    expect(blankness(image(100, 100, [0, 0, 0, 0], { x: 5, y: 5, width: 6, height: 6, rgba: [9, 9, 9, 255] }), 'transparent')).toMatchObject({ blank: false, content: 36 });
  });

  it('reads a mask by its grey level and whiteBK by what is not white', () => {
    expect(blankness(image(50, 50, [0, 0, 0, 255]), 'mask').blank).toBe(true);
    expect(blankness(image(50, 50, [0, 0, 0, 255], { x: 0, y: 0, width: 10, height: 10, rgba: [255, 255, 255, 255] }), 'mask').blank).toBe(false);
    expect(blankness(image(50, 50, [255, 255, 255, 255]), 'whiteBK').blank).toBe(true);
    // An opaque black image is "nothing" as a mask but a real picture on white.
    expect(blankness(image(50, 50, [0, 0, 0, 255]), 'whiteBK').blank).toBe(false);
    expect(blankness(image(50, 50, [0, 0, 0, 255]), 'transparent').blank).toBe(false);
  });

  it('takes the form from return_form', () => {
    expect([resultForm(undefined), resultForm('mask'), resultForm('whiteBK')]).toEqual(['transparent', 'mask', 'whiteBK']);
  });
});
