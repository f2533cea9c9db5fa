/**
 * Advanced skin retouch: the nine flags read into one plan (smart_skin overrides; none set means
 * smart_skin) → the 5 largest faces → each face's skin healed, evened, lifted and smoothed by the plan
 * (steps.ts) → the photo.
 */
import { defineEffect, steps } from '../../pipeline/effect.ts';
import { encodeResult, findFaces, retouch, type P } from './steps.ts';

export default defineEffect({
  slug: 'smart-skin-advanced',
  models: ['human', 'bisenet-face-parsing', 'face-api'],
  steps: steps<P>().step(findFaces).step(retouch).step(encodeResult),
});
