/**
 * Piecewise-affine correspondence between two faces: every pixel of the target's window that the target's
 * mesh (and skirt) covers gets the point of the source photo at the same place on the face, by the
 * barycentric coordinates of the target triangle it lies in carried to the source's same triangle. Nearest
 * surface first, as uvField does, so a turned head's hidden side does not take the visible one's pixels.
 */
import type { Rect } from '../../image/rect.ts';
import { faceSurface, rasterPairs, type P3 } from '../../vision/regions/uv-map.ts';

export interface MeshWarp { sx: Float32Array; sy: Float32Array; win: Rect }

/** Source-image (x, y) of every pixel of `win` (target pixels) covered by the target's surface; NaN elsewhere. */
export function meshWarp(target: readonly P3[], source: readonly P3[], win: Rect, skirt?: number): MeshWarp {
  const t = faceSurface(target, skirt), s = faceSurface(source, skirt);
  // The same topology on both faces: the source's point of each target vertex is carried over its triangles.
  const [sx, sy] = rasterPairs(t.xy, t.tri, s.xy, win);
  return { sx, sy, win };
}
