/**
 * Beard styling: the 5 largest faces get a beard, either one of the 24 presets drawn as hair along the
 * face's mesh, or the beard of a template photo carried over through both meshes and blended in.
 */
import { defineEffect, steps } from '../../pipeline/effect.ts';
import { encode, findFaces, readTemplate, style, type P } from './steps.ts';

export default defineEffect({
  slug: 'ai-beard-styling',
  models: ['human', 'bisenet-face-parsing', 'face-api'],
  steps: steps<P>().step(findFaces).step(readTemplate).step(style).step(encode),
});
