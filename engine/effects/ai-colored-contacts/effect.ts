/**
 * Coloured contacts: the lens colour, strength and limbal ring read from `name` / `desc` (natural light
 * brown without either) → the 5 largest faces → each iris tinted inside the eye opening, its texture,
 * pupil and catchlights kept → the photo.
 */
import { defineEffect, steps } from '../../pipeline/effect.ts';
import { encode, findFaces, readLensStep, tintEyes, type P } from './steps.ts';

export default defineEffect({
  slug: 'ai-colored-contacts',
  models: ['human', 'face-api'],
  steps: steps<P>().step(readLensStep).step(findFaces).step(tintEyes).step(encode),
});
