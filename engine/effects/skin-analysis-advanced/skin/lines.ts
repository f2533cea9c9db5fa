/**
 * The line rules beyond findLines: the nasolabial fold's search in its band and how far it runs lateral of
 * the nose-to-mouth course, a zone's core, and the forehead's 'all' field (fine lines and furrows).
 */
import { gauss as blurPlane } from '../../../image/gauss.ts';
import type { Rect } from '../../../image/rect.ts';
import { CORE_LEVEL, FINE_LINES, FOLD, RIDGE_SIGMAS } from '../tuning.ts';
import type { P2 } from './frame.ts';
import { nth } from './pigment.ts';
import { findLines, floorBeside, type Line, type RidgeField } from './ridges.ts';

/**
 * The nasolabial fold's search in its band: the strongest line within FOLD.search degrees of the mesh's
 * course (nose wing to mouth corner) at the bare minimum depth; the direction then follows that line
 * (when it is at least half the fold's minimum length: folds run up to ~45 degrees off the wing-to-corner
 * line), and the floor is FOLD.over x the FOLD.quantile of the band's depth with that line and FOLD.margin
 * mm around it left out (floorBeside): a fold must stand above the rest of its band's relief. Three
 * robust spreads of the whole band, as the other lines use, become the fold's own depth where it fills
 * half the band. The band stays 7 mm wide: reaching further onto the cheek lets children's smile shading in.
 * A line found must then run FOLD.lateral face-mm lateral of the course (lateralReach).
 */
export function foldSearch(field: RidgeField, zone: Float32Array, meshDir: number, minDepth: number, minLength: number, w: number, s: number): { floor: number; direction: number } {
  const strongest = findLines(field, { zone, minDepth, direction: meshDir, tolerance: (FOLD.search * Math.PI) / 180, s })[0];
  const floor = floorBeside(field.depth, zone, w, strongest, FOLD.margin * s, FOLD.quantile, FOLD.over);
  const direction = strongest && strongest.length >= minLength / 2 ? strongest.angle : meshDir;
  return { floor, direction };
}

/**
 * How far a nasolabial line runs lateral of the straight course from the nose wing to the mouth corner
 * (mesh 129-61, 358-291), in face-mm (faceMm): the 90th percentile, along its spine (its deepest pixel per
 * pixel of course), of the spine's distance from that course toward the cheek (negative toward the lips).
 * The fold is the cheek's fat hanging over the lip's muscle: from the wing it runs down and outward and
 * passes lateral of the mouth corner, so its lower part lies several mm off the course. A line on the
 * course or inside it is the upper lip's own edge, shaded against the cheek when a pout or a rounded mouth
 * pushes the lip forward. FOLD.lateral is half the least reach of the fit half's folds on faces ≥ 50.
 */
export function lateralReach(line: Line, mesh: readonly P2[], side: 'right' | 'left', depth: Float32Array, w: number, perFaceMm: number): number {
  const [wing, corner, cheek] = side === 'right' ? [mesh[129], mesh[61], mesh[234]] : [mesh[358], mesh[291], mesh[454]];
  const len = Math.hypot(corner[0] - wing[0], corner[1] - wing[1]) || 1, ux = (corner[0] - wing[0]) / len, uy = (corner[1] - wing[1]) / len;
  // The normal to the course, toward the cheek.
  const sign = (cheek[0] - wing[0]) * -uy + (cheek[1] - wing[1]) * ux >= 0 ? 1 : -1, nx = -uy * sign, ny = ux * sign;
  const spine = new Map<number, number>();
  for (const i of line.at) {
    const x = i % w, y = (i - x) / w, t = Math.round((x - wing[0]) * ux + (y - wing[1]) * uy);
    const j = spine.get(t);
    if (j === undefined || depth[i] > depth[j]) spine.set(t, i);
  }
  const out = Float32Array.from(spine.values(), (i) => { const x = i % w, y = (i - x) / w; return ((x - wing[0]) * nx + (y - wing[1]) * ny) / perFaceMm; }).sort();
  return out.length ? out[Math.min(out.length - 1, Math.floor(out.length * 0.9))] : 0;
}

