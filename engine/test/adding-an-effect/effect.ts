/** The throwaway 16th effect, as engine/effects/<slug>/effect.ts would hold it: the image mirrored. */
import { defineEffect, steps } from '../../pipeline/effect.ts';
import { encode, flip, type P } from './steps.ts';

export default defineEffect({
  slug: 'test-image-flip',
  models: [],
  steps: steps<P>().step(flip).step(encode),
});
