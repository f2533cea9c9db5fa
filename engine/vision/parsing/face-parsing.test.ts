import { fixture } from '../../test/helpers.ts';
import { fixtureRaster } from '../../test/photos.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Mask } from '../../image/mask.ts';
import type { RasterImage } from '../../image/raster.ts';
import { ModelRegistry } from '../models/registry.ts';
import { WorkerPool } from '../../workers/pool.ts';
import type { HumanLike } from '../models/human.ts';
import { detectFaces, type Face } from '../faces/detect.ts';
import { faceRegions } from '../regions/face-regions.ts';
import { classMask, parseFace, parseFaceAt, parsingRoi, PARSING_CLASSES, sampleParsing, softmaxGrid, type FaceParser, type FaceParsing, type ParsingClass } from './face-parsing.ts';
import { STRIDE } from '../models/bisenet.ts';
import { combineWithMesh } from '../regions/combine.ts';



const on = (m: Mask, i: number) => m.data[i] >= 128;
const count = (m: Mask) => m.data.reduce((s, v) => s + (v >= 128 ? 1 : 0), 0);
const inter = (a: Mask, b: Mask) => { let k = 0; for (let i = 0; i < a.data.length; i++) if (on(a, i) && on(b, i)) k++; return k; };
const iou = (a: Mask, b: Mask) => { const i = inter(a, b); return i / (count(a) + count(b) - i); };
const union = (a: Mask, b: Mask): Mask => ({ ...a, data: a.data.map((v, i) => Math.max(v, b.data[i])) });
const centroid = (m: Mask) => {
  let n = 0, sx = 0, sy = 0;
  for (let i = 0; i < m.data.length; i++) if (on(m, i)) { n++; sx += i % m.width; sy += Math.floor(i / m.width); }
  return { x: sx / n, y: sy / n };
};

let models: ModelRegistry;
let human: HumanLike;
let parser: FaceParser;

beforeAll(async () => {
  models = new ModelRegistry();
  human = await models.get<HumanLike>('human');
  parser = await models.get<FaceParser>('bisenet-face-parsing');
});

