/**
 * Beard removal: the 5 largest faces → each face's beard and moustache found from the parsing and from
 * texture in the mesh's beard zones → filled with the person's own skin (exemplar inpainting from cheek
 * and neck skin; a dense beard's light fitted on the face's own skin by the mesh's normals), the stubble
 * shadow evened, the grain quilted from the person's own plain skin (looks/beard/quilt.ts; where none can be,
 * real clean-shaven lower faces' grain, skin-library.ts) laid over the fill → PNG. A
 * clean-shaven face has no beard mask and comes back byte for byte.
 */
import { defineEffect, steps } from '../../pipeline/effect.ts';
import { encode, findFaces, shave, type P } from './steps.ts';

export default defineEffect({
  slug: 'ai-beard-removal',
  models: ['human', 'bisenet-face-parsing', 'face-api'],
  steps: steps<P>().step(findFaces).step(shave).step(encode),
});
