/** layerShape on hand-placed regions (an outer colour must cover the torso sides to be a coat, and the elbows too to be more than a vest); shadedDistance on Lab colours. */
import { describe, expect, it } from 'vitest';
import type { Geometry } from './body-garments.ts';
import { layerShape, shadedDistance } from './layers.ts';
import type { Scene } from './scene.ts';

// Shoulders at y 20 (x 30 and 70), elbows at y 50, wrists at y 75, hips at y 80.
const g: Geometry = {
  ys: 20, yh: 80, yk: 130, ya: 180, cx: 50, thigh: 50, shin: 50, t: 60, sw: 40,
  arms: [[{ x: 70, y: 20 }, { x: 75, y: 50 }], [{ x: 75, y: 50 }, { x: 76, y: 75 }], [{ x: 30, y: 20 }, { x: 25, y: 50 }], [{ x: 25, y: 50 }, { x: 24, y: 75 }]],
  legs: [],
};
const at = (x: number, y: number) => ({ lab: [50, 0, 0] as [number, number, number], x, y, n: 10, x0: x - 1, y0: y - 1, x1: x + 1, y1: y + 1 });
// 0, 1: torso centre; 2, 3: torso sides; 4, 5: near the elbows.
const scene = { regions: [at(50, 40), at(50, 60), at(36, 50), at(64, 50), at(25, 48), at(75, 48)] } as unknown as Scene;

describe('layerShape', () => {
  it('takes an outer colour over the torso sides and the elbows as a coat', () => {
    expect(layerShape(scene, [0, 1], [2, 3, 4, 5], g)).toBe('coat');
  });
  it('takes one over the torso sides whose elbows show the inner colour as a vest', () => {
    expect(layerShape(scene, [0, 1, 4, 5], [2, 3], g)).toBe('vest');
  });
  it('takes an outer colour only on the arms as no layer', () => {
    expect(layerShape(scene, [0, 1, 2, 3], [4, 5], g)).toBe('none');
  });
});

describe('shadedDistance', () => {
  it('forgives sun and shade on a coloured fabric (khaki in sun and shadow)', () => {
    expect(shadedDistance([73, 3.2, 15.4], [32, 2.9, 17.4])).toBeLessThan(14);
  });
  it('keeps lightness for neutral colours (a black skirt over grey tights)', () => {
    expect(shadedDistance([15, 0.5, -1], [40, 0.5, -1])).toBeGreaterThan(14);
  });
  it('keeps chroma differences (khaki against bare skin)', () => {
    expect(shadedDistance([70, 3, 15], [70, 16, 14])).toBeGreaterThan(10);
  });
});