describe('parseFace on a frontal portrait', () => {
  let image: RasterImage, face: Face, parsing: FaceParsing, regions: ReturnType<typeof faceRegions>;
  const cls = (...names: ParsingClass[]) => classMask(parsing, names, image);

  beforeAll(async () => {
    image = await fixtureRaster('obama_official_portrait.jpg');
    [face] = await detectFaces(human, image);
    parsing = await parseFace(parser, image, face);
    regions = faceRegions(face, image, image);
  });

  it('parses at a smaller input and brings only the classes asked for (a side with its partner)', async () => {
    const small = await parseFace(parser, image, face, { input: 384, classes: ['skin', 'rightEar'] });
    expect(Object.keys(small.classes).sort()).toEqual(Object.keys(parsing.classes).filter((k) => ['skin', 'rightEar', 'leftEar'].includes(k)).sort());
    const oval = regions.faceOval!;
    expect(inter(classMask(small, 'skin', image), oval) / count(oval)).toBeGreaterThan(0.65);
  });

  it('brings a merged group as one sum under its first class, equal to the sum of its classes', async () => {
    const opts = { input: 320, classes: ['skin', 'nose', 'neck', 'rightEar', 'leftEar', 'hair'] as ParsingClass[] };
    const each = await parseFace(parser, image, face, opts);
    const merged = await parseFace(parser, image, face, { ...opts, merge: [['skin', 'nose'], ['neck', 'rightEar', 'leftEar']] });
    expect(Object.keys(merged.classes).sort()).toEqual(['hair', 'neck', 'skin']);
    const sum = (p: FaceParsing, names: ParsingClass[]) => classMask(p, names, image).data;
    for (const [group, first] of [[['skin', 'nose'], 'skin'], [['neck', 'rightEar', 'leftEar'], 'neck']] as [ParsingClass[], ParsingClass][]) {
      const a = sum(each, group), b = sum(merged, [first]);
      let far = 0, mean = 0, n = 0;
      for (let i = 0; i < a.length; i++) { if (!a[i] && !b[i]) continue; const d = Math.abs(a[i] - b[i]); if (d > 3) far++; mean += d; n++; }
      // The same sum but for each class's own 8-bit rounding and clipping (a class's filter overshooting
      // below 0 at an edge is clipped alone, not against its neighbour's overshoot above).
      expect(n).toBeGreaterThan(1000);
      expect(mean / n).toBeLessThan(0.5);
      expect(far / n).toBeLessThan(0.005);
    }
    expect(merged.classes.hair).toEqual(each.classes.hair);
  });

  it('gives exactly the full parsing\'s values at a lattice\'s points, 0 outside its window', async () => {
    // Every 3rd column and 5th row, starting left of the window and running past the image's right edge.
    const { win } = parsing;
    const cols = Int32Array.from({ length: Math.ceil((image.width + 20 - (win.x0 - 7)) / 3) }, (_, i) => win.x0 - 7 + 3 * i);
    const rows = Int32Array.from({ length: Math.ceil(win.h / 5) + 2 }, (_, i) => win.y0 - 5 + 5 * i);
    const at = { cols, rows };
    const sampled = await parseFaceAt(parser, image, face, at);
    const full = sampleParsing(parsing, at);
    expect(Object.keys(sampled.classes).sort()).toEqual(Object.keys(parsing.classes).sort());
    for (const [name, plane] of Object.entries(full.classes)) expect(sampled.classes[name as ParsingClass], name).toEqual(plane);
    expect(sampled.classes.skin!.some((v) => v > 200)).toBe(true);
    expect(full.classes.skin![0]).toBe(0);
  });

  it('runs on the tfjs Human runs on', () => {
    const core = (t: unknown) => (t as { engine(): unknown }).engine();
    expect(core(parser.tf)).toBe(core(human.tf));
  });

  it('finds skin over most of the mesh face oval, and the face classes over nearly all of it', () => {
    const oval = regions.faceOval!;
    expect(inter(cls('skin'), oval) / count(oval)).toBeGreaterThan(0.65); // measured 0.79
    const facial = cls('skin', 'nose', 'leftEye', 'rightEye', 'leftBrow', 'rightBrow', 'upperLip', 'lowerLip', 'mouth');
    expect(inter(facial, oval) / count(oval)).toBeGreaterThan(0.93); // measured 0.98
  });

  it('puts the parts where the mesh has them (the class order)', () => {
    expect(iou(cls('upperLip', 'lowerLip'), union(regions.upperLip!, regions.lowerLip!))).toBeGreaterThan(0.4); // measured 0.53
    expect(inter(cls('nose'), regions.nose!) / count(cls('nose'))).toBeGreaterThan(0.8); // measured 0.93
    expect(iou(cls('rightEye'), regions.rightEye!)).toBeGreaterThan(0.3); // measured 0.48
    expect(iou(cls('leftEye'), regions.leftEye!)).toBeGreaterThan(0.3);
    expect(inter(cls('rightEye'), regions.leftEye!)).toBe(0);
    // The subject's right brow and ear are on the image's left.
    expect(centroid(cls('rightBrow')).x).toBeLessThan(face.mesh![168][0]);
    expect(centroid(cls('leftEar')).x).toBeGreaterThan(face.mesh![454][0]);
    // Top to bottom: hair, brows, eyes, nose, mouth, neck, cloth.
    const y = (...n: ParsingClass[]) => centroid(cls(...n)).y;
    const order = [y('hair'), y('leftBrow'), y('leftEye'), y('nose'), y('upperLip', 'lowerLip'), y('neck'), y('cloth')];
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('finds hair mostly above the forehead and not on the face', () => {
    const hair = cls('hair');
    const top = face.mesh![10][1];
    let above = 0;
    for (let i = 0; i < hair.data.length; i++) if (on(hair, i) && Math.floor(i / image.width) < top) above++;
    expect(count(hair)).toBeGreaterThan(0.15 * count(regions.faceOval!));
    expect(above / count(hair)).toBeGreaterThan(0.6); // measured 0.74 (the rest: the temples)
    expect(inter(hair, regions.skin!)).toBeLessThan(0.01 * count(regions.skin!));
  });

  it('finds no hat and no glasses on a face without them', () => {
    expect(count(cls('hat'))).toBe(0);
    expect(count(cls('glasses'))).toBe(0);
  });

  it('gives probabilities: the classes add up to about 1 inside the crop', () => {
    const { win } = parsing;
    const planes = PARSING_CLASSES.map((n) => parsing.classes[n]).filter((p): p is Uint8Array => !!p);
    // The crop's centre (the eyes) and a point well inside it.
    for (const [x, y] of [[parsing.roi.cx, parsing.roi.cy], [parsing.roi.cx - parsing.roi.size / 4, parsing.roi.cy + parsing.roi.size / 4]]) {
      const i = (Math.round(y) - win.y0) * win.w + Math.round(x) - win.x0;
      const sum = planes.reduce((s, p) => s + p[i], 0);
      expect(sum).toBeGreaterThan(235);
      expect(sum).toBeLessThan(275);
    }
  });

  it('runs the same inside an engine worker thread, with the registry that worker builds', async () => {
    const probe = new URL('../../test/effects/parsing-probe.ts', import.meta.url).href;
    const pool = new WorkerPool({ effects: { 'parsing-probe': probe }, threads: 1 }, 1, 2);
    try {
      const bytes = fixture('obama_official_portrait.jpg');
      const out = await pool.run('parsing-probe', { image: { bytes, format: 'jpeg', maxPixels: 50e6 } }, {}, 120_000);
      const { win, mass } = out.data as { win: FaceParsing['win']; mass: Record<string, number> };
      expect(win).toEqual(parsing.win);
      for (const name of ['skin', 'hair', 'nose'] as const) {
        expect(Math.abs(mass[name] - count(cls(name))), name).toBeLessThan(0.01 * count(cls(name)));
      }
    } finally {
      await pool.close();
    }
  });

  it('leaves no tensor behind', async () => {
    const before = human.tf.memory().numTensors;
    for (let i = 0; i < 3; i++) await parseFace(parser, image, face);
    expect(human.tf.memory().numTensors).toBe(before);
  });
});

describe('parseFace on a turned photo', () => {
  it('gives the upright parsing turned (astronaut, and the same photo turned 90 degrees clockwise)', async () => {
    const upright = await fixtureRaster('astronaut_eileen_collins.png');
    const turned = await fixtureRaster('astronaut_rot90cw.png');
    const [a] = await detectFaces(human, upright);
    const [b] = await detectFaces(human, turned, { searchRotations: true });
    expect(b.rotation).toBe(90);
    // The crop follows the face: its angle differs by a quarter turn, its size hardly.
    const ra = parsingRoi(a), rb = parsingRoi(b);
    expect(Math.abs(Math.cos(rb.angle - ra.angle - Math.PI / 2))).toBeGreaterThan(0.99);
    expect(Math.abs(rb.size / ra.size - 1)).toBeLessThan(0.05);
    const pa = await parseFace(parser, upright, a), pb = await parseFace(parser, turned, b);
    // Upright (x, y) is turned (H - 1 - y, x).
    const turn = (m: Mask): Mask => {
      const data = new Uint8Array(m.data.length);
      for (let y = 0; y < m.height; y++) for (let x = 0; x < m.width; x++) data[x * m.height + (m.height - 1 - y)] = m.data[y * m.width + x];
      return { data, width: m.height, height: m.width };
    };
    for (const name of ['skin', 'hair', 'nose', 'neck'] as const) {
      expect(iou(turn(classMask(pa, name, upright)), classMask(pb, name, turned)), name).toBeGreaterThan(0.85);
    }
  });
});

describe('combineWithMesh', () => {
  it('takes the hair over the forehead out of the mesh forehead (astronaut: a fringe)', async () => {
    const image = await fixtureRaster('astronaut_eileen_collins.png');
    const [face] = await detectFaces(human, image);
    const parsing = await parseFace(parser, image, face);
    const parts = combineWithMesh(parsing, face, image);
    const meshForehead = faceRegions(face, image, image, ['forehead']).forehead!;
    const hair = classMask(parsing, 'hair', image);
    expect(inter(meshForehead, hair) / count(meshForehead)).toBeGreaterThan(0.5); // measured 0.72: the fringe
    expect(inter(parts.forehead!, hair)).toBe(0);
    expect(count(parts.forehead!)).toBeLessThan(0.5 * count(meshForehead));
    expect(inter(parts.foreheadCover!, meshForehead)).toBeGreaterThan(0.5 * count(meshForehead));
    // Skin stays at this face; hair is found; no glasses.
    expect(inter(parts.skin!, classMask(parsing, 'skin', image))).toBeGreaterThan(0.9 * count(parts.skin!));
    expect(count(parts.hair!)).toBeGreaterThan(count(parts.skin!));
    expect(count(parts.glasses!)).toBe(0);
    // Another face right beside this one takes the pixels nearer to it.
    const other: Face = { ...face, box: { ...face.box, x0: face.box.x0 + 0.8 * face.box.w } };
    const shared = combineWithMesh(parsing, face, image, { others: [face, other], names: ['hair'] });
    expect(count(shared.hair!)).toBeLessThan(0.9 * count(parts.hair!)); // measured 0.81
    expect(Object.keys(shared)).toEqual(['hair']);
  });
});

describe('softmaxGrid', () => {
  it('places logit cell k at crop pixel 8k (the graph resize: no align_corners, no half-pixel centres)', () => {
    const out = 64, L = out / STRIDE, C = PARSING_CLASSES.length;
    const logits = new Float32Array(L * L * C);
    // Background everywhere, hair (17) at cell (3, 2) only (not saturating, so its peak is one pixel).
    for (let i = 0; i < L * L; i++) logits[i * C] = 5;
    logits[(2 * L + 3) * C + 17] = 8;
    // An upright crop exactly over a 64 x 64 window at the origin: grid pixel = crop pixel.
    const roi = { cx: 32, cy: 32, size: 64, angle: 0 };
    const probs = softmaxGrid(logits, L, out, roi, { x0: 0, y0: 0, w: 64, h: 64 }, 64, 64);
    const hair = probs.subarray(17 * 64 * 64, 18 * 64 * 64);
    let best = 0;
    for (let i = 1; i < hair.length; i++) if (hair[i] > hair[best]) best = i;
    expect([best % 64, Math.floor(best / 64)]).toEqual([3 * STRIDE, 2 * STRIDE]);
    expect(hair[best]).toBeGreaterThan(0.9);
    // Probabilities sum to 1.
    let sum = 0;
    for (let c = 0; c < C; c++) sum += probs[c * 64 * 64 + 100];
    expect(sum).toBeCloseTo(1, 5);
  });

  it('writes the kept classes as without keep, to the bit, and leaves the others 0', () => {
    const out = 64, L = out / STRIDE, C = PARSING_CLASSES.length;
    let seed = 7;
    const logits = Float32Array.from({ length: L * L * C }, () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 24 - 12);
    const roi = { cx: 40, cy: 36, size: 60, angle: 0.3 }, win = { x0: 4, y0: 2, w: 80, h: 72 };
    const keep = PARSING_CLASSES.map((_, c) => c % 3 !== 1);
    const all = softmaxGrid(logits, L, out, roi, win, 50, 45), some = softmaxGrid(logits, L, out, roi, win, 50, 45, keep);
    const N = 50 * 45;
    for (let c = 0; c < C; c++) {
      const a = all.subarray(c * N, (c + 1) * N), b = some.subarray(c * N, (c + 1) * N);
      if (keep[c]) expect(Buffer.from(b.slice().buffer).equals(Buffer.from(a.slice().buffer))).toBe(true);
      else expect(b.every((v) => v === 0)).toBe(true);
    }
    expect(all.some((v) => v > 0.5)).toBe(true);
  });

  it('is zero outside the crop', () => {
    const L = 8, C = PARSING_CLASSES.length;
    const probs = softmaxGrid(new Float32Array(L * L * C), L, 64, { cx: 32, cy: 32, size: 32, angle: 0 }, { x0: 0, y0: 0, w: 64, h: 64 }, 64, 64);
    expect(probs[0]).toBe(0); // (0, 0) lies outside the 32 px square around (32, 32)
    expect(probs[32 * 64 + 32]).toBeCloseTo(1 / C, 5);
  });
});
