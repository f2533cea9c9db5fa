/**
 * Smart crop: the subject (every face, larger ones weighing more, with the salient object or figure they
 * belong to; else the salient object alone) → the largest window of the target aspect that keeps it → that
 * window scaled to exactly width x height.
 */
import { defineEffect, steps } from '../../pipeline/effect.ts';
import { chooseWindow, cropAndScale, findFaces, findSalientObject, type P } from './steps.ts';
import { SALIENCY, SALIENCY_SIDE } from './tuning.ts';

/** The steps that find the subject, with ISNet at `side` (scripts/quality/cropping.ts reuses them). */
export const findSubjectAt = (side: number) => steps<P>().step(findFaces).step(findSalientObject(SALIENCY, side));
export const findSubject = findSubjectAt(SALIENCY_SIDE);

/** The effect with ISNet at `side` (scripts/bench/steps.ts compares sides). */
export const smartCrop = (side: number) => defineEffect({
  slug: 'image-cropping',
  models: ['human', SALIENCY, 'face-api'],
  steps: findSubjectAt(side).step(chooseWindow).step(cropAndScale),
});

export default smartCrop(SALIENCY_SIDE);
