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
 * Blur-fusion windows for the edge colours (engine/image/foreground.ts), in px for an image 1024 px on its long
 * side (scaled with a smaller one; a larger one is worked on a grid of that size): a wide pass that reaches the
 * subject's and the background's colours away from the edge, a narrow one that follows them. Chosen on the fit
 * half of scripts/quality/cutout-edges.ts (wider windows help up to about these, then flatten;
 * docs/experiments/commodity-background-removal.md#edge-colours).
 */
export const FOREGROUND_RADII = { wide: 90, narrow: 10 } as const;
