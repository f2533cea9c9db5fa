/**
 * The learned garment parse: the committed model loads and fits the features, its seeds' probabilities averaged; on a drawn person it names
 * the shirt an upper garment and the trousers a lower one; a drawn cup the detector names is no garment,
 * while the same shape with nothing detected is a garment alone.
 */
import { describe, expect, it } from 'vitest';
import { FEATURES } from './apparel-features.ts';
import { predictProba } from './boosted-trees.ts';
import type { BodyPoint, DetectedObject } from './human-run.ts';
import { apparelModel, averageProba, CONTEXT_STAGE_FEATURES, MODEL_CLASSES, predictRegions, readApparelModel, voteLower } from './learned.ts';
import { predictMlp, type Mlp } from './mlp.ts';
import { parseGarments } from './parse.ts';
import type { ParseInput } from './rules.ts';
import { L } from './scene.ts';
import { HEAD_CLASSES, type HeadParsing } from './head-parsing.ts';

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

/**
 * Face at the top (skin) under a dark crown (y 8 to 32, `crown`), red shirt from the shoulders (y 95) to the hips
 * (y 215), blue trousers to the ankles (y 370), black shoes below; arms in the shirt's colour down the sides.
 */
function drawnPerson(withCrown = true) {
  const crown = (x: number, y: number) => withCrown && y >= 8 && y < 32 && (x - 100) ** 2 / 30 ** 2 + (y - 32) ** 2 / 24 ** 2 <= 1;
  const pt = (name: string, x: number, y: number): BodyPoint => ({ name, x, y, score: 0.9 });
  const points = [
    pt('leftShoulder', 135, 95), pt('rightShoulder', 65, 95), pt('leftElbow', 145, 155), pt('rightElbow', 55, 155),
    pt('leftWrist', 148, 205), pt('rightWrist', 52, 205), pt('leftHip', 120, 215), pt('rightHip', 80, 215),
    pt('leftKnee', 120, 295), pt('rightKnee', 80, 295), pt('leftAnkle', 120, 370), pt('rightAnkle', 80, 370),
  ];
  const paint = (x: number, y: number) => {
    if (crown(x, y)) return [35, 30, 30];
    if ((x - 100) ** 2 / 22 ** 2 + (y - 50) ** 2 / 30 ** 2 <= 1) return [225, 180, 150];
    if (y >= 80 && y < 90 && Math.abs(x - 100) < 10) return [225, 180, 150];
    if (y >= 90 && y < 215 && x >= 45 && x < 155) return [200, 30, 40];
    if (y >= 215 && y < 370 && ((x >= 68 && x < 98) || (x >= 102 && x < 132))) return [40, 60, 140];
    if (y >= 215 && y < 240 && x >= 68 && x < 132) return [40, 60, 140];
    if (y >= 370 && y < 390 && ((x >= 62 && x < 98) || (x >= 102 && x < 138))) return [20, 20, 20];
    return null;
  };
  const input = scene(paint, { points, faces: [{ box: { x0: 78, y0: 20, w: 44, h: 60 }, score: 0.95, rotation: 0 }] });
  return { input, crown };
}

