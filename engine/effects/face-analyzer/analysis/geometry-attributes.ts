/**
 * The face-analyzer attributes that follow from a face's geometry (its 478-point mesh) and the pixels
 * around its brows and lids: eyes closed, eyelid type, eye size, brow density / curve / length, mouth
 * open, nose type, face shape, smile and head pose. Measures come from geometry-measures.ts (face frame,
 * normalised by face width). Each coded answer carries the probability of the type given:
 *
 * - two-way answers: a logistic of the measure's margin from the decision threshold in units of its
 *   fitted spread, p = 1 / (1 + exp(-(x - t) / s)); t and s were fitted by logistic regression on the
 *   fit half of the shared test faces (scripts/quality/face-geometry.ts --fit) and checked on the other;
 * - eye size: ordinal logistic (two thresholds on one score);
 * - nose and face shape, which have no labelled data: the measures, with their drift with head pitch and
 *   yaw taken out, standardised by their spread over the fit half of the shared faces, and the posterior of
 *   a few class prototypes under a unit Gaussian around each (a face between two prototypes gets about half
 *   for each; one near the average gets "normal" nose / "oval" shape at modest probability). Not checked
 *   against labels: there are none.
 *
 * Codes (docs/interface.md#face-analyzer): eye_open 0 open, 1 closed; eyelid_type 0 single, 1 double;
 * eye_size 0 small, 1 regular, 2 large; eyebrow_density 0 sparse, 1 thick; eyebrow_curve 0 straight, 1 curved;
 * eyebrow_length 0 short, 1 long; mouth_open 0 closed, 1 open; nose 0 upturned, 1 hooked, 2 normal,
 * 3 round-tipped; shape 0 square, 1 triangular, 2 oval, 3 heart, 4 round; smile 0..100.
 */
import type { RasterImage } from '../../../image/raster.ts';
import type { Face } from '../../../vision/faces/detect.ts';
import { measureGeometry, type BrowMeasures, type EyeMeasures, type GeometryMeasures } from './geometry-measures.ts';
import { poseFromMesh } from '../../../vision/faces/pose.ts';

export interface Coded { type: number; probability: number }

export interface GeometryAttributes {
  eye: { eye_open: Coded; eyelid_type: Coded; eye_size: Coded };
  eyebrow: { eyebrow_density: Coded; eyebrow_curve: Coded; eyebrow_length: Coded };
  mouth: { mouth_open: Coded };
  nose: Coded;
  shape: Coded;
  /** 0..100: the probability of a smile, in percent. */
  smile: number;
  /** Degrees, as Face.pose: yaw > 0 turns toward the image's right, pitch > 0 looks down, roll > 0 leans clockwise. */
  head_pose: { pitch: number; yaw: number; roll: number };
}

export interface GeometryOptions {
  /** An emotion model's probability (0..1) that the face is happy; sharpens the smile. */
  happy?: number;
}

/** The per-face scalars the rules read (both sides of the face pooled, the better-seen side weighing more). */
export interface GeometryFeatures {
  eyeOpen: number; eyeWidth: number; crease: number; lidPixels: number; sclera: number;
  browContrast: number; browArch: number; browMeshArch: number; browReach: number;
  mouthGap: number; mouthWidth: number; cornerLift: number;
  noseUpturn: number; noseHump: number; noseTip: number;
  faceLength: number; forehead: number; jaw: number; chin: number;
}

export function geometryFeatures(m: GeometryMeasures): GeometryFeatures {
  // The far eye of a turned head is narrow in the photo and its mesh is mostly guessed: weigh by (seen width)^2.
  const eyes = pool(m.eyes.right, m.eyes.left);
  const brows = pool(m.brows.right, m.brows.left);
  return {
    eyeOpen: eyes((e: EyeMeasures) => e.openness), eyeWidth: eyes((e: EyeMeasures) => e.width),
    crease: eyes((e: EyeMeasures) => e.crease), lidPixels: eyes((e: EyeMeasures) => e.lidPixels),
    sclera: eyes((e: EyeMeasures) => e.sclera),
    browContrast: brows((b: BrowMeasures) => b.contrast), browArch: brows((b: BrowMeasures) => b.arch),
    browMeshArch: brows((b: BrowMeasures) => b.meshArch), browReach: brows((b: BrowMeasures) => b.reach),
    mouthGap: m.mouth.gap, mouthWidth: m.mouth.width, cornerLift: m.mouth.cornerLift,
    noseUpturn: m.nose.upturn, noseHump: m.nose.hump, noseTip: m.nose.tipWidth,
    faceLength: m.shape.length, forehead: m.shape.forehead, jaw: m.shape.jaw, chin: m.shape.chin,
  };
}

function pool<T extends { weight: number }>(a: T, b: T) {
  const wa = a.weight ** 2, wb = b.weight ** 2;
  return (get: (s: T) => number) => {
    const va = get(a), vb = get(b);
    if (!Number.isFinite(va)) return vb;
    if (!Number.isFinite(vb)) return va;
    return (va * wa + vb * wb) / (wa + wb || 1);
  };
}

