/**
 * Square-face avatar: the 5 largest faces' ovals warped toward rounded squares with the inner features kept
 * in place, a square around the largest face stylised as a cartoon (classical: no stylisation model ships
 * with a licence that fits), framed as a rounded square.
 */
import { defineEffect } from '../../pipeline/effect.ts';
import { findFaces, stylise, warp, type P, type State } from './steps.ts';

export default defineEffect<P, State>({
  slug: 'ai-square-face-filter',
  models: ['human'],
  steps: [findFaces, warp, stylise],
});
