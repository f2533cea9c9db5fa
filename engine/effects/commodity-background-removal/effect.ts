/**
 * Product background removal: ISNet matte → edges refined against the photo → the requested form
 * (transparent PNG, grey mask, subject on white, or trimmed transparent PNG) → fast PNG.
 */
import { defineEffect } from '../../pipeline/effect.ts';
import { applyReturnForm, encodeResult, predictMatte, refineEdges, resizeMatte, type P, type State } from './steps.ts';
import { MODEL } from './tuning.ts';

export default defineEffect<P, State>({
  slug: 'commodity-background-removal',
  models: [MODEL],
  steps: [predictMatte(MODEL), refineEdges, resizeMatte, applyReturnForm, encodeResult],
});