/**
 * A logistic rule: P(type 1) = sigma(sum_i w_i * x_i + b). A measure that could not be taken (a pixel
 * measure at the image's edge) counts at its fit-half mean, so it moves the answer neither way.
 */
export interface LogisticRule { features: readonly (keyof GeometryFeatures)[]; weights: readonly number[]; bias: number; means: readonly number[] }

/**
 * Fitted on the fit half of the shared faces against by-eye labels (scripts/quality/face-geometry.ts --fit
 * prints this table; logistic regression with a unit Gaussian prior on the weights in standard units, so
 * a rule with few labels stays near its base rate). Labelled faces in that half: eyes closed 53 (4
 * closed), mouth 55, smile 59, eye size 40, brow density 15, brow curve 16, eyelid 8. Features were
 * chosen by leave-one-out on the fit half; accuracy on both halves is in the script's report.
 */
export const RULES = {
  /** P(eyes closed) from the lid gap over eye width and the white of the eye showing between the lids. */
  eyesClosed: { features: ['eyeOpen', 'sclera'], weights: [-37.2414, -1.8693], bias: 5.7422, means: [0.2562, 0.0817] } as LogisticRule,
  /** P(mouth open) from the inner-lip gap over mouth width. */
  mouthOpen: { features: ['mouthGap'], weights: [27.2505], bias: -2.4948, means: [0.1021] } as LogisticRule,
  /** P(smile) from the corners' lift and the mouth's width; with a happy score, the score's logit joins (weight `happy`). */
  smile: { features: ['cornerLift', 'mouthWidth'], weights: [28.0652, 9.1873], bias: -4.0433, means: [0.0105, 0.3997] } as LogisticRule,
  smileHappy: { features: ['cornerLift', 'mouthWidth'], weights: [8.2788, 2.1416], bias: -0.158, means: [0.0105, 0.3997], happy: 0.4582 } as LogisticRule & { happy: number },
  /** P(thick brows) from the brow's darkness against the skin around it. */
  browThick: { features: ['browContrast'], weights: [6.7627], bias: -1.7556, means: [0.5432] } as LogisticRule,
  /** P(curved brows) from the arch of the brow line found in the pixels (the mesh's own brow is a near-fixed template). */
  browCurved: { features: ['browArch'], weights: [14.2075], bias: -2.89, means: [0.1818] } as LogisticRule,
  /** P(long brows): the dark brow's reach past the nose-wing / eye-corner line; threshold 0 by that definition, spread measured. */
  browLong: { features: ['browReach'], weights: [2.4568], bias: 0, means: [0.2128] } as LogisticRule,
  /** P(double eyelid) from the depth of a crease line between lid and brow (8 labels: little more than the base rate). */
  doubleLid: { features: ['crease'], weights: [3.5841], bias: 0.8451, means: [0.0791] } as LogisticRule,
  /** Eye size: ordinal logistic on score = w . x (the lid gap over eye width); P(size >= regular) = sigma(score - cuts[0]), P(large) = sigma(score - cuts[1]). */
  eyeSize: { features: ['eyeOpen'] as (keyof GeometryFeatures)[], weights: [54.872], cuts: [12.1366, 17.4677], means: [0.2712] },
  /** The crease is only looked for when the lid-to-brow distance spans this many pixels; below it the answer fades to a coin toss. */
  creasePixels: 8,
};

/**
 * The nose and face-shape measures' spread over the fit half of the shared faces (no labels involved):
 * [value at a frontal pose, SD of the residual, slope per degree of pitch, slope per degree of |yaw|].
 * The mesh's depth follows the head's turn only in part, so these measures drift with pose (upturn
 * correlates 0.8 with pitch over the shared faces); the slopes take that drift out before the
 * measure is put in standard units. Class prototypes are points in those units.
 */
export const PROTOTYPES = {
  nose: {
    stats: { noseUpturn: [21.75, 2.443, 0.3162, 0.1484], noseHump: [0.1316, 0.008415, -0.0003475, -0.0004394], noseTip: [0.4352, 0.01308, 0.0008564, -0.0001241] } as Record<string, Stat>,
    // 0 upturned, 1 hooked, 2 normal, 3 round-tipped: [upturn, hump, tip width], prior.
    classes: [
      { at: [1.5, -0.5, 0], prior: 0.15 },
      { at: [-1, 1.5, 0], prior: 0.15 },
      { at: [0, 0, 0], prior: 0.55 },
      { at: [0, 0, 1.5], prior: 0.15 },
    ],
  },
  shape: {
    stats: { faceLength: [1.109, 0.07306, 0.001709, 0.001469], forehead: [0.8651, 0.021, 0.001757, -0.0006047], jaw: [0.8096, 0.01756, -0.0009545, 6.208e-05], chin: [0.4616, 0.01853, -0.0005769, -0.0003181] } as Record<string, Stat>,
    // 0 square, 1 triangular, 2 oval, 3 heart, 4 round: [length, forehead, jaw, chin], prior.
    classes: [
      { at: [-1, 0, 1.2, 1], prior: 0.175 },
      { at: [0, -1.2, 1, 0.3], prior: 0.175 },
      { at: [1, 0.3, -0.5, -0.3], prior: 0.3 },
      { at: [0, 1.2, -0.5, -1.2], prior: 0.175 },
      { at: [-1.2, 0, 0, 0.5], prior: 0.175 },
    ],
  },
};