/**
 * A zone's core: where the zone, blurred by the largest fold scale, stays above CORE_LEVEL (about 1.3 σ
 * in from its edge), so that what the fold scales read there is the zone's own relief, not the edges of
 * the hair, brows or eyes beside it. 1 inside, 0 outside.
 */
export function coreOf(zone: Float32Array, w: number, h: number, s: number): { core: Float32Array; box: Rect } {
  const core = new Float32Array(w * h);
  // Blurred only over the zone's box and 3 σ around it (the zone is 0 beyond: the same values).
  let x0 = w, y0 = h, x1 = -1, y1 = -1;
  for (let y = 0, i = 0; y < h; y++) for (let x = 0; x < w; x++, i++) if (zone[i] >= 0.5) { if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y; }
  if (x1 < 0) return { core, box: { x0: 0, y0: 0, w: 0, h: 0 } };
  const box = { x0, y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
  const sigma = Math.max(...RIDGE_SIGMAS.coarse) * s, m = Math.ceil(3 * sigma);
  const cx0 = Math.max(0, x0 - m), cy0 = Math.max(0, y0 - m), cw = Math.min(w, x1 + m + 1) - cx0, ch = Math.min(h, y1 + m + 1) - cy0;
  const crop = new Float32Array(cw * ch);
  for (let y = 0; y < ch; y++) crop.set(zone.subarray((cy0 + y) * w + cx0, (cy0 + y) * w + cx0 + cw), y * cw);
  const blurred = blurPlane(crop, cw, ch, sigma);
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const i = y * w + x;
      core[i] = zone[i] >= 0.5 && blurred[(y - cy0) * cw + (x - cx0)] >= CORE_LEVEL ? 1 : 0;
    }
  }
  return { core, box };
}

/**
 * The 'all' field of a zone: its fine lines where they are at least fineMin deep, and in the zone's core
 * (coreOf) the fold scales' furrows at least as deep as minDepth and FINE_LINES.noise spreads of the fold
 * scales' own depth there (each scale against its own texture: the fold scales read the forehead's broad
 * relief everywhere, and one floor over both raised the fine lines' floor until fine synthetic lines on a
 * smooth forehead were lost), whichever is deeper; 0 elsewhere (findLines then asks only fineMin).
 */
export function withFurrows(fine: RidgeField, fineMin: number, coarse: RidgeField, zone: Float32Array, minDepth: number, w: number, h: number, s: number): RidgeField {
  const { core, box } = coreOf(zone, w, h, s);
  const coarseMin = Math.max(minDepth, FINE_LINES.noise * spreadIn(coarse.depth, core));
  const depth = new Float32Array(w * h), angle = new Float32Array(w * h);
  // Only the zone's box: findLines reads nothing outside the zone.
  for (let y = box.y0; y < box.y0 + box.h; y++) {
    for (let x = box.x0, i = y * w + x; x < box.x0 + box.w; x++, i++) {
      const f = fine.depth[i] >= fineMin ? fine.depth[i] : 0, c = core[i] && coarse.depth[i] >= coarseMin ? coarse.depth[i] : 0;
      if (c > f) { depth[i] = c; angle[i] = coarse.angle[i]; } else { depth[i] = f; angle[i] = fine.angle[i]; }
    }
  }
  return { depth, angle, w, h };
}

/** 1.4826 x the median of |plane| where zone ≥ 0.5 (0 when empty). */
export function spreadIn(plane: Float32Array, zone: Float32Array): number {
  let n = 0;
  for (let i = 0; i < plane.length; i++) if (zone[i] >= 0.5) n++;
  if (!n) return 0;
  const v = new Float32Array(n);
  for (let i = 0, k = 0; i < plane.length; i++) if (zone[i] >= 0.5) v[k++] = Math.abs(plane[i]);
  return 1.4826 * nth(v, n >> 1);
}
