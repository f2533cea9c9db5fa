import { describe, expect, it } from 'vitest';
import { changedPixels, dilate, spill } from './change.ts';

describe('changedPixels', () => {
  it('marks pixels that moved by more than the threshold in any colour channel, not alpha', () => {
    const before = Uint8Array.from([10, 10, 10, 255, 10, 10, 10, 255, 10, 10, 10, 255]);
    const after = Uint8Array.from([10, 23, 10, 0, 10, 22, 10, 255, 10, 10, 10, 0]);
    expect([...changedPixels(before, after, 4)]).toEqual([1, 0, 0]);
  });
  it('refuses images of different sizes', () => {
    expect(() => changedPixels(new Uint8Array(6), new Uint8Array(9), 3)).toThrow('sizes differ');
  });
});

describe('dilate', () => {
  it('grows a point into a (2r+1) square, clipped at the borders', () => {
    const m = new Uint8Array(7 * 5);
    m[2 * 7 + 1] = 1; // (1, 2)
    const d = dilate(m, 7, 5, 2);
    const rows = [0, 1, 2, 3, 4].map((y) => [...d.slice(y * 7, y * 7 + 7)].join(''));
    expect(rows).toEqual(['1111000', '1111000', '1111000', '1111000', '1111000']);
  });
  it('leaves an empty mask empty and r = 0 unchanged', () => {
    expect([...dilate(new Uint8Array(9), 3, 3, 2)].every((v) => v === 0)).toBe(true);
    const m = Uint8Array.from([0, 1, 0, 0]);
    expect([...dilate(m, 2, 2, 0)]).toEqual([0, 1, 0, 0]);
  });
});

describe('spill', () => {
  it('counts changes outside the region over the pixels outside it', () => {
    const changed = Uint8Array.from([1, 1, 0, 1]);
    const region = Uint8Array.from([1, 0, 0, 0]);
    expect(spill(changed, region)).toEqual({ outside: 3, changed: 2, fraction: 2 / 3 });
  });
});
