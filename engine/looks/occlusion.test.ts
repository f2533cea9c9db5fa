import { describe, expect, it } from 'vitest';
import { keepOccluded } from './occlusion.ts';

/** A 60 x 20 grey photo, an edit that made every pixel white, and an occluder over columns 20-29. */
function scene() {
  const W = 60, H = 20, n = W * H;
  const original = { data: new Uint8Array(3 * n).fill(100), width: W, height: H, channels: 3 };
  const result = { ...original, data: new Uint8Array(3 * n).fill(250) };
  const mask = { data: new Uint8Array(n), width: W, height: H };
  for (let y = 0; y < H; y++) for (let x = 20; x < 30; x++) mask.data[y * W + x] = 255;
  return { W, original, result, mask };
}

describe('keepOccluded', () => {
  it('puts the photo back exactly on the occluder, fades the edit in beside it and leaves the rest edited', () => {
    const { W, original, result, mask } = scene();
    keepOccluded(result, original, [{ mask, feather: 9 }]);
    const at = (x: number) => result.data[3 * (10 * W + x)];
    for (let x = 20; x < 30; x++) expect(at(x)).toBe(100);
    // Beside it, rising from the photo toward the edit without a step: no hard seam.
    const right = [30, 31, 32, 33, 34, 35, 36, 37, 38, 39].map(at);
    for (let k = 1; k < right.length; k++) expect(right[k]).toBeGreaterThanOrEqual(right[k - 1]);
    expect(right[0]).toBeLessThan(200);
    expect(Math.max(...right.slice(1).map((v, k) => v - right[k]))).toBeLessThan(60);
    expect(at(50)).toBe(250);
    expect(at(5)).toBe(250);
  });

  it('changes nothing without an occluder', () => {
    const { original, result, mask } = scene();
    mask.data.fill(0);
    keepOccluded(result, original, [{ mask, feather: 9 }]);
    expect(result.data.every((v) => v === 250)).toBe(true);
  });
});
