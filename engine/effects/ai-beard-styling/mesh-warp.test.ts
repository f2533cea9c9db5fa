import { describe, expect, it } from 'vitest';
import { faceMeshTables } from '../../vision/models/human.ts';
import { meshWarp } from './mesh-warp.ts';
import type { P3 } from '../../vision/regions/uv-map.ts';

describe('meshWarp', () => {
  it('is the affine map itself when the source mesh is an affine image of the target', () => {
    const { uv } = faceMeshTables();
    const target: P3[] = uv.map(([u, v]) => [60 + 300 * u, 40 + 320 * v, 0]);
    // Source = target scaled by 0.5 and shifted: every triangle maps by the same affine transform.
    const source: P3[] = target.map(([x, y, z]) => [0.5 * x + 13, 0.5 * y - 4, z]);
    const win = { x0: 50, y0: 30, w: 330, h: 380 };
    const w = meshWarp(target, source, win);
    let covered = 0, worst = 0;
    for (let y = 0; y < win.h; y++) {
      for (let x = 0; x < win.w; x++) {
        const i = y * win.w + x;
        if (Number.isNaN(w.sx[i])) continue;
        covered++;
        const X = win.x0 + x + 0.5, Y = win.y0 + y + 0.5;
        worst = Math.max(worst, Math.abs(w.sx[i] - (0.5 * X + 13)), Math.abs(w.sy[i] - (0.5 * Y - 4)));
      }
    }
    expect(covered).toBeGreaterThan(0.5 * win.w * win.h);
    expect(worst).toBeLessThan(1e-3);
  });
});