describe('learned garment parse', () => {
  it('loads the committed model, each stage made for its features and these classes', () => {
    const { regions, seeds, context, mlp } = apparelModel();
    for (const m of [regions, ...(seeds ?? []), ...(mlp ? [mlp.net] : [])]) expect(m.features).toEqual([...FEATURES]);
    if (context) expect(context.features).toEqual([...CONTEXT_STAGE_FEATURES]);
    for (const m of [regions, ...(seeds ?? []), ...(context ? [context] : [])]) {
      expect(m.classes).toEqual([...MODEL_CLASSES]);
      expect(m.trees.length).toBeGreaterThan(10);
      const p = predictProba(m, new Float32Array(m.features.length), 1);
      expect(p.reduce((t, v) => t + v, 0)).toBeCloseTo(1, 5);
    }
  });

  it('names a drawn person\'s shirt an upper garment and trousers a lower one, the face none', () => {
    const { input } = drawnPerson(false);
    const { labels, person } = parseGarments(input);
    expect(person).toBe(true);
    const at = (x: number, y: number) => labels[y * W + x];
    expect([L.tops, L.coat]).toContain(at(100, 150));
    expect([L.pants, L.skirt]).toContain(at(85, 280));
    expect(garments.has(at(100, 50))).toBe(false);
    expect(garments.has(at(10, 10))).toBe(false);
  });

  it('names a dark crown a hat where the face parser sees a hat there, and not where it sees hair', () => {
    // The drawn person of the test above with a dark crown over the face; the face parser's planes say
    // hat on the crown in one photo and hair in the other (head-parsing.ts).
    const { input, crown } = drawnPerson();
    const heads = (cls: 'hat' | 'hair'): HeadParsing => {
      const n = W * H, planes = Object.fromEntries(HEAD_CLASSES.map((c) => [c, new Uint8Array(n)])) as HeadParsing['planes'];
      const covered = new Uint8Array(n);
      for (let y = 0; y < 110; y++) for (let x = 40; x < 160; x++) {
        const i = y * W + x;
        covered[i] = 1;
        if (crown(x, y)) planes[cls][i] = 250;
        else if ((x - 100) ** 2 / 22 ** 2 + (y - 50) ** 2 / 30 ** 2 <= 1) planes.skin[i] = 250;
        else if (y >= 90) planes.cloth[i] = 250;
        else planes.background[i] = 250;
      }
      return { width: W, height: H, planes, covered };
    };
    const hatAt = (cls: 'hat' | 'hair') => {
      const { labels } = parseGarments({ ...input, heads: heads(cls) });
      let hat = 0, all = 0;
      for (let y = 0; y < 40; y++) for (let x = 60; x < 140; x++) if (crown(x, y)) { all++; if (labels[y * W + x] === L.hat) hat++; }
      return hat / all;
    };
    expect(hatAt('hat')).toBeGreaterThan(0.5);
    expect(hatAt('hair')).toBeLessThan(0.2);
  });

  it('averages the class probabilities of the seeds\' trees', () => {
    const { regions } = apparelModel();
    const K = MODEL_CLASSES.length;
    // Two one-round models over the same features: all weight on class 1, then on class 2.
    const leaning = (k: number) => ({ ...regions, trees: [], base: MODEL_CLASSES.map((_, c) => (c === k ? 5 : 0)) });
    const rows = new Float32Array(regions.features.length);
    const one = predictProba(leaning(1), rows, 1), two = predictProba(leaning(2), rows, 1);
    const both = averageProba([leaning(1), leaning(2)], rows, 1);
    for (let k = 0; k < K; k++) expect(both[k]).toBeCloseTo((one[k] + two[k]) / 2, 6);
    expect(averageProba([leaning(1)], rows, 1)).toEqual(one);
  });

  it('mixes a perceptron\'s probabilities with the trees\' as a weighted geometric mean, and refuses one of other features or mix', () => {
    const model = apparelModel(), K = MODEL_CLASSES.length, F = FEATURES.length;
    // A perceptron whose inputs all read 0 (scale 0) and whose bias leans on class 2.
    const net: Mlp = {
      features: [...FEATURES], classes: [...MODEL_CLASSES], activation: 'relu', lo: Array(F).fill(0), hi: Array(F).fill(0), mean: Array(F).fill(0), scale: Array(F).fill(0), missing: [],
      layers: [{ inputs: F, outputs: K, weights: Array(F * K).fill(0), bias: MODEL_CLASSES.map((_, k) => (k === 2 ? 3 : 0)) }],
    };
    const rows = new Float32Array(F), trees = predictRegions({ ...model, mlp: null }, rows, 1, [[]]), q = predictMlp(net, rows, 1);
    const at = (mix: number) => predictRegions(readApparelModel({ ...model, mlp: { net, mix } }), rows, 1, [[]]);
    for (let k = 0; k < K; k++) { expect(at(0)[k]).toBeCloseTo(trees[k], 6); expect(at(1)[k]).toBeCloseTo(q[k], 6); }
    const half = at(0.5), geo = Array.from(trees, (v, k) => Math.sqrt(v * q[k])), total = geo.reduce((t, v) => t + v, 0);
    for (let k = 0; k < K; k++) expect(half[k]).toBeCloseTo(geo[k] / total, 6);
    expect(half[2]).toBeGreaterThan(trees[2]);
    expect(() => readApparelModel({ ...model, mlp: { net, mix: 1.5 } })).toThrow(/mix/);
    expect(() => readApparelModel({ ...model, mlp: { net: { ...net, classes: [...MODEL_CLASSES].reverse() }, mix: 0.2 } })).toThrow(/other features or classes/);
  });

  it('votes a connected lower garment skirt or trousers as a whole, by area-weighted probabilities; a separate piece keeps its own', () => {
    // Regions 0-1-2 touch in a chain (a skirt's top read as skirt, its lower half as trousers); 3 stands alone.
    const K = MODEL_CLASSES.length, F = FEATURES.length, S = MODEL_CLASSES.indexOf('skirt'), P = MODEL_CLASSES.indexOf('pants');
    const rows = new Float32Array(4 * F), p = new Float32Array(4 * K);
    const set = (i: number, area: number, skirt: number, pants: number) => { rows[i * F + FEATURES.indexOf('area')] = area; p[i * K + S] = skirt; p[i * K + P] = pants; };
    set(0, 3, 0.9, 0.1); set(1, 1, 0.4, 0.6); set(2, 1, 0.3, 0.7); set(3, 1, 0.2, 0.8);
    const cls = Uint8Array.from([S, P, P, P]);
    voteLower(cls, p, rows, [[1], [0, 2], [1], []]);
    expect([...cls]).toEqual([S, S, S, P]);
    set(0, 0.5, 0.9, 0.1);
    const again = Uint8Array.from([S, P, P, P]);
    voteLower(again, p, rows, [[1], [0, 2], [1], []]);
    expect([...again]).toEqual([P, P, P, P]);
  });

  const cup = (x: number, y: number) => ((x - 100) ** 2 / 70 ** 2 + (y - 220) ** 2 / 90 ** 2 <= 1 ? [120, 70, 40] : null);
  const cupBox: DetectedObject = { label: 'cup', score: 0.56, box: { x0: 25, y0: 125, w: 150, h: 190 } };

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
