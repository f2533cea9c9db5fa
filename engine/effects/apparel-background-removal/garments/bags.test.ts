/** Bag rules on drawn scenes: what a bag's outline encloses is the bag, clothing beside it is not. */
import { describe, expect, it } from 'vitest';
import { bagBoxes, enclosedHoles, hangingBag, looseBags } from './bags.ts';
import type { Geometry } from './body-garments.ts';
import { buildScene, L } from './scene.ts';

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

  // A standing body: shoulders at y 100, hips at 250 (torso 150), centre x 200, shoulders 120 apart.
  const g = { ys: 100, yh: 250, yk: 380, ya: 500, cx: 200, thigh: 130, shin: 120, t: 150, sw: 120, arms: [], legs: [] } as Geometry;
  const box = (x: number, y: number, width: number, height: number) => ({ x0: x, y0: y, w: width, h: height });

  it('takes a faint box for a bag only where one hangs: tall, beside the body, down past the hips', () => {
    expect(hangingBag(box(270, 260, 80, 220), g)).toBe(true); // tote from the hand, beside the leg
    expect(hangingBag(box(270, 60, 80, 420), g)).toBe(true); // shoulder bag, strap and all
    expect(hangingBag(box(275, 230, 40, 60), g)).toBe(false); // a hand
    expect(hangingBag(box(250, 90, 90, 200), g)).toBe(false); // the arm and the body's side, ending at the hips
    expect(hangingBag(box(160, 300, 80, 200), g)).toBe(false); // between the legs
  });

  it('keeps confident bag boxes anywhere, faint ones only hanging and apart from a confident one', () => {
    const o = (label: string, score: number, b: ReturnType<typeof box>) => ({ label, score, box: b });
    const sure = o('handbag', 0.3, box(270, 400, 80, 100));
    const strap = o('handbag', 0.1, box(265, 150, 90, 360)); // the same bag's looser box
    const other = o('handbag', 0.1, box(60, 260, 70, 220)); // a second bag on the other side
    const hand = o('handbag', 0.12, box(275, 230, 40, 60));
    const car = o('car', 0.1, box(60, 260, 70, 220));
    expect(bagBoxes([sure, strap, other, hand, car], g)).toEqual([sure, other]);
    expect(bagBoxes([other], null)).toEqual([]);
  });

  it('finds a bag the matte left out, not a box over plain backdrop', () => {
    // Grey backdrop, a person (red, x 60..100) inside the matte, a navy bag (x 20..60, y 60..110) outside it.
    const rgb = new Uint8Array(W * H * 3), matte = new Uint8Array(W * H);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
      const person = x >= 60 && x < 100, bag = x >= 20 && x < 60 && y >= 60 && y < 110;
      rgb.set(person ? [200, 30, 30] : bag ? [20, 25, 60] : [150, 150, 150], (y * W + x) * 3);
      matte[y * W + x] = person ? 255 : 0;
    }
    const s = buildScene(rgb, 3, W, H, matte);
    const fg = new Uint8Array(s.regions.length).map((_, r) => (s.alpha[r] >= 0.5 ? 1 : 0));
    const at = (x: number, y: number) => s.sp[y * W + x];
    const o = (x: number, y: number, width: number, height: number) => ({ label: 'handbag', score: 0.3, box: { x0: x, y0: y, w: width, h: height } });
    const bag = new Set(looseBags(s, fg, [o(16, 56, 60, 58)]));
    expect(bag.has(at(30, 70))).toBe(true);
    expect(bag.has(at(55, 100))).toBe(true);
    expect(bag.has(at(10, 40))).toBe(false);
    expect(bag.has(at(80, 80))).toBe(false);
    // A box over the backdrop beside the person: its middle is the backdrop's colour.
    expect(looseBags(s, fg, [o(30, 115, 36, 30)])).toEqual([]);
    // A box the matte does not reach: someone else's bag.
    expect(looseBags(s, fg, [o(5, 60, 50, 50)])).toEqual([]);
    expect(s.label[at(30, 70)]).toBe(L.background);
  });
});
