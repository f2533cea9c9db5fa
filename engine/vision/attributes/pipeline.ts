/**
 * Which attribute models answer age, gender and emotion, on which crop and with which weights: the face
 * analyzer's answer, and skin analysis's apparent age.
 */
import type { Border } from './attribute-crops.ts';
import type { AgeDecode } from './attribute-decode.ts';

/**
 * Which models (averaged when several), on which square (side over the face's extent), mirror-averaged or
 * not, and what the square shows where it runs past the image (attribute-crops.ts Border).
 */
export interface AttributeStep { models: string[]; scale: number; flip: boolean; border: Border }

/** One model's (or averaged models') part in an answer: its step and its weight in the weighted mean. */
export type AttributePart = AttributeStep & { weight: number };

/**
 * Gender as a logistic model over the parts' logit(P(male)) instead of their weighted mean: P(male) =
 * sigmoid(intercept + sum of weights x logits), plus `child`'s terms where the face's age estimate is under
 * `child.below` years (the nets read young boys as girls more often than adults' faces; a child gets his own
 * intercept and slopes). Fitted by scripts/quality/face-attributes-combine.ts on fit data only.
 */
export interface GenderLogistic {
  intercept: number;
  /** One per gender part, in PIPELINE.gender.parts' order. */
  weights: number[];
  child: { below: number; intercept: number; weights: number[] };
}

/**
 * Which models, crops and weights answer each question: chosen by measurement on the fit half of the shared
 * test faces and checked on the other half (scripts/quality/face-attributes-blend.ts, against the Human
 * models' own best in scripts/quality/face-attributes.ts; docs/experiments/face-analyzer.md#face-apis-nets).
 * Each part's answer (an age in years, decoded with `decode` where the model gives a distribution; P(male);
 * the seven emotion scores) enters a weighted mean. Temperature 1 = the models' own probabilities.
 */
export const PIPELINE: {
  /** Age's probability reads the first part with an age distribution (FaceRes-deep). */
  age: { parts: AttributePart[]; decode: AgeDecode; temperature: number };
  /** maleAt: P(male) at which a face counts as male; probabilities are shifted to match. */
  gender: { parts: AttributePart[]; maleAt: number; temperature: number; logistic?: GenderLogistic };
  emotion: { parts: AttributePart[]; temperature: number };
} = {
  age: {
    parts: [
      // Not mirror-averaged: on the fit half the mirror moved the MAE by 0.06 years (3.73 -> 3.67; check 5.60
      // either way) for about a fifth of the attribute models' CPU
      // (docs/experiments/face-analyzer.md#mirror-averaging-and-the-second-look).
      { models: ['faceres-deep-caffe'], scale: 1.6, flip: false, border: 'black', weight: 0.2 },
      { models: ['faceapi-age-gender'], scale: 1.2, flip: true, border: 'edge', weight: 0.8 },
    ],
    decode: 'human', temperature: 1,
  },
  // A logistic model over face-api's P(male) on age's own square (1.2x, edge border: no extra run) and SSR-Net's,
  // with terms of its own for a face estimated under 13, chosen among 89 combinations by 10-fold cross-validation
  // on 490 fit faces (the shared chips' fit half, the fit half's portraits and 450 more UTKFace chips): 449
  // right against 440 for face-api alone at 1.0x (shipped before); check half 26 of 30 against 24
  // (docs/experiments/face-analyzer.md#more-fit-data). SSR-Net's adult weight came out near zero (-0.000294: at
  // most 0.004 of the logit) and is set to 0, so SSR-Net runs only on faces read as under 13 (attributes.ts).
  // The parts' `weight` is not read when `logistic` is set.
  gender: {
    parts: [
      { models: ['faceapi-age-gender'], scale: 1.2, flip: true, border: 'edge', weight: 1 },
      { models: ['ssrnet-gender'], scale: 1.4, flip: true, border: 'black', weight: 1 },
    ],
    logistic: { intercept: -0.853430, weights: [1.18251, 0], child: { below: 13, intercept: 0.00688413, weights: [0.102349, 0.0720136] } },
    maleAt: 0.5, temperature: 1,
  },
  emotion: {
    parts: [
      { models: ['emotion'], scale: 1.2, flip: true, border: 'edge', weight: 0.6 },
      { models: ['faceapi-expression'], scale: 1.2, flip: true, border: 'black', weight: 0.4 },
    ],
    temperature: 1,
  },
};
