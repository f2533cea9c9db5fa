/**
 * Product background removal: ISNet matte → edges refined against the photo
 * → edge colours freed of the old background → the requested form (transparent PNG, grey mask, subject on
 * white, or trimmed transparent PNG) → fast PNG.
 */
import { defineEffect, steps } from '../../pipeline/effect.ts';
import { applyReturnForm, decontaminateEdges, encodeResult, predictMatte, refineEdges, resizeMatte, type P } from './steps.ts';
import { MODEL } from './tuning.ts';

export default defineEffect({
  slug: 'commodity-background-removal',
  models: [MODEL],
  steps: steps<P>().step(predictMatte(MODEL)).step(refineEdges).step(resizeMatte).step(decontaminateEdges)
    .step(applyReturnForm).step(encodeResult),
});
