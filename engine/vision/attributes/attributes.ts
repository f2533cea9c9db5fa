/**
 * Age, gender and emotion for each detected face, from human's attribute models run on the same Human
 * instance (so on a worker's own registry). Which model, crop and decode answers each question was chosen
 * by measurement on half of the shared test faces and checked on the other half
 * (scripts/quality/face-attributes.ts; docs/experiments/face-analyzer.md#age-gender-and-emotion-models);
 * PIPELINE (pipeline.ts) records that choice.
 *
 * Every value comes with a probability: gender and emotion the model's own for the class reported, age
 * the model's probability that the true age is within AGE_WINDOW years of the value (attribute-calibration.ts).
 */
import type { RasterImage } from '../../image/raster.ts';
import type { HumanLike } from '../models/human.ts';
import { humanModel } from '../models/human.ts';
import { AGE_CAP, ageProbability, shiftMale, temperatureScale } from './attribute-calibration.ts';
import { type AttributeNets, runAttributeModel } from './attribute-models.ts';
import { type CropCache, faceRoi, wholeRoi } from './attribute-crops.ts';
import { decodeAge, meanAttributes } from './attribute-decode.ts';
import { ATTRIBUTE_MODELS, type RawAttributes } from './attribute-specs.ts';
import type { Roi } from '../faces/crop.ts';
import type { Face } from '../faces/detect.ts';
import { PIPELINE, type AttributePart, type AttributeStep, type GenderLogistic } from './pipeline.ts';

export interface FaceAttributes {
  /**
   * Years as an integer; AGE_CAP (65) means 65 or older. probability: P(true age within 5 years of value; for
   * 65: at least 60). years: the estimate itself, neither rounded nor capped (skin analysis anchors on it).
   */
  age: { value: number; probability: number; years: number };
  /** 0 male, 1 female; probability of the value given. */
  gender: { value: 0 | 1; probability: number };
  /** 0 neutral, 1 happy, 2 surprised, 3 angry, 4 sad, 5 disgusted, 6 fearful; scores: all seven, summing to 1. */
  emotion: { value: number; probability: number; scores: number[] };
}

/** Loads the pipeline's models into this Human instance (a worker can call it at start-up). */
export async function loadFaceAttributeModels(human: unknown): Promise<void> {
  const steps = [PIPELINE.age, PIPELINE.gender, PIPELINE.emotion].flatMap((t) => t.parts);
  const files = new Set(steps.flatMap((s) => s.models.filter((m) => !ATTRIBUTE_MODELS[m].faceApi).map((m) => ATTRIBUTE_MODELS[m].file)));
  await Promise.all([...files].map((f) => humanModel(human as HumanLike, f)));
}

export type AttributeFamily = keyof FaceAttributes;
const ALL_FAMILIES: ReadonlySet<AttributeFamily> = new Set(['age', 'gender', 'emotion']);

/**
 * Attributes of each face (same order as `faces`), all faces of the image batched into one call per model.
 * `human` is the registry's Human instance (models.get('human')); `nets` (registryNets(models)) runs the
 * models that have an ONNX network there (the same outputs, several times cheaper); without, all run on tfjs.
 * With `families`, only their models run and only they are answered (a request for gender alone does not
 * pay for the age and emotion models).
 */
export function faceAttributes(human: unknown, image: RasterImage, faces: Face[], nets?: AttributeNets): Promise<FaceAttributes[]>;
export function faceAttributes(human: unknown, image: RasterImage, faces: Face[], nets: AttributeNets | undefined, families: ReadonlySet<AttributeFamily>): Promise<Partial<FaceAttributes>[]>;
export function faceAttributes(human: unknown, image: RasterImage, faces: Face[], nets?: AttributeNets, families = ALL_FAMILIES): Promise<Partial<FaceAttributes>[]> {
  if (faces.length === 0) return Promise.resolve([]);
  return attributesOf(human as HumanLike, image, faces.length, (scale) => faces.map((f) => faceRoi(f, scale)), nets, families);
}

/**
 * Attributes of an image that is itself a face crop in which no face was detected (a tiny or tight chip):
 * every model reads the whole image, whatever its usual margin.
 */
export async function imageAttributes(human: unknown, image: RasterImage, nets?: AttributeNets): Promise<FaceAttributes> {
  const [a] = await attributesOf(human as HumanLike, image, 1, () => [wholeRoi(image)], nets, ALL_FAMILIES);
  return a as FaceAttributes;
}

