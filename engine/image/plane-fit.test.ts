import { describe, expect, it } from 'vitest';
import { fitPlane, planeResiduals } from './plane-fit.ts';

describe('fitPlane', () => {
  const u = [0, 1, 0, 1, 0.5, 0.2, 0.8, 0.3, 0.9, 0.1, 0.6, 0.4], v = [0, 0, 1, 1, 0.5, 0.7, 0.2, 0.9, 0.6, 0.3, 0.1, 0.8];

  it('recovers a plane and leaves no residual on it', () => {
    const z = u.map((x, i) => 3 + 2 * x - 5 * v[i]);
    const p = fitPlane(u, v, z)!;
    expect(p[0]).toBeCloseTo(3); expect(p[1]).toBeCloseTo(2); expect(p[2]).toBeCloseTo(-5);
    expect(Math.max(...planeResiduals(p, u, v, z))).toBeLessThan(1e-4);
  });

  it('needs enough samples, and goes flat when the samples lie on a line', () => {
    expect(fitPlane(u.slice(0, 5), v.slice(0, 5), u.slice(0, 5))).toBeNull();
    expect(fitPlane(u.slice(0, 5), v.slice(0, 5), u.slice(0, 5), 5)).not.toBeNull();
    const line = u.map((x) => x);
    expect(fitPlane(u, line, u.map((x) => 4 + x))).toEqual([expect.closeTo(4.5, 1), 0, 0]);
  });
});
