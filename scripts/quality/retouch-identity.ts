/**
 * What the portrait quality scripts (retouch.ts, beard-removal.ts, beard-styling.ts, hair-loss.ts,
 * square-face.ts, identity-calibration.ts) share: the photos (portraits and landmark photos with a face, from
 * labels.json), their tune/check split (the face-parts split: sha1 of the path,
 * fixed before tuning), and two identity measures, before / after:
 *   engine  Atelier's own face pipeline, the one every effect and face-analyzer ship: faces from the engine's
 *           detector (detectFaces), gender from faceAttributes (FaceRes-deep on the engine's face square, maleAt
 *           0.6), and human's descriptor model (faceres.json, what human's description gives) run on the
 *           engine's face square (mesh ROI, upright, 224 px): the same crop of the same face before and after;
 *   human   human's own whole-photo detect() with its description (faceres: gender with its 'unknown' band,
 *           and the descriptor). Its detector is unsteady on some photos (biden_obama: one face of two on
 *           the original, none after a JPEG 92 re-encode, both at 97), so it is printed beside, not relied on.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  ATTRIBUTE_MODELS, ATTRIBUTE_PIPELINE as PIPELINE, attributeModelInputs, detectFaces, faceAttributes, faceConfig,
  faceRoi, type HumanLike, humanModel, type ModelRegistry, type RasterImage, registryNets, ROI_SCALE, shiftMale,
  type TensorLike
} from '../../engine/for-scripts.ts';
import { half as splitHalf } from '../datasets/face-parts-data.ts';

export const half = (rel: string): 'tune' | 'check' => (splitHalf(rel) === 'fit' ? 'tune' : 'check');

export function retouchPhotos(testdata: string): string[] {
  const labels = JSON.parse(readFileSync(path.join(testdata, 'labels.json'), 'utf8')).files as Record<string, { kind: string; num_faces?: number }>;
  return Object.entries(labels)
    .filter(([, l]) => (l.kind === 'portrait' || l.kind === 'face_landmarks_image') && (l.num_faces ?? 1) > 0)
    .map(([rel]) => rel).sort();
}

export interface Described {
  box: [number, number, number, number];
  /** human's label as its default config gives it: 'unknown' at a confidence of GENDER_CONFIDENCE or less. */
  gender: string;
  /** human's confidence, 2 x |p(male) - 0.5| truncated to 0.01, also where the label is 'unknown'. */
  genderScore: number;
  /** The gender model's p(male), to 0.005 (from the label and its confidence). */
  male: number;
  embedding: number[];
}

/**
 * human's own threshold (description.minConfidence, 0.1): at or below it the label is 'unknown'. The
 * describer asks human with no threshold and applies this one itself, so the label is human's default one
 * and the confidence is there to read even where the label is 'unknown' (how near a coin toss a face is).
 */
export const GENDER_CONFIDENCE = 0.1;

/** Human with faceres loaded: each face's box, gender and descriptor, and the descriptors' similarity. */
export async function faceDescriber(models: ModelRegistry) {
  const human = await models.get<HumanLike>('human');
  const describe = {
    face: { ...faceConfig, detector: { ...faceConfig.detector, rotation: false, maxDetected: 10 }, description: { enabled: true, modelPath: 'faceres.json', minConfidence: 0 }, emotion: { enabled: false } },
    body: { enabled: false }, hand: { enabled: false }, object: { enabled: false }, segmentation: { enabled: false }, gesture: { enabled: false },
  };
  await human.load(describe);
  const similarity = (human as unknown as { match: { similarity(a: number[], b: number[]): number } }).match.similarity;
  async function described(img: RasterImage): Promise<Described[]> {
    const t = human.tf.tensor4d(new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.length), [1, img.height, img.width, img.channels], 'int32');
    try {
      const r = await human.detect(t, describe) as unknown as { face: Described[] };
      return r.face.filter((f) => f.embedding?.length).map((f) => {
        // Below 0.01 of confidence human leaves the label 'unknown' and the score 0 even at threshold 0.
        const male = f.gender === 'male' ? 0.5 + f.genderScore / 2 : f.gender === 'female' ? 0.5 - f.genderScore / 2 : 0.5;
        return { ...f, gender: f.genderScore > GENDER_CONFIDENCE ? f.gender : 'unknown', male };
      });
    } finally { t.dispose(); }
  }
  /**
   * Each face of `a` found again in `b` (box IoU ≥ 0.5): how many, how many of the same gender (and of the
   * others, how many were 'unknown' before: a coin toss settled either way), the least similarity.
   */
  function compare(a: Described[], b: Described[]): Identity {
    let found = 0, gender = 0, fromUnknown = 0, minSim = 1;
    for (const f of a) {
      const g = b.reduce<Described | undefined>((best, x) => (iou(x.box, f.box) > (best ? iou(best.box, f.box) : 0.5) ? x : best), undefined);
      if (!g) continue;
      found++;
      if (g.gender === f.gender) gender++;
      else if (f.gender === 'unknown') fromUnknown++;
      minSim = Math.min(minSim, similarity(f.embedding, g.embedding));
    }
    return { found, total: a.length, gender, fromUnknown, minSim };
  }
  const identity = async (before: RasterImage, after: RasterImage) => compare(await described(before), await described(after));
  return { described, similarity, compare, identity };
}

