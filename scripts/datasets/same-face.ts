/** How the face-count scripts (quality/faces.ts, quality/face-counts.ts) match a labelled box to a found face. */
import type { Rect } from '../../engine/for-scripts.ts';

/** The same face when they overlap enough (IoU 0.3), or the label's centre lies in a face not far larger. */
export function sameFace(label: Rect, face: Rect): boolean {
  const ix = Math.max(0, Math.min(label.x0 + label.w, face.x0 + face.w) - Math.max(label.x0, face.x0));
  const iy = Math.max(0, Math.min(label.y0 + label.h, face.y0 + face.h) - Math.max(label.y0, face.y0));
  const iou = (ix * iy) / (label.w * label.h + face.w * face.h - ix * iy);
  const cx = label.x0 + label.w / 2, cy = label.y0 + label.h / 2;
  return iou >= 0.3 || (cx > face.x0 && cx < face.x0 + face.w && cy > face.y0 && cy < face.y0 + face.h && face.w < 2.5 * label.w);
}
