/**
 * Apparel background removal's parameters beyond the garment parser's own (garments/tuning.ts for the
 * rules, garments/learned-tuning.ts for the learned parse): the size the parse works at and how many faces
 * it gets meshes for.
 */

/** Longest side of the parse; garment boundaries inside the person are placed at this resolution. */
export const WORK_SIDE = 512;

/** Faces meshed, the largest first: the main person's face hull and the next few faces are not clothing. */
export const MESH_FACES = 3;

/**
 * Blur-fusion windows for the garments' edge colours (engine/image/foreground.ts): the product cutout's, tuned
 * on matting ground truth (docs/experiments/commodity-background-removal.md#edge-colours); there is no
 * soft-alpha ground truth for garments to tune them apart.
 */
export const FOREGROUND_RADII = { wide: 90, narrow: 10 } as const;
