/**
 * Face beauty: the 5 largest faces → for each, its parsing and the retouch masks (skin without the
 * features, skin tone, the features) → smoothing, whitening and sharpening, each by its own degree →
 * the photo, lossless.
 */
import { defineEffect, steps } from '../../pipeline/effect.ts';
import { encodeResult, findFaces, retouch, type P } from './steps.ts';

export default defineEffect({
  slug: 'face-beauty',
  models: ['human', 'bisenet-face-parsing', 'face-api'],
  steps: steps<P>().step(findFaces).step(retouch).step(encodeResult),
});
