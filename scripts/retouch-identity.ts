/**
 * What scripts/quality-retouch.ts and scripts/identity-retouch.ts share: the photos (portraits and landmark
 * photos with a face, from labels.json), their tune/check split (the face-parts split: sha1 of the path,
 * fixed before tuning), and human's own face description (faceres: gender and the descriptor) for the
 * identity check.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RasterImage } from '../engine/image/raster.ts';
import { faceConfig, type HumanLike } from '../engine/vision/models/human.ts';
import type { ModelRegistry } from '../engine/vision/models/registry.ts';
import { half as splitHalf } from './face-parts-data.ts';

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

/** Overlap of two [x, y, width, height] boxes over their union. */
export const iou = (a: number[], b: number[]) => {
  const ix = Math.max(0, Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0])), iy = Math.max(0, Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]));
  return (ix * iy) / (a[2] * a[3] + b[2] * b[3] - ix * iy);
};
