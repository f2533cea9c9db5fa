import { describe, expect, it } from 'vitest';
import { convexHull } from './skin-mask.ts';

describe('convexHull', () => {
  it('keeps the corners and drops the inner and collinear points', () => {
    const hull = convexHull([[0, 0], [4, 0], [2, 0], [4, 4], [0, 4], [2, 2], [1, 3]]);
    expect(hull.map((p) => p.join(',')).sort()).toEqual(['0,0', '0,4', '4,0', '4,4']);
  });
});
