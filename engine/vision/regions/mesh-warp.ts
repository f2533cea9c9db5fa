/**
 * Piecewise-affine correspondence between two faces: every pixel of the target's window that the target's
 * mesh (and skirt) covers gets the point of the source photo at the same place on the face, by the
 * barycentric coordinates of the target triangle it lies in carried to the source's same triangle. Nearest
 * surface first, as uvField does, so a turned head's hidden side does not take the visible one's pixels.
 */
import { faceSurface, type P3 } from './uv-map.ts';
import type { Win } from './polygon.ts';

export interface MeshWarp { sx: Float32Array; sy: Float32Array; win: Win }

/** Source-image (x, y) of every pixel of `win` (target pixels) covered by the target's surface; NaN elsewhere. */
export function meshWarp(target: readonly P3[], source: readonly P3[], win: Win, skirt?: number): MeshWarp {
  const t = faceSurface(target, skirt), s = faceSurface(source, skirt);
  const n = win.w * win.h;
  const sx = new Float32Array(n).fill(NaN), sy = new Float32Array(n).fill(NaN);
  const depth = new Float32Array(n).fill(Infinity);
  const tri = t.tri;
  for (let k = 0; k < tri.length; k += 3) {
    const A = t.xy[tri[k]], B = t.xy[tri[k + 1]], C = t.xy[tri[k + 2]];
    const a = s.xy[tri[k]], b = s.xy[tri[k + 1]], c = s.xy[tri[k + 2]];
    const ax = A[0] - win.x0, ay = A[1] - win.y0, bx = B[0] - win.x0, by = B[1] - win.y0, cx = C[0] - win.x0, cy = C[1] - win.y0;
    const det = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay);
    if (Math.abs(det) < 1e-9) continue;
    const xa = Math.max(0, Math.floor(Math.min(ax, bx, cx))), xb = Math.min(win.w - 1, Math.ceil(Math.max(ax, bx, cx)));
    const ya = Math.max(0, Math.floor(Math.min(ay, by, cy))), yb = Math.min(win.h - 1, Math.ceil(Math.max(ay, by, cy)));
    for (let y = ya; y <= yb; y++) {
      const py = y + 0.5;
      for (let x = xa; x <= xb; x++) {
        const px = x + 0.5;
        const l1 = ((px - ax) * (cy - ay) - (cx - ax) * (py - ay)) / det;
        const l2 = ((bx - ax) * (py - ay) - (px - ax) * (by - ay)) / det;
        const l0 = 1 - l1 - l2;
        if (l0 < -1e-6 || l1 < -1e-6 || l2 < -1e-6) continue;
        const o = y * win.w + x;
        const z = l0 * A[2] + l1 * B[2] + l2 * C[2];
        if (z >= depth[o]) continue;
        depth[o] = z;
        sx[o] = l0 * a[0] + l1 * b[0] + l2 * c[0];
        sy[o] = l0 * a[1] + l1 * b[1] + l2 * c[1];
      }
    }
  }
  return { sx, sy, win };
}
