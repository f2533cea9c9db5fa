import { describe, expect, it } from 'vitest';
import { FACE_OVAL } from '../../vision/faces/landmarks.ts';
import { roundedSquareCoverage } from './steps.ts';
import { faceFrame, ovalRadius, rayTable, sourceOf, squareRadius } from './square-warp.ts';

/** A mesh whose oval is an ellipse (half-width 80, half-height 100) around (200, 200); other points unused. */
function ellipseMesh(): number[][] {
  const mesh = Array.from({ length: 478 }, () => [200, 200, 0]);
  FACE_OVAL.forEach((idx, k) => {
    const t = (2 * Math.PI * k) / FACE_OVAL.length;
    mesh[idx] = [200 + 80 * Math.cos(t), 200 + 100 * Math.sin(t), 0];
  });
  return mesh;
}

describe('square warp', () => {
  const f = faceFrame(ellipseMesh(), 0);

  it('measures the oval: centre, half-axes, radius by direction', () => {
    expect(f.cx).toBeCloseTo(200, 0);
    expect(f.a).toBeCloseTo(80, 0);
    expect(f.b).toBeCloseTo(100, 0);
    expect(ovalRadius(f, 0)).toBeCloseTo(80, 0);
    expect(ovalRadius(f, Math.PI / 2)).toBeCloseTo(100, 0);
  });

  it('leaves the inner face and the far surroundings in place', () => {
    expect(sourceOf(f, 210, 190)).toEqual([210, 190]);
    expect(sourceOf(f, 200 + 300, 200)).toEqual([500, 200]);
  });

  it('fills the square\'s corners from the oval: a diagonal point on the square reads from the oval', () => {
    const angle = Math.atan2(100, 80);
    const rs = squareRadius(f, angle);
    expect(rs).toBeGreaterThan(ovalRadius(f, angle) * 1.1);
    const [sx, sy] = sourceOf(f, 200 + rs * Math.cos(angle), 200 + rs * Math.sin(angle));
    expect(Math.hypot(sx - 200, sy - 200)).toBeCloseTo(ovalRadius(f, angle), 0);
  });

  it('reads the same through the per-direction table, within a tenth of a pixel', () => {
    const table = rayTable(f);
    for (let y = 60; y < 340; y += 7) {
      for (let x = 60; x < 340; x += 7) {
        const [ex, ey] = sourceOf(f, x, y), [tx, ty] = sourceOf(f, x, y, table);
        expect(Math.hypot(ex - tx, ey - ty)).toBeLessThan(0.1);
      }
    }
  });

  it('is monotonic along a ray (no fold-over)', () => {
    const angle = Math.atan2(100, 80);
    let last = 0;
    for (let r = 1; r < 250; r += 0.5) {
      const [sx, sy] = sourceOf(f, 200 + r * Math.cos(angle), 200 + r * Math.sin(angle));
      const d = Math.hypot(sx - 200, sy - 200);
      expect(d).toBeGreaterThan(last);
      last = d;
    }
  });
});

describe('square warp of a turned face', () => {
  // A lopsided oval, as a profile's is about its centroid: 40 px to the left, 120 px to the right.
  const mesh = Array.from({ length: 478 }, () => [200, 200, 0]);
  FACE_OVAL.forEach((idx, k) => {
    const t = (2 * Math.PI * k) / FACE_OVAL.length;
    mesh[idx] = [200 + (Math.cos(t) < 0 ? 40 : 120) * Math.cos(t), 200 + 100 * Math.sin(t), 0];
  });
  const f = faceFrame(mesh, 0);

  it('puts each side of the square at the oval\'s own extent on that side', () => {
    expect(f.left).toBeLessThan(f.right * 0.75);
    expect(squareRadius(f, Math.PI)).toBeCloseTo(f.left, 0);
    expect(squareRadius(f, 0)).toBeCloseTo(f.right, 0);
  });

  it('never magnifies a ray by more than 1.3', () => {
    for (let angle = -Math.PI; angle < Math.PI; angle += 0.05) {
      const r = ovalRadius(f, angle);
      const [sx, sy] = sourceOf(f, f.cx + r * Math.cos(angle), f.cy + r * Math.sin(angle));
      expect(r / Math.hypot(sx - f.cx, sy - f.cy)).toBeLessThanOrEqual(1.3 + 1e-6);
    }
  });
});

describe('roundedSquareCoverage', () => {
  it('is 0 at the corner, 1 on the edges and inside, partial along the arc', () => {
    expect(roundedSquareCoverage(0.5, 0.5, 100, 20)).toBe(0);
    expect(roundedSquareCoverage(50, 0.5, 100, 20)).toBe(1);
    expect(roundedSquareCoverage(50, 50, 100, 20)).toBe(1);
    const arc = roundedSquareCoverage(20 - 20 * Math.SQRT1_2, 20 - 20 * Math.SQRT1_2, 100, 20);
    expect(arc).toBeGreaterThan(0.2);
    expect(arc).toBeLessThan(0.8);
  });
});
