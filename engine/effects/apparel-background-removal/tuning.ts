/**
 * Apparel background removal's parameters beyond the garment parser's own (garments/tuning.ts for the
 * rules, garments/learned-tuning.ts for the learned parse): the size the parse works at and how many faces
 * it gets meshes for.
 */

/** Longest side of the parse; garment boundaries inside the person are placed at this resolution. */
export const WORK_SIDE = 512;

/** Faces meshed, the largest first: the main person's face hull and the next few faces are not clothing. */
export const MESH_FACES = 3;
