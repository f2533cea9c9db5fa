/**
 * The learned garment parse: the committed model loads and fits the features; on a drawn person it names
 * the shirt an upper garment and the trousers a lower one; a drawn cup the detector names is no garment,
 * while the same shape with nothing detected is a garment alone.
 */
import { describe, expect, it } from 'vitest';
import { FEATURES } from './apparel-features.ts';
import { predictProba } from './boosted-trees.ts';
import type { BodyPoint, DetectedObject } from './human-run.ts';
import { apparelModel, CONTEXT_STAGE_FEATURES, MODEL_CLASSES } from './learned.ts';
import { parseGarments, type ParseInput } from './parse.ts';
import { L } from './scene.ts';

const W = 200, H = 400;
const garments = new Set<number>([L.tops, L.coat, L.skirt, L.pants, L.bag, L.shoes, L.hat]);

/** A drawn scene: grey backdrop, `paint` gives each pixel's colour or null for the backdrop. */
function scene(paint: (x: number, y: number) => number[] | null, extra: Partial<ParseInput> = {}): ParseInput {
  const rgb = new Uint8Array(W * H * 3), matte = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const c = paint(x, y);
    rgb.set(c ?? [150, 150, 150], (y * W + x) * 3);
    matte[y * W + x] = c ? 255 : 0;
  }
  return { rgb, channels: 3, width: W, height: H, matte, faces: [], points: [], objects: [], ...extra };
}

describe('learned garment parse', () => {
  it('loads the committed model, each stage made for its features and these classes', () => {
    const { regions, context } = apparelModel();
    expect(regions.features).toEqual([...FEATURES]);
    if (context) expect(context.features).toEqual([...CONTEXT_STAGE_FEATURES]);
    for (const m of [regions, ...(context ? [context] : [])]) {
      expect(m.classes).toEqual([...MODEL_CLASSES]);
      expect(m.trees.length).toBeGreaterThan(10);
      const p = predictProba(m, new Float32Array(m.features.length), 1);
      expect(p.reduce((t, v) => t + v, 0)).toBeCloseTo(1, 5);
    }
  });

  it('names a drawn person\'s shirt an upper garment and trousers a lower one, the face none', () => {
    // Face at the top (skin), red shirt from the shoulders (y 95) to the hips (y 215), blue trousers to
    // the ankles (y 370), black shoes below; arms in the shirt's colour down the sides.
    const pt = (name: string, x: number, y: number): BodyPoint => ({ name, x, y, score: 0.9 });
    const points = [
      pt('leftShoulder', 135, 95), pt('rightShoulder', 65, 95), pt('leftElbow', 145, 155), pt('rightElbow', 55, 155),
      pt('leftWrist', 148, 205), pt('rightWrist', 52, 205), pt('leftHip', 120, 215), pt('rightHip', 80, 215),
      pt('leftKnee', 120, 295), pt('rightKnee', 80, 295), pt('leftAnkle', 120, 370), pt('rightAnkle', 80, 370),
    ];
    const paint = (x: number, y: number) => {
      if ((x - 100) ** 2 / 22 ** 2 + (y - 50) ** 2 / 30 ** 2 <= 1) return [225, 180, 150];
      if (y >= 80 && y < 90 && Math.abs(x - 100) < 10) return [225, 180, 150];
      if (y >= 90 && y < 215 && x >= 45 && x < 155) return [200, 30, 40];
      if (y >= 215 && y < 370 && ((x >= 68 && x < 98) || (x >= 102 && x < 132))) return [40, 60, 140];
      if (y >= 215 && y < 240 && x >= 68 && x < 132) return [40, 60, 140];
      if (y >= 370 && y < 390 && ((x >= 62 && x < 98) || (x >= 102 && x < 138))) return [20, 20, 20];
      return null;
    };
    const input = scene(paint, { points, faces: [{ box: { x: 78, y: 20, width: 44, height: 60 }, score: 0.95, rotation: 0 }] });
    const { labels, person } = parseGarments(input);
    expect(person).toBe(true);
    const at = (x: number, y: number) => labels[y * W + x];
    expect([L.tops, L.coat]).toContain(at(100, 150));
    expect([L.pants, L.skirt]).toContain(at(85, 280));
    expect(garments.has(at(100, 50))).toBe(false);
    expect(garments.has(at(10, 10))).toBe(false);
  });

  const cup = (x: number, y: number) => ((x - 100) ** 2 / 70 ** 2 + (y - 220) ** 2 / 90 ** 2 <= 1 ? [120, 70, 40] : null);
  const cupBox: DetectedObject = { label: 'cup', score: 0.56, box: { x: 25, y: 125, width: 150, height: 190 } };

  it('a foreground the detector names as a cup holds no garment', () => {
    const { labels, person } = parseGarments(scene(cup, { objects: [cupBox] }));
    expect(person).toBe(false);
    expect(labels.some((l) => garments.has(l))).toBe(false);
  });

  it('the same shape with nothing detected is a garment alone; a faint cup box or a bag box does not change that', () => {
    for (const objects of [[], [{ ...cupBox, score: 0.2 }], [{ ...cupBox, label: 'handbag' }]]) {
      const { labels } = parseGarments(scene(cup, { objects }));
      expect(garments.has(labels[220 * W + 100])).toBe(true);
    }
  });
});
