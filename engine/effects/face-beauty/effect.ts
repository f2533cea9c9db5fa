/**
 * Face beauty: the 5 largest faces → for each, its parsing and the retouch masks (skin without the
 * features, skin tone, the features) → smoothing, whitening and sharpening, each by its own degree →
 * the photo, lossless.
 */
import { defineEffect } from '../../pipeline/effect.ts';
import { encodeResult, findFaces, retouch, type P, type State } from './steps.ts';

export default defineEffect<P, State>({
  slug: 'face-beauty',
  models: ['human', 'bisenet-face-parsing'],
  steps: [findFaces, retouch, encodeResult],
});