export interface Identity { found: number; total: number; gender: number; fromUnknown: number; minSim: number }

/**
 * Which face of `after` each face of `before` is (its index, or -1: lost), one to one: pairs are taken in
 * order of box IoU, highest first, each face at most once, none below minIou. Boxes are [x, y, width, height].
 */
export function matchFaces(before: number[][], after: number[][], minIou = 0.5): number[] {
  const pairs: [number, number, number][] = [];
  before.forEach((a, i) => after.forEach((b, j) => { const o = iou(a, b); if (o >= minIou) pairs.push([o, i, j]); }));
  pairs.sort((p, q) => q[0] - p[0]);
  const match = before.map(() => -1), taken = new Set<number>();
  for (const [, i, j] of pairs) if (match[i] < 0 && !taken.has(j)) { match[i] = j; taken.add(j); }
  return match;
}

/** One face as the engine's pipeline sees it. */
export interface EngineDescribed {
  box: [number, number, number, number];
  /** FaceRes-deep's own p(male) (flip-averaged), before the pipeline's maleAt shift. */
  male: number;
  /** The pipeline's answer: male at p(male) ≥ maleAt. */
  gender: 'male' | 'female';
  embedding: number[];
}

/** A face whose gender changed, with p(male) before and after (how near maleAt it was). */
export interface GenderChange { box: [number, number, number, number]; maleBefore: number; maleAfter: number }
export interface EngineIdentity extends Identity { changes: GenderChange[]; sims: number[] }

/**
 * Each face of `a` found again in `b` (matchFaces; unmatched faces are lost), how many of the same gender
 * (each change with its p(male) before and after), and the descriptor similarity of each pair.
 */
export function compareFaces(a: EngineDescribed[], b: EngineDescribed[], similarity: (x: number[], y: number[]) => number): EngineIdentity {
  const match = matchFaces(a.map((f) => f.box), b.map((f) => f.box));
  let found = 0, gender = 0, minSim = 1;
  const changes: GenderChange[] = [], sims: number[] = [];
  a.forEach((f, i) => {
    if (match[i] < 0) return;
    const g = b[match[i]];
    found++;
    if (g.gender === f.gender) gender++;
    else changes.push({ box: f.box, maleBefore: f.male, maleAfter: g.male });
    const sim = similarity(f.embedding, g.embedding);
    sims.push(sim);
    minSim = Math.min(minSim, sim);
  });
  return { found, total: a.length, gender, fromUnknown: 0, minSim, changes, sims };
}

/** p(male) before the pipeline's shift (shiftMale's inverse), from the shifted answer. */
const unshift = (p: number, at: number) => shiftMale(p, 1 - at);

