/**
 * Product background removal's parameters: the matting network, the margin it is shown, the edge
 * refinement and the trim. Chosen with scripts/quality/commodity.ts (GrabCut whole objects, tight DIM
 * matting crops) and by eye on testdata/products; the figures are in
 * docs/experiments/commodity-background-removal.md.
 */

/**
 * ISNet medium over small: as accurate on whole objects and no slower on CPU (small is the same network
 * dynamically quantised, which onnxruntime runs no faster than medium's fp16-stored, fp32-run weights).
 */
export const MODEL = 'isnet-medium';

/**
 * How far each side is extended before the network looks (a fraction of that side, edge pixels repeated):
 * ISNet finds nothing in a subject the frame's borders cut without a margin, and 1/8 finds it in one look
 * where wider margins cost thin parts of whole objects and narrower ones leave a haze beside them.
 */
export const CONTEXT = 1 / 8;

/**
 * Guided-filter window (in matte-grid pixels) and regularisation for the upscale: r = 1 (3x3) moves an
 * edge by the one grid pixel an upscale smears it over; r = 2+ leaves wider tails (MAE above the plain
 * resize). A small eps is safe: where the matte is flat inside a window its covariance with the guide is 0,
 * so texture cannot print.
 */
export const RADIUS = 1;
export const EPS = 1e-4;

/** Alpha at or below this counts as background when trimming (soft fringes of a few percent are noise). */
export const CROP_THRESHOLD = 8;

/**
 * Blur-fusion windows for the edge colours (engine/image/foreground.ts), in px for a photo 1024 px on its
 * long side (the model grid) and scaled with the photo, since the soft band widens with it: a wide pass
 * that reaches the subject's and the background's colours away from the edge, a narrow one that follows them.
 */
export const FOREGROUND_WIDE = 45;
export const FOREGROUND_NARROW = 3;
export function foregroundRadii(width: number, height: number): { wide: number; narrow: number } {
  const k = Math.max(width, height) / 1024;
  return { wide: Math.max(1, Math.round(FOREGROUND_WIDE * k)), narrow: Math.max(1, Math.round(FOREGROUND_NARROW * k)) };
}
