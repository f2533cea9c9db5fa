/**
 * The engine's one rectangle: a rectangle of image pixels by its top-left corner and its size. A plane over
 * it is row-major, index (y - y0) * w + (x - x0). Where a model or the contract speaks another shape, the
 * conversion happens at that boundary with the helpers below, so the engine's own code has one shape.
 */
export interface Rect { x0: number; y0: number; w: number; h: number }

/** The contract's rectangle in `face_rect` and `retain_location`, and the face detector's raw boxes. */
export interface XywhRect { x: number; y: number; width: number; height: number }

export const fromXywh = (r: XywhRect): Rect => ({ x0: r.x, y0: r.y, w: r.width, h: r.height });
export const toXywh = (r: Rect): XywhRect => ({ x: r.x0, y: r.y0, width: r.w, height: r.h });

/** The contract's rectangle in the skin analysis answers (`face_rectangle`, lesions' `rectangle`). */
export interface LeftTopRect { left: number; top: number; width: number; height: number }
