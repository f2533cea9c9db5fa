/**
 * Face analyzer: the faces (up to max_face_num, largest first; a turned photo searched when asked) → for the 5
 * largest, the attribute families asked for: age, gender and emotion from human's models, eyes, brows, mouth,
 * nose, shape, smile and head pose from the mesh, glasses, hat, mask, moustache, hair, skin and beauty from
 * the face parsing and colour → the answer, every member present.
 */
import { defineEffect, steps } from '../../pipeline/effect.ts';
import { answer, findFaces, measure, type P } from './steps.ts';

export default defineEffect({
  slug: 'face-analyzer',
  models: ['human', 'bisenet-face-parsing', 'face-api'],
  steps: steps<P>().step(findFaces).step(measure).step(answer),
});
