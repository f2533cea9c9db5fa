/**
 * Beard styling: the largest face gets a beard, either one of the 24 presets (a shape on the face's mesh
 * laid as a real beard's texture, exemplar.ts), or the beard of a template photo carried over through both meshes and blended in.
 */
import { defineEffect, steps } from '../../pipeline/effect.ts';
import { encode, findFaces, readTemplate, style, type P } from './steps.ts';

export default defineEffect({
  slug: 'ai-beard-styling',
  models: ['human', 'bisenet-face-parsing', 'face-api'],
  steps: steps<P>().step(findFaces).step(readTemplate).step(style).step(encode),
});
