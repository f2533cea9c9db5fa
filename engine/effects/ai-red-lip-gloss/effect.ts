/**
 * Red lip gloss: the 5 largest faces → each face's lips from the mesh (opening and teeth left out) → a
 * classic red, the lips' shading and texture kept → a specular highlight that follows the lips' curvature
 * and the photo's light, screened on in linear light → PNG behind the task's result URL.
 */
import { defineEffect, steps } from '../../pipeline/effect.ts';
import { encode, findFaces, glossLips, type P } from './steps.ts';

export default defineEffect({
  slug: 'ai-red-lip-gloss',
  models: ['human', 'face-api'],
  steps: steps<P>().step(findFaces).step(glossLips).step(encode),
});
