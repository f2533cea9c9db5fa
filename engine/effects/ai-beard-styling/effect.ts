/**
 * Beard styling: the 5 largest faces get a beard, either one of the 24 presets drawn as hair along the
 * face's mesh, or the beard of a template photo carried over through both meshes and blended in.
 */
import { defineEffect } from '../../pipeline/effect.ts';
import { encode, findFaces, readTemplate, style, type P, type State } from './steps.ts';

export default defineEffect<P, State>({
  slug: 'ai-beard-styling',
  models: ['human', 'bisenet-face-parsing'],
  steps: [findFaces, readTemplate, style, encode],
});
