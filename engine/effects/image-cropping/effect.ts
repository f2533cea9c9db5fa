/**
 * Smart crop: the subject (every face, larger ones weighing more, with the salient object or figure they
 * belong to; else the salient object alone) → the largest window of the target aspect that keeps it → that
 * window scaled to exactly width x height.
 */
import { defineEffect } from '../../pipeline/effect.ts';
import { chooseWindow, cropAndScale, findFaces, findSalientObject, type P, type State } from './steps.ts';

// The same ISNet as product background removal, so a worker serving both holds one copy.
const SALIENCY = 'isnet-medium';

/** The steps that find the subject; the rest depend on the target size (scripts/compare-cropping.ts reuses them). */
export const findSubject = [findFaces, findSalientObject(SALIENCY)];

export default defineEffect<P, State>({
  slug: 'image-cropping',
  models: ['human', SALIENCY],
  steps: [...findSubject, chooseWindow, cropAndScale],
});
