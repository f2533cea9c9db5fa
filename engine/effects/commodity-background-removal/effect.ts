/**
 * Product background removal: ISNet matte → edges refined against the photo → the requested form
 * (transparent PNG, grey mask, subject on white, or trimmed transparent PNG) → fast PNG.
 */
import { defineEffect } from '../effect.ts';
import { applyReturnForm, encodeResult, predictMatte, refineEdges, resizeMatte, retryWithContext, type P } from './steps.ts';

// MODEL is chosen by scripts/quality-commodity.ts and scripts/bench-commodity.ts; see the note there.
export const MODEL = 'isnet-medium';

export default defineEffect<P>({
  slug: 'commodity-background-removal',
  models: [MODEL],
  steps: [predictMatte(MODEL), retryWithContext(MODEL), refineEdges, resizeMatte, applyReturnForm, encodeResult],
});
