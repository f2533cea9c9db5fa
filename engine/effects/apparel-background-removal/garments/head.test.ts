/** Head rules on drawn scenes: hair-mask regions, nothing but a hat above the chin, the neckline sample of splitUpper. */
import { describe, expect, it } from 'vitest';
import type { Face } from '../../../vision/faces/detect.ts';
import { geometry } from './body-garments.ts';
import { bodyFrame } from './body-frame.ts';
import { labelHead } from './head.ts';
import { splitUpper } from './layers.ts';
import { labelHair } from './rules.ts';
import { buildScene, L, regionShare } from './scene.ts';

const W = 120, H = 160;

/** An RGB image painted by a function of (x, y). */
function paint(f: (x: number, y: number) => [number, number, number]): Uint8Array {
  const rgb = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) rgb.set(f(x, y), (y * W + x) * 3);
  return rgb;
}
const allFg = () => new Uint8Array(W * H).fill(255);
const labelAt = (s: ReturnType<typeof buildScene>, x: number, y: number) => s.label[s.sp[y * W + x]];

describe('garment head rules', () => {
  it('takes regions inside the hair mask out of the clothing, and leaves decided ones alone', () => {
    const s = buildScene(paint((_, y) => (y < 40 ? [40, 30, 20] : [200, 30, 30])), 3, W, H, allFg());
    const hair = new Uint8Array(W * H);
    for (let i = 0; i < W * 40; i++) hair[i] = 255;
    s.label[s.sp[10 * W + 10]] = L.hat;
    labelHair(s, new Uint8Array(s.regions.length).fill(1), hair);
    expect(labelAt(s, 10, 10)).toBe(L.hat);
    expect(labelAt(s, 60, 20)).toBe(L.hair);
    expect(labelAt(s, 60, 100)).toBe(L.background);
  });

  it('leaves nothing but a hat beside the head above the chin (an ear, a hairline rim), and clothing below', () => {
    // A grey backdrop-coloured "ear" patch beside a skin-coloured face, red clothing from y = 70 down.
    const face: Face = { box: { x0: 45, y0: 20, w: 30, h: 36 } } as Face;
    const s = buildScene(paint((x, y) => (y >= 70 ? [200, 30, 30] : x >= 45 && x < 75 && y >= 20 && y < 56 ? [225, 180, 150] : [90, 110, 140])), 3, W, H, allFg());
    labelHead(s, new Uint8Array(s.regions.length).fill(1), [face], null, null);
    expect(labelAt(s, 36, 40)).not.toBe(L.background);
    expect(labelAt(s, 60, 110)).toBe(L.background);
  });

  it('takes the top of the head for hair, not a hat, when it has the colour of the hair hanging below the face', () => {
    // Grey backdrop (all foreground), skin face, dark hair on the crown and hanging beside the face to y = 120.
    const face: Face = { box: { x0: 45, y0: 40, w: 30, h: 36 } } as Face;
    const crown = (x: number, y: number) => x >= 35 && x < 85 && y >= 12 && y < 40;
    const hanging = (x: number, y: number) => ((x >= 20 && x < 33) || (x >= 87 && x < 100)) && y >= 40 && y < 120;
    const scene = (top: [number, number, number]) => buildScene(paint((x, y) => (crown(x, y) ? top : hanging(x, y) ? [30, 25, 20]
      : x >= 45 && x < 75 && y >= 40 && y < 76 ? [225, 180, 150] : [120, 130, 140])), 3, W, H, allFg());
    const hairMask = new Uint8Array(W * H);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) hairMask[y * W + x] = crown(x, y) || hanging(x, y) ? 1 : 0;
    for (const [top, want] of [[[30, 25, 20], L.hair], [[235, 235, 230], L.hat]] as const) {
      const s = scene([...top]);
      labelHead(s, new Uint8Array(s.regions.length).fill(1), [face], null, null, regionShare(s, hairMask));
      expect(labelAt(s, 60, 25)).toBe(want);
    }
  });

  it('reads a jacket over a shirt as a coat from the neckline, even when the jacket closes lower down', () => {
    // Shoulders at y = 30, hips at y = 110; navy jacket with a light shirt V only in the top third.
    const points = [['leftShoulder', 90, 30], ['rightShoulder', 30, 30], ['leftHip', 78, 110], ['rightHip', 42, 110]]
      .map(([name, x, y]) => ({ name: name as string, x: x as number, y: y as number, score: 0.9 }));
    const g = geometry(bodyFrame(points)!);
    const s = buildScene(paint((x, y) => (Math.abs(x - 60) < 14 && y >= 26 && y < 46 ? [225, 235, 245] : [25, 30, 60])), 3, W, H, allFg());
    const upper = [...s.regions.keys()].filter((r) => s.regions[r].y >= 22 && s.regions[r].y < 112 && s.regions[r].x > 10 && s.regions[r].x < 110);
    const { coat, tops } = splitUpper(s, upper, g);
    expect(coat.length).toBeGreaterThan(tops.length);
    expect(tops.length).toBeGreaterThan(0);
    expect(tops.every((r) => Math.abs(s.regions[r].x - 60) < 20)).toBe(true);
  });
});
