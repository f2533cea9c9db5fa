/** extendUpper on drawn regions: trousers worn above the hip keypoints take back the waistband they span; a stripe of their colour up a shirt stays with the shirt. */
import { describe, expect, it } from 'vitest';
import type { Geometry } from './body-garments.ts';
import { extendUpper } from './layers.ts';
import type { Scene } from './scene.ts';

const W = 100, H = 200;
// Shoulders at y 20, hips at y 80 (torso 60), arms far out at x 10 and 90.
const g: Geometry = {
  ys: 20, yh: 80, yk: 130, ya: 180, cx: 50, thigh: 50, shin: 50, t: 60, sw: 40,
  arms: [[{ x: 90, y: 20 }, { x: 92, y: 50 }], [{ x: 92, y: 50 }, { x: 93, y: 75 }], [{ x: 10, y: 20 }, { x: 8, y: 50 }], [{ x: 8, y: 50 }, { x: 7, y: 75 }]],
  legs: [],
};
const BLUE: [number, number, number] = [30, 10, -35], BEIGE: [number, number, number] = [75, 3, 18];

/** Rectangles [x0, y0, x1, y1, colour] as regions, with the superpixel map and 4-neighbours. */
function scene(rects: [number, number, number, number, [number, number, number]][]): Scene {
  const sp = new Int32Array(W * H).fill(-1);
  rects.forEach(([x0, y0, x1, y1], r) => { for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) sp[y * W + x] = r; });
  const regions = rects.map(([x0, y0, x1, y1, lab]) => ({ lab, x: (x0 + x1) / 2, y: (y0 + y1) / 2, n: (x1 - x0) * (y1 - y0), x0, y0, x1: x1 - 1, y1: y1 - 1 }));
  const sets = rects.map(() => new Set<number>());
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const a = sp[y * W + x];
    for (const b of [x + 1 < W ? sp[y * W + x + 1] : -1, y + 1 < H ? sp[(y + 1) * W + x] : -1]) if (a >= 0 && b >= 0 && a !== b) { sets[a].add(b); sets[b].add(a); }
  }
  return { regions, neighbours: sets.map((s) => [...s]), sp, width: W, height: H, alpha: new Float32Array(rects.length).fill(1) } as unknown as Scene;
}

describe('extendUpper: waistbands', () => {
  it('gives the trousers the band of their colour across the body above the hips', () => {
    // 0: shirt; 1: beige band y 66..80 across the torso; 2, 3: beige trousers below the hips.
    const s = scene([[30, 20, 70, 66, BLUE], [30, 66, 70, 80, BEIGE], [30, 80, 70, 100, BEIGE], [30, 100, 70, 180, BEIGE]]);
    const out = extendUpper(s, [0, 1], [2, 3], g);
    expect(out.lower).toContain(1);
    expect(out.upper).toEqual([0]);
  });
  it('leaves a narrow stripe of the trousers colour up the shirt to the shirt', () => {
    // 0: shirt; 1, 2: its lower sides beside a beige stripe (3) x 45..55 down to the hips; 4, 5: trousers.
    const s = scene([[30, 20, 70, 60, BLUE], [30, 60, 45, 80, BLUE], [55, 60, 70, 80, BLUE], [45, 60, 55, 80, BEIGE], [30, 80, 70, 100, BEIGE], [30, 100, 70, 180, BEIGE]]);
    const out = extendUpper(s, [0, 1, 2, 3], [4, 5], g);
    expect(out.upper).toContain(3);
  });
});