async function attributesOf(h: HumanLike, image: RasterImage, n: number, roisAt: (scale: number) => Roi[], nets: AttributeNets | undefined, families: ReadonlySet<AttributeFamily>): Promise<Partial<FaceAttributes>[]> {
  // Steps that share a model, crop and flip run it once.
  const runs = new Map<string, RawAttributes[]>();
  // Models that read the same squares (age and gender: FaceRes-deep at 1.6 under two conventions) cut them once.
  const crops: CropCache = new Map();
  // `only`: the faces (indices) that need this step; the others get an empty answer (the step is not run for them).
  const run = async (s: AttributeStep, only?: number[]): Promise<RawAttributes[]> => {
    const perModel: RawAttributes[][] = [];
    const faces = only ?? Array.from({ length: n }, (_, i) => i);
    if (faces.length === 0) return Array.from({ length: n }, () => ({}));
    // One model at a time: the wasm backend gains nothing from interleaving them.
    for (const m of s.models) {
      const key = `${m}|${s.scale}|${s.flip}|${s.border}|${only ? faces.join(',') : 'all'}`;
      let r = runs.get(key);
      if (!r) {
        const rois = roisAt(s.scale);
        r = await runAttributeModel(h, ATTRIBUTE_MODELS[m], image, faces.map((i) => rois[i]), s.flip, nets, s.border, crops);
        runs.set(key, r);
      }
      perModel.push(r);
    }
    const at = new Map(faces.map((f, j) => [f, j]));
    return Array.from({ length: n }, (_, i) => { const j = at.get(i); return j === undefined ? {} : meanAttributes(perModel.map((r) => r[j])); });
  };
  const runParts = async (parts: AttributePart[], only?: (k: number) => number[] | undefined) => {
    const out: { raw: RawAttributes[]; weight: number }[] = [];
    for (const [k, p] of parts.entries()) out.push({ raw: await run(p, only?.(k)), weight: p.weight });
    return out;
  };
  // A child-aware gender reads the age estimate, so asking for gender runs age's models too.
  const genderNeedsAge = families.has('gender') && !!PIPELINE.gender.logistic;
  const ageRuns = families.has('age') || genderNeedsAge ? await runParts(PIPELINE.age.parts) : undefined;
  const ageYears = (i: number) => (ageRuns ? Math.max(0, weighted(ageRuns, (r) => decodeAge(r.raw[i], PIPELINE.age.decode) ?? 0)) : 0);
  // A gender part with no weight for adults (SSR-Net's) runs on the faces under the child terms' age only.
  const lg = PIPELINE.gender.logistic;
  const childOnly = (k: number) => (lg && lg.weights[k] === 0 ? Array.from({ length: n }, (_, i) => i).filter((i) => ageYears(i) < lg.child.below) : undefined);
  const genderRuns = families.has('gender') ? await runParts(PIPELINE.gender.parts, childOnly) : undefined;
  const emotionRuns = families.has('emotion') ? await runParts(PIPELINE.emotion.parts) : undefined;
  return Array.from({ length: n }, (_, i) => {
    const out: Partial<FaceAttributes> = {};
    const years = ageYears(i);
    if (ageRuns && families.has('age')) {
      const age = Math.min(AGE_CAP, Math.round(years));
      const dist = ageRuns.find((r) => r.raw[i].ageDist)?.raw[i];
      const p = dist ? ageProbability(dist, age, PIPELINE.age.decode === 'hse' ? 1 : 0, PIPELINE.age.temperature) : undefined;
      out.age = { value: age, probability: prob(p ?? 0), years };
    }
    if (genderRuns) {
      const pMale = lg ? logisticMale(lg, genderRuns.map((r) => r.raw[i].male ?? 0.5), years) : weighted(genderRuns, (r) => r.raw[i].male ?? 0.5);
      const male = shiftMale(pMale, PIPELINE.gender.maleAt);
      const gender: 0 | 1 = male >= 0.5 ? 0 : 1;
      out.gender = { value: gender, probability: prob(temperatureScale([male, 1 - male], PIPELINE.gender.temperature)[gender]) };
    }
    if (emotionRuns) {
      const mixed = Array.from({ length: 7 }, (_, k) => weighted(emotionRuns, (r) => r.raw[i].emotion?.[k] ?? 1 / 7));
      const scores = temperatureScale(mixed, PIPELINE.emotion.temperature);
      const value = scores.indexOf(Math.max(...scores));
      out.emotion = { value, probability: prob(scores[value]), scores: scores.map(round4) };
    }
    return out;
  });
}

/** PIPELINE.gender.logistic's P(male) from each part's P(male) and the age estimate in years. */
export function logisticMale(lg: GenderLogistic, males: number[], years: number): number {
  const logit = (p: number) => { const q = Math.min(1 - 1e-6, Math.max(1e-6, p)); return Math.log(q / (1 - q)); };
  const x = males.map(logit);
  let z = lg.intercept + x.reduce((s, v, k) => s + v * lg.weights[k], 0);
  if (years < lg.child.below) z += lg.child.intercept + x.reduce((s, v, k) => s + v * lg.child.weights[k], 0);
  return 1 / (1 + Math.exp(-z));
}

/** The weighted mean of one value over the parts' runs. */
function weighted(runs: { weight: number }[], value: (r: { raw: RawAttributes[]; weight: number }) => number): number {
  const total = runs.reduce((s, r) => s + r.weight, 0);
  return (runs as { raw: RawAttributes[]; weight: number }[]).reduce((s, r) => s + r.weight * value(r), 0) / total;
}

const round4 = (v: number) => Math.round(v * 1e4) / 1e4;
/** In (0, 1]: a probability of exactly 0 would claim certainty the model cannot have. */
const prob = (v: number) => Math.max(1e-4, Math.min(1, round4(v)));