const sigma = (v: number) => 1 / (1 + Math.exp(-v));
const clamp01 = (v: number) => Math.min(1, Math.max(0, v));
const round3 = (v: number) => Math.round(v * 1000) / 1000;

export function logit(rule: LogisticRule, x: GeometryFeatures): number {
  let v = rule.bias;
  rule.features.forEach((k, i) => { v += rule.weights[i] * (Number.isFinite(x[k]) ? x[k] : rule.means[i]); });
  return v;
}

/** A two-way answer: type 1 when P(1) >= 0.5, with the probability of the type given. NaN measures give type 0 at 0.5. */
function binary(p1: number): Coded {
  if (!Number.isFinite(p1)) return { type: 0, probability: 0.5 };
  return p1 >= 0.5 ? { type: 1, probability: round3(p1) } : { type: 0, probability: round3(1 - p1) };
}

function pick(ps: number[]): Coded {
  let best = 0;
  ps.forEach((p, i) => { if (p > ps[best]) best = i; });
  return { type: best, probability: round3(ps[best]) };
}

/** Posterior of prototype classes under unit Gaussians in standard units, with priors. */
function prototypes(values: number[], classes: readonly { at: readonly number[]; prior: number }[]): number[] {
  const ll = classes.map((c) => Math.log(c.prior) - c.at.reduce((s, a, i) => s + (values[i] - a) ** 2, 0) / 2);
  const top = Math.max(...ll);
  const e = ll.map((v) => Math.exp(v - top));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / sum);
}

type Stat = [mean: number, sd: number, perPitch: number, perYaw: number];
const z = (stats: Record<string, Stat>, x: GeometryFeatures, pose: { pitch: number; yaw: number }) => Object.entries(stats)
  .map(([k, [mean, sd, bp, by]]) => (x[k as keyof GeometryFeatures] - mean - bp * pose.pitch - by * Math.abs(pose.yaw)) / (sd || 1));

/** The geometry attributes of one face; null when the face has no mesh (detectFaces meshes only the largest few). */
export function geometryAttributes(face: Face, image: RasterImage, opts: GeometryOptions = {}): GeometryAttributes | null {
  const m = measureGeometry(face, image);
  if (!m) return null;
  return decide(geometryFeatures(m), face, opts);
}

/** The rules applied to measured features (exported for the quality script and tests). */
export function decide(x: GeometryFeatures, face: Face, opts: GeometryOptions = {}): GeometryAttributes {
  const R = RULES;
  // Eyelid crease: too few pixels between lid and brow to see a line -> the answer fades toward 0.5.
  const seen = clamp01(x.lidPixels / R.creasePixels);
  const lid = sigma(logit(R.doubleLid, x) * seen);
  const size = R.eyeSize.features.reduce((s, k, i) => s + R.eyeSize.weights[i] * (Number.isFinite(x[k]) ? x[k] : R.eyeSize.means[i]), 0);
  const atLeast = [sigma(size - R.eyeSize.cuts[0]), sigma(size - R.eyeSize.cuts[1])];
  const happy = opts.happy;
  const smileP = happy === undefined || !Number.isFinite(happy)
    ? sigma(logit(R.smile, x))
    : sigma(logit(R.smileHappy, x) + R.smileHappy.happy * Math.log(Math.min(0.999, Math.max(0.001, happy)) / (1 - Math.min(0.999, Math.max(0.001, happy)))));
  const pose = face.pose ?? (face.mesh ? poseFromMesh(face.mesh) : { yaw: 0, pitch: 0, roll: 0 });
  return {
    eye: {
      eye_open: binary(sigma(logit(R.eyesClosed, x))),
      eyelid_type: binary(lid),
      eye_size: pick([1 - atLeast[0], Math.max(0, atLeast[0] - atLeast[1]), atLeast[1]]),
    },
    eyebrow: {
      eyebrow_density: binary(sigma(logit(R.browThick, x))),
      eyebrow_curve: binary(sigma(logit(R.browCurved, x))),
      eyebrow_length: binary(sigma(logit(R.browLong, x))),
    },
    mouth: { mouth_open: binary(sigma(logit(R.mouthOpen, x))) },
    nose: pick(prototypes(z(PROTOTYPES.nose.stats, x, pose), PROTOTYPES.nose.classes)),
    shape: pick(prototypes(z(PROTOTYPES.shape.stats, x, pose), PROTOTYPES.shape.classes)),
    smile: Math.round(100 * smileP),
    head_pose: { pitch: pose.pitch, yaw: pose.yaw, roll: pose.roll },
  };
}