/** Atelier's own face pipeline (see the file comment): each face's box, gender, p(male) and descriptor. */
export async function engineDescriber(models: ModelRegistry) {
  const human = await models.get<HumanLike>('human');
  const nets = registryNets(models);
  const descriptorModel = await humanModel(human, 'faceres.json');
  const similarity = (human as unknown as { match: { similarity(a: number[], b: number[]): number } }).match.similarity;
  const tf = human.tf;
  const maleAt = PIPELINE.gender.maleAt;

  /** human's descriptor (faceres' 1024-wide output) of each square; faceres reads RGB 0..255 at 224. */
  async function descriptors(img: RasterImage, rois: ReturnType<typeof faceRoi>[]): Promise<number[][]> {
    const out: number[][] = [];
    for (const crop of await attributeModelInputs(human, ATTRIBUTE_MODELS.faceres, img, rois)) {
      const t: TensorLike[] = [];
      try {
        t.push(tf.tensor4d(Float32Array.from(crop.data), [1, crop.size, crop.size, 3], 'float32'));
        const y = descriptorModel.execute(t[0]);
        const ys = Array.isArray(y) ? y : [y];
        t.push(...ys);
        out.push(Array.from(await ys.find((o) => o.shape[o.shape.length - 1] === 1024)!.data()));
      } finally { tf.dispose(t); }
    }
    return out;
  }

  async function described(img: RasterImage): Promise<EngineDescribed[]> {
    const faces = await detectFaces(human, img);
    if (!faces.length) return [];
    const attrs = await faceAttributes(human, img, faces, nets, new Set(['gender'] as const));
    // The square the engine's own face crops use (the mesh's ROI, upright), as human's description crops its own detection.
    const embeddings = await descriptors(img, faces.map((f) => faceRoi(f, ROI_SCALE)));
    return faces.map((f, i) => {
      const g = attrs[i].gender!;
      const shifted = g.value === 0 ? g.probability : 1 - g.probability;
      return { box: [f.box.x0, f.box.y0, f.box.w, f.box.h], male: unshift(shifted, maleAt), gender: g.value === 0 ? 'male' : 'female', embedding: embeddings[i] };
    });
  }

  const compare = (a: EngineDescribed[], b: EngineDescribed[]) => compareFaces(a, b, similarity);
  const identity = async (before: RasterImage, after: RasterImage) => compare(await described(before), await described(after));
  return { described, similarity, compare, identity, maleAt };
}

/** Overlap of two [x, y, width, height] boxes over their union. */
export const iou = (a: number[], b: number[]) => {
  const ix = Math.max(0, Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0])), iy = Math.max(0, Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]));
  return (ix * iy) / (a[2] * a[3] + b[2] * b[3] - ix * iy);
};

/** Identity figures summed over photos: faces, lost, gender changed, the least similarity per photo. */
export interface IdTally { faces: number; lost: number; gender: number; fromUnknown: number; sim: number[] }
export const idTally = (): IdTally => ({ faces: 0, lost: 0, gender: 0, fromUnknown: 0, sim: [] });
export function tallyIdentity(t: IdTally, id: Identity): void {
  t.faces += id.total; t.lost += id.total - id.found; t.gender += id.found - id.gender; t.fromUnknown += id.fromUnknown;
  if (id.found) t.sim.push(id.minSim);
}
const fixed = (v: number, d: number) => (Number.isFinite(v) ? v.toFixed(d) : '-');
/** found, gender, min sim columns of a photo's line. */
export const idColumns = (id: Identity) =>
  [`${id.found}/${id.total}`, `${id.found - id.gender} differ${id.fromUnknown ? ` (${id.fromUnknown} was unknown)` : ''}`, fixed(id.minSim, 3)];
/** A tally as a summary phrase. */
export const idSummary = (t: IdTally) =>
  `${t.faces} faces, lost ${t.lost}, gender changed ${t.gender}${t.fromUnknown ? ` (${t.fromUnknown} of them 'unknown' before)` : ''}, similarity worst ${fixed(t.sim.length ? Math.min(...t.sim) : NaN, 3)}`;
/** One engine gender change: the face, p(male) before -> after, and whether the before answer was a coin toss (within 0.05 of maleAt). */
export const genderChangeLine = (c: GenderChange, maleAt: number) =>
  `\tgender change: face ${Math.round(c.box[2])} px at ${c.box.slice(0, 2).map(Math.round).join(',')}, p(male) ${fixed(c.maleBefore, 3)} -> ${fixed(c.maleAfter, 3)} ` +
  `(maleAt ${maleAt}: ${Math.abs(c.maleBefore - maleAt) < 0.05 ? 'a coin toss before' : 'a sure answer before'})`;
