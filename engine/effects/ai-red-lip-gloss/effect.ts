/**
 * Red lip gloss: the 5 largest faces → each face's lips from the mesh (opening and teeth left out) → a
 * classic red, the lips' shading and texture kept → a specular highlight that follows the lips' curvature
 * and the photo's light, screened on in linear light → PNG behind the task's result URL.
 */
import { defineEffect } from '../../pipeline/effect.ts';
import { encode, findFaces, glossLips, type P, type State } from './steps.ts';

export default defineEffect<P, State>({
  slug: 'ai-red-lip-gloss',
  models: ['human'],
  steps: [findFaces, glossLips, encode],
});
