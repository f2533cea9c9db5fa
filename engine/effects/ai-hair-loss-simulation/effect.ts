/**
 * Hair loss simulation: `level` man_1..man_7 (Norwood: the hairline recedes at the temples, the crown
 * thins, then the two join) or woman_1..woman_7 (Ludwig: a widening parting and diffuse thinning on top,
 * the front line kept), on the 5 largest faces. Lost strands show a scalp made from the person's own
 * forehead; nothing below the brows or outside the hair changes.
 */
import { defineEffect, steps } from '../../pipeline/effect.ts';
import { encode, findFaces, readLevel, simulate, type P } from './steps.ts';

export default defineEffect({
  slug: 'ai-hair-loss-simulation',
  models: ['human', 'bisenet-face-parsing', 'face-api'],
  steps: steps<P>().step(readLevel).step(findFaces).step(simulate).step(encode),
});
