/**
 * Lip colour: per lip_color_infos entry, its face (face_rect's, else the largest) → the lips from the mesh
 * (mouth opening and teeth left out) → hue and chroma from the colour, the lips' own shading and texture
 * kept, blended at the entry's opacity in linear light → PNG, answered as base64.
 */
import { defineEffect, steps } from '../../pipeline/effect.ts';
import { colourLips, encode, findFaces, type P } from './steps.ts';

export default defineEffect({
  slug: 'lips-color-changer',
  models: ['human', 'face-api'],
  steps: steps<P>().step(findFaces).step(colourLips).step(encode),
});
