/** surroundings on drawn lower bodies: a skirt over bare legs against trousers down to the shoes. */
import { describe, expect, it } from 'vitest';
import { bodyFrame } from './body-frame.ts';
import { legShape } from './legs.ts';
import { buildScene, L } from './scene.ts';
import { SURROUNDING_FEATURES, surroundings } from './surroundings.ts';

const W = 200, H = 400;
const NAVY = [30, 40, 90], SKIN = [225, 180, 150], GREY = [150, 150, 150];
// Shoulders y 100, hips y 200 (x 85 / 115), knees y 290, ankles y 380 (as legs.test.ts).
const points = [
  ['Shoulder', 100, 70, 130], ['Hip', 200, 85, 115], ['Knee', 290, 82, 118], ['Ankle', 380, 80, 120],
].flatMap(([n, y, r, l]) => [{ name: `left${n}`, x: l as number, y: y as number, score: 0.9 }, { name: `right${n}`, x: r as number, y: y as number, score: 0.9 }]);

/** The surroundings of the region at (x, y), its piece being every navy region. */
function at(paint: (x: number, y: number) => number[] | null, x: number, y: number) {
  const rgb = new Uint8Array(W * H * 3), matte = new Uint8Array(W * H);
  for (let yy = 0; yy < H; yy++) for (let xx = 0; xx < W; xx++) {
    const c = paint(xx, yy);
    rgb.set(c ?? GREY, (yy * W + xx) * 3);
    matte[yy * W + xx] = c ? 255 : 0;
  }
  const s = buildScene(rgb, 3, W, H, matte);
  const fg = Uint8Array.from(s.alpha, (a) => (a >= 0.5 ? 1 : 0));
  const navy = new Uint8Array(s.regions.length);
  for (let r = 0; r < s.regions.length; r++) {
    const c = paint(Math.round(s.regions[r].x), Math.round(s.regions[r].y));
    if (fg[r] && c === SKIN) s.label[r] = L.skin;
    if (fg[r] && c === NAVY) navy[r] = 1;
  }
  const members = [...navy.keys()].filter((r) => navy[r]);
  const piece = { y0: Math.min(...members.map((r) => s.regions[r].y0)), y1: Math.max(...members.map((r) => s.regions[r].y1)) };
  const frame = bodyFrame(points)!;
  const out: number[] = [];
  surroundings(s, fg, frame, legShape(s, fg, frame, null), { x: 0, y: 1 }, s.sp[y * W + x], piece, (q) => navy[q] === 1, (v) => out.push(v));
  expect(out).toHaveLength(SURROUNDING_FEATURES.length);
  return (name: string) => out[SURROUNDING_FEATURES.indexOf(name)];
}

const leg = (x: number, y: number) => (y >= 200 ? Math.min(Math.abs(x - 83), Math.abs(x - 117)) < 8 : false);

describe('surroundings', () => {
  it('reads trousers as parting legs reaching the feet, no skin below', () => {
    const get = at((x, y) => (y >= 180 && y < 215 && x >= 68 && x < 132) || (y < 385 && leg(x, y)) ? NAVY : null, 83, 300);
    expect(get('rowRuns')).toBe(2);
    expect(get('rowShare')).toBe(1);
    expect(get('pieceBottomT')).toBeGreaterThan(1.9);
    expect(get('skinBelowGap')).toBe(-999);
  });

  it('reads a skirt as one run across the lower body ending above the knees, bare legs below it', () => {
    const skirt = (x: number, y: number) => y >= 180 && y < 270 && Math.abs(x - 100) < 32 + (y - 180) * 0.1;
    const get = at((x, y) => (skirt(x, y) ? NAVY : y >= 270 && y < 385 && leg(x, y) ? SKIN : null), 86, 240);
    expect(get('rowRuns')).toBe(1);
    expect(get('rowShare')).toBeGreaterThan(0.9);
    expect(get('pieceBottomT')).toBeGreaterThan(0.6);
    expect(get('pieceBottomT')).toBeLessThan(0.9);
    expect(get('skinBelow')).toBeGreaterThan(0.9);
    expect(get('skinBelowGap')).toBeLessThan(0.1);
    expect(get('downSkin')).toBe(0);
  });
});
