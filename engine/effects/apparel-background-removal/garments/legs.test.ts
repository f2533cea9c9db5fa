/** legShape on drawn people: trousers part into two legs below the crotch; a skirt spans the gap down to its hem. */
import { describe, expect, it } from 'vitest';
import { bodyFrame } from './body-frame.ts';
import { LEG_PHOTO_FEATURES, legShape } from './legs.ts';
import { buildScene, L } from './scene.ts';

const W = 200, H = 400;
const NAVY = [30, 40, 90], SKIN = [225, 180, 150], GREY = [150, 150, 150];
// Shoulders y 100, hips y 200 (x 85 / 115), knees y 290, ankles y 380.
const points = [
  ['Shoulder', 100, 70, 130], ['Hip', 200, 85, 115], ['Knee', 290, 82, 118], ['Ankle', 380, 80, 120],
].flatMap(([n, y, r, l]) => [{ name: `left${n}`, x: l as number, y: y as number, score: 0.9 }, { name: `right${n}`, x: r as number, y: y as number, score: 0.9 }]);

/** The legs' readings of a drawn lower body: `paint` gives each pixel's colour, or null for the backdrop. */
function readings(paint: (x: number, y: number) => number[] | null) {
  const rgb = new Uint8Array(W * H * 3), matte = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const c = paint(x, y);
    rgb.set(c ?? GREY, (y * W + x) * 3);
    matte[y * W + x] = c ? 255 : 0;
  }
  const s = buildScene(rgb, 3, W, H, matte);
  const fg = Uint8Array.from(s.alpha, (a) => (a >= 0.5 ? 1 : 0));
  // The rules' skin: regions of the skin colour.
  const skinAt = s.sp[370 * W + 85];
  for (let r = 0; r < s.regions.length; r++) if (fg[r] && Math.abs(s.regions[r].lab[0] - s.regions[skinAt].lab[0]) < 3 && paint(s.regions[r].x, s.regions[r].y) === SKIN) s.label[r] = L.skin;
  const thigh = s.regions[s.sp[240 * W + 84]].lab;
  const shape = legShape(s, fg, bodyFrame(points)!, thigh);
  return { shape, get: (name: string) => shape.photo[LEG_PHOTO_FEATURES.indexOf(name)] };
}

const leg = (x: number, y: number) => (y >= 200 ? Math.min(Math.abs(x - 83), Math.abs(x - 117)) < 8 : false);

describe('legShape', () => {
  it('reads trousers as two legs parting below the crotch, cloth down to the ankles', () => {
    const { get, shape } = readings((x, y) => (y >= 180 && y < 215 && x >= 68 && x < 132) || (y < 385 && leg(x, y)) ? NAVY : null);
    expect(get('thighRuns')).toBe(2);
    expect(get('kneeRuns')).toBe(2);
    expect(get('gapCloth0.8')).toBe(0);
    expect(get('gapMatte0.8')).toBeLessThan(0.2);
    expect(get('hemT')).toBeGreaterThan(2);
    expect(get('gapHemT')).toBeLessThan(0.5);
    // A point between the legs at knee height lies midway across the gap; one on a leg line, on it.
    expect(shape.place({ x: 100, y: 290 }).gap).toBeCloseTo(0, 5);
    expect(shape.place({ x: 118, y: 290 }).gap).toBeCloseTo(1, 5);
    expect(shape.place({ x: 100, y: 290 }).t).toBeCloseTo(1, 5);
  });

  it('reads a skirt as one run spanning the gap down to its hem, bare legs below', () => {
    const skirt = (x: number, y: number) => y >= 180 && y < 305 && Math.abs(x - 100) < 32 + (y - 180) * 0.1;
    const { get } = readings((x, y) => (skirt(x, y) ? NAVY : y >= 305 && y < 385 && leg(x, y) ? SKIN : null));
    expect(get('thighRuns')).toBe(1);
    expect(get('kneeRuns')).toBe(1);
    expect(get('gapCloth0.8')).toBe(1);
    expect(get('gapHemT')).toBeGreaterThan(1);
    expect(get('gapHemT')).toBeLessThan(1.5);
    expect(get('hemT')).toBeLessThan(1.5);
    expect(get('legSkin1.4')).toBeGreaterThan(0.5);
  });
});
