/**
 * Square-face avatar: the 5 largest faces' ovals warped toward rounded squares with the inner features kept
 * in place, a square around the largest face stylised as a cartoon (classical: no stylisation model ships
 * with a licence that fits), framed as a rounded square.
 */
import { defineEffect, steps } from '../../pipeline/effect.ts';
import { findFaces, stylise, warp, type P } from './steps.ts';

export default defineEffect({
  slug: 'ai-square-face-filter',
  models: ['human', 'face-api'],
  steps: steps<P>().step(findFaces).step(warp).step(stylise),
});
