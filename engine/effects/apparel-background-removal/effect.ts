/**
 * Apparel background removal: the subject's matte (ISNet) beside face, body keypoints and bags (human) → the
 * face parser around the largest faces (hats, hair, collars) beside the rules' garment parse → the learned
 * parse built from them (garments/) → one cutout for all the clothing or the
 * requested classes, and one per requested class, in the requested form.
 */
import { defineEffect, steps } from '../../pipeline/effect.ts';
import { buildMasks, encodeOutputs, matteAndPerson, parseAlongHeads, type P } from './steps.ts';

// The same ISNet as product background removal, so a worker serving both loads it once.
export const MATTE_MODEL = 'isnet-medium';

export default defineEffect({
  slug: 'apparel-background-removal',
  models: [MATTE_MODEL, 'human', 'bisenet-face-parsing'],
  steps: steps<P>().step(matteAndPerson(MATTE_MODEL)).step(parseAlongHeads).step(buildMasks).step(encodeOutputs),
});
