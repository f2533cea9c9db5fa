import { describe, expect, it } from 'vitest';
import { smoothPath, strokePath } from './features.ts';

const sum = (v: Float32Array) => v.reduce((s, x) => s + x, 0);

describe('the ink kernels', () => {
  it('a stroke covers its width along its length, anti-aliased at the sides', () => {
    const ink = new Float32Array(100 * 40);
    strokePath(ink, 100, 40, [[10, 20], [90, 20]], 4, false);
    // 80 px long, 4 px wide, plus round caps of radius 2 (about 12.6 px).
    expect(sum(ink)).toBeGreaterThan(80 * 4);
    expect(sum(ink)).toBeLessThan(80 * 4 + 20);
    expect(ink[20 * 100 + 50]).toBe(1);
    expect(ink[25 * 100 + 50]).toBe(0);
  });

  it('smoothing keeps an open path\'s ends and cuts its corners', () => {
    const p = smoothPath([[0, 0], [10, 0], [10, 10]], false);
    expect(p[0]).toEqual([0, 0]);
    expect(p.at(-1)).toEqual([10, 10]);
    expect(p.some(([x, y]) => x === 10 && y === 0)).toBe(false);
    expect(smoothPath([[0, 0], [10, 0], [10, 10], [0, 10]], true)).toHaveLength(16);
  });
});
