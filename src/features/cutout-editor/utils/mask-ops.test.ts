import { describe, expect, it } from 'vitest';
import { History, keepRegion, paintDab, paintLine, removeRegion, type Mask, type Pixels } from './mask-ops.ts';

/** A 40x20 photo: left half red, right half blue; a mask with two solid squares, one on each half. */
function scene(): { mask: Mask; photo: Pixels } {
  const width = 40, height = 20;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(x < 20 ? [220, 30, 30, 255] : [30, 30, 220, 255], (y * width + x) * 4);
  const alpha = new Uint8Array(width * height);
  for (let y = 5; y < 15; y++) for (let x = 0; x < width; x++) if ((x >= 4 && x < 14) || (x >= 24 && x < 34)) alpha[y * width + x] = 255;
  return { mask: { alpha, width, height }, photo: { data, width, height } };
}

const at = (m: Mask, x: number, y: number) => m.alpha[y * m.width + x];

describe('brush', () => {
  it('erases a disc and restores it again', () => {
    const { mask } = scene();
    paintDab(mask, { x: 9, y: 10, radius: 3, mode: 'erase' });
    expect(at(mask, 9, 10)).toBe(0);
    expect(at(mask, 4, 5)).toBe(255);
    paintDab(mask, { x: 9, y: 10, radius: 3, mode: 'restore' });
    expect(at(mask, 9, 10)).toBe(255);
  });

  it('restores where the engine had nothing', () => {
    const { mask } = scene();
    expect(at(mask, 19, 2)).toBe(0);
    paintDab(mask, { x: 19.5, y: 2.5, radius: 2, mode: 'restore' });
    expect(at(mask, 19, 2)).toBe(255);
  });

  it('in smart mode stops at a colour edge', () => {
    const { mask, photo } = scene();
    mask.alpha.fill(255);
    // Centred on the red side, two pixels from the blue: the blue pixels under the disc keep their alpha.
    paintDab(mask, { x: 18, y: 10, radius: 6, mode: 'erase', smart: { photo, tolerance: 48 } });
    expect(at(mask, 17, 10)).toBe(0);
    expect(at(mask, 21, 10)).toBe(255);
    const plain = scene().mask;
    plain.alpha.fill(255);
    paintDab(plain, { x: 18, y: 10, radius: 6, mode: 'erase' });
    expect(at(plain, 21, 10)).toBe(0);
  });

  it('leaves no gaps along a fast stroke', () => {
    const { mask } = scene();
    mask.alpha.fill(255);
    paintLine(mask, { x: 2, y: 10 }, { x: 38, y: 10, radius: 3, mode: 'erase' });
    for (let x = 3; x < 38; x++) expect(at(mask, x, 10)).toBe(0);
  });
});

describe('pieces', () => {
  it('click to remove drops the piece clicked and only it', () => {
    const { mask, photo } = scene();
    expect(removeRegion(mask, photo, 8, 8)).not.toBeNull();
    expect(at(mask, 8, 8)).toBe(0);
    expect(at(mask, 4, 14)).toBe(0);
    expect(at(mask, 28, 8)).toBe(255);
  });

  it('a click outside the cutout removes nothing', () => {
    const { mask, photo } = scene();
    expect(removeRegion(mask, photo, 19, 1)).toBeNull();
  });

  it('click to keep drops every other piece', () => {
    const { mask, photo } = scene();
    keepRegion(mask, photo, 28, 8);
    expect(at(mask, 8, 8)).toBe(0);
    expect(at(mask, 28, 8)).toBe(255);
  });

  it('with "similar colour" splits a piece by colour', () => {
    const { mask, photo } = scene();
    // One piece spanning both colours.
    for (let y = 5; y < 15; y++) for (let x = 4; x < 34; x++) mask.alpha[y * mask.width + x] = 255;
    removeRegion(mask, photo, 8, 8, { tolerance: 48 });
    expect(at(mask, 8, 8)).toBe(0);
    expect(at(mask, 28, 8)).toBe(255);
    const whole = scene();
    for (let y = 5; y < 15; y++) for (let x = 4; x < 34; x++) whole.mask.alpha[y * whole.mask.width + x] = 255;
    removeRegion(whole.mask, whole.photo, 8, 8);
    expect(at(whole.mask, 28, 8)).toBe(0);
  });

  it('click to keep outside the cutout brings back the similar colour there', () => {
    const { mask, photo } = scene();
    keepRegion(mask, photo, 36, 2);
    expect(at(mask, 36, 2)).toBe(255);
    expect(at(mask, 21, 18)).toBe(255);
    expect(at(mask, 2, 2)).toBe(0);
  });
});

describe('history', () => {
  it('undoes and redoes', () => {
    const { mask, photo } = scene();
    const h = new History();
    const before = mask.alpha.slice();
    removeRegion(mask, photo, 8, 8);
    h.push(before);
    const after = mask.alpha.slice();
    expect(h.undo(mask.alpha)).toBe(true);
    expect(mask.alpha).toEqual(before);
    expect(h.redo(mask.alpha)).toBe(true);
    expect(mask.alpha).toEqual(after);
    expect(h.redo(mask.alpha)).toBe(false);
  });
});
