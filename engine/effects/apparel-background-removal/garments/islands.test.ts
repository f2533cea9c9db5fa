/** clothedIslands on a drawn scene: skin-coloured pieces enclosed by clothing go back to the clothing. */
import { describe, expect, it } from 'vitest';
import type { BodyFrame } from './body-frame.ts';
import { clothedIslands } from './rules.ts';
import { buildScene, L } from './scene.ts';

const W = 120, H = 120;
const far = { x: -1000, y: -1000 };
const frame: BodyFrame = {
  shoulders: [far, far], hips: [far, far], knees: [far, far], ankles: [far, far], elbows: [far, far], wrists: [far, far],
  torso: 60, shoulderWidth: 40, legsSeen: 0, hipsSeen: false, anklesSeen: false,
};

/** Navy clothing over x 20..100 (background elsewhere), with two beige squares: one inside, one on the edge. */
function scene() {
  const rgb = new Uint8Array(W * H * 3), matte = new Uint8Array(W * H);
  const inside = (x: number, y: number) => x >= 50 && x < 70 && y >= 50 && y < 70;
  const edge = (x: number, y: number) => x >= 90 && x < 110 && y >= 10 && y < 30;
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const i = y * W + x;
    matte[i] = (x >= 20 && x < 100) || edge(x, y) ? 255 : 0;
    rgb.set(inside(x, y) || edge(x, y) ? [200, 160, 130] : matte[i] ? [20, 30, 80] : [120, 200, 120], i * 3);
  }
  const s = buildScene(rgb, 3, W, H, matte);
  const fg = new Uint8Array(s.regions.length);
  for (let r = 0; r < fg.length; r++) fg[r] = s.alpha[r] >= 0.5 ? 1 : 0;
  for (let r = 0; r < fg.length; r++) if (fg[r] && s.regions[r].lab[0] > 60) s.label[r] = L.skin;
  return { s, fg };
}

describe('clothedIslands', () => {
  it('gives an enclosed skin-coloured piece back to the clothing and keeps skin that meets the background', () => {
    const { s, fg } = scene();
    clothedIslands(s, fg, frame);
    expect(s.label[s.sp[60 * W + 60]]).toBe(L.background);
    expect(s.label[s.sp[20 * W + 100]]).toBe(L.skin);
  });
  it('keeps an enclosed piece on a forearm (a bare arm across the body)', () => {
    const { s, fg } = scene();
    clothedIslands(s, fg, { ...frame, elbows: [{ x: 60, y: 45 }, far], wrists: [{ x: 60, y: 75 }, far] });
    expect(s.label[s.sp[60 * W + 60]]).toBe(L.skin);
  });
});
