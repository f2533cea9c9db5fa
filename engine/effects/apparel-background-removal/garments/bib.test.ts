/** extendUpper on hand-placed regions: a torso colour that goes on down the legs to the ankles is a bib (overalls) only beside sleeves and a neckline of clearly another colour. */
import { describe, expect, it } from 'vitest';
import type { Geometry } from './body-garments.ts';
import { extendUpper } from './layers.ts';
import type { Scene } from './scene.ts';

// Shoulders at y 20 (x 30 and 70), elbows at y 50, wrists at y 75, hips at y 80, knees 130, ankles 180.
const g: Geometry = {
  ys: 20, yh: 80, yk: 130, ya: 180, cx: 50, thigh: 50, shin: 50, t: 60, sw: 40,
  arms: [[{ x: 70, y: 20 }, { x: 75, y: 50 }], [{ x: 75, y: 50 }, { x: 76, y: 75 }], [{ x: 30, y: 20 }, { x: 25, y: 50 }], [{ x: 25, y: 50 }, { x: 24, y: 75 }]],
  legs: [],
};
const DENIM: [number, number, number] = [33, 12, -39], BLACK: [number, number, number] = [10, 1, -7];
const at = (x: number, y: number, lab: [number, number, number]) => ({ lab, x, y, n: 10, x0: x - 2, y0: y - 2, x1: x + 2, y1: y + 2 });

/** 0 neckline, 1..2 sleeves, 3..4 torso sides, 5 bib; lower: 6 hips, 7..8 thighs, 9..10 shins at the ankles. */
function scene(sleeves: [number, number, number], neckline: [number, number, number]): Scene {
  const regions = [
    at(50, 25, neckline), at(25, 48, sleeves), at(75, 48, sleeves), at(38, 65, DENIM), at(62, 65, DENIM), at(50, 50, DENIM),
    at(50, 85, DENIM), at(42, 110, DENIM), at(58, 110, DENIM), at(42, 176, DENIM), at(58, 176, DENIM),
  ];
  const neighbours = [[5], [3], [4], [5, 1, 6], [5, 2, 6], [0, 3, 4, 6], [3, 4, 5, 7, 8], [6, 9], [6, 10], [7], [8]];
  return { regions, neighbours, width: 100, height: 200, sp: new Int32Array(100 * 200).fill(-1) } as unknown as Scene;
}
const upper = [0, 1, 2, 3, 4, 5], lower = [6, 7, 8, 9, 10];

describe('extendUpper: bibs', () => {
  it('takes a bib between black sleeves and a black neckline down to the ankles as trousers', () => {
    const out = extendUpper(scene(BLACK, BLACK), upper, lower, g);
    expect(out.bib).toBe(true);
    expect(out.lower).toContain(5);
    expect(out.upper).toEqual(expect.arrayContaining([0, 1, 2]));
  });
  it('takes the same colour on the sleeves as a coat or a suit, not a bib', () => {
    const out = extendUpper(scene(DENIM, BLACK), upper, lower, g);
    expect(out.bib).toBeUndefined();
    expect(out.lower).not.toContain(5);
  });
  it('takes the same colour at the neckline as one outfit, not a bib', () => {
    expect(extendUpper(scene(BLACK, DENIM), upper, lower, g).bib).toBeUndefined();
  });
});
