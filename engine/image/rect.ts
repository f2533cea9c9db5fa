/**
 * The engine's one rectangle: a rectangle of image pixels by its top-left corner and its size. A plane over
 * it is row-major, index (y - y0) * w + (x - x0). Where a model or the contract speaks another shape, the
 * conversion happens at that boundary (contract/rectangles.ts for the answers' shapes), so the engine's own
 * code has one shape.
 */
export interface Rect { x0: number; y0: number; w: number; h: number }
