/** Bag rules on drawn scenes: what a bag's outline encloses is the bag, clothing beside it is not. */
import { describe, expect, it } from 'vitest';
import { enclosedHoles } from './bags.ts';
import { buildScene } from './scene.ts';

const W = 120, H = 160;

describe('garment bag rules', () => {
  it('fills a buckle inside the bag, but not a patch that meets the clothing beside it', () => {
    // Grey backdrop, brown bag (x 20..60, y 60..110) with a light buckle in the middle, red clothing from
    // x = 60, and a light patch on the bag's edge against the clothing.
    const buckle = (x: number, y: number) => x >= 34 && x < 46 && y >= 78 && y < 92;
    const patch = (x: number, y: number) => x >= 50 && x < 60 && y >= 95 && y < 110;
    const rgb = new Uint8Array(W * H * 3);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
      const c = buckle(x, y) || patch(x, y) ? [240, 230, 200] : x >= 60 && x < 100 ? [200, 30, 30] : x >= 20 && y >= 60 && y < 110 ? [110, 60, 30] : [128, 128, 128];
      rgb.set(c, (y * W + x) * 3);
    }
    const s = buildScene(rgb, 3, W, H, new Uint8Array(W * H).fill(255));
    const at = (x: number, y: number) => s.sp[y * W + x];
    const grey = s.regions[at(5, 5)].lab[0];
    const candidates = new Set([...s.regions.keys()].filter((r) => Math.abs(s.regions[r].lab[0] - grey) > 3 || Math.abs(s.regions[r].lab[1]) > 3));
    const inBox = [...candidates].filter((r) => s.regions[r].x >= 18 && s.regions[r].x <= 62 && s.regions[r].y >= 58 && s.regions[r].y <= 112);
    const brown = s.regions[at(25, 65)].lab;
    const bag = new Set(inBox.filter((r) => Math.abs(s.regions[r].lab[0] - brown[0]) < 5 && Math.abs(s.regions[r].lab[1] - brown[1]) < 5));
    const holes = new Set(enclosedHoles(s, bag, inBox, candidates));
    expect(holes.has(at(40, 85))).toBe(true);
    expect(holes.has(at(55, 102))).toBe(false);
  });
});
