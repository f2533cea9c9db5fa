/**
 * The rectangles the answers carry, in the two shapes the interface speaks (docs/interface.md), and the
 * conversions from and to the engine's one rectangle (`Rect` in engine/image/rect.ts: `{x0, y0, w, h}`),
 * written by shape because the contract imports nothing from the engine.
 */

/** The contract's rectangle in `face_rect` and `retain_location`, and the face detector's raw boxes. */
export interface XywhRect { x: number; y: number; width: number; height: number }

export const fromXywh = (r: XywhRect): { x0: number; y0: number; w: number; h: number } => ({ x0: r.x, y0: r.y, w: r.width, h: r.height });
export const toXywh = (r: { x0: number; y0: number; w: number; h: number }): XywhRect => ({ x: r.x0, y: r.y0, width: r.w, height: r.h });

/** The contract's rectangle in the skin analysis answers (`face_rectangle`, lesions' `rectangle`). */
export interface LeftTopRect { left: number; top: number; width: number; height: number }
