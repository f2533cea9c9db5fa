/**
 * Eyelids and eye bags from lightness profiles across the lid and under the eye.
 *  - Eyelids: at five places along the upper lid, the darkest line (ridge depth, dark-line filter) between
 *    1.2 mm above the lid margin (clear of the lashes) and 1.5 mm below the brow. A fold (double lid) has a
 *    crease there; no crease in most places is a single lid. A crease that keeps its distance from the
 *    margin to the inner corner is parallel; one that closes in on the margin toward the inner corner
 *    (the fold starting from the inner canthus) is scalloped.
 *  - Eye pouch: below the lower lid, the lid-cheek groove that bounds a bag: a dark line 3 to 12 mm under
 *    the lid margin, found at three places along the eye.
 */
import { EYELID, POUCH } from '../tuning.ts';
import type { P2 } from './frame.ts';
import type { RidgeField } from './ridges.ts';

/** Upper lid margin and lower brow edge, outer to inner, per side (mesh indices). */
const LID = { right: [246, 161, 160, 159, 158, 157, 173], left: [466, 388, 387, 386, 385, 384, 398] };
const BROW = { right: [46, 53, 52, 65, 55], left: [276, 283, 282, 295, 285] };
/** Lower lid margin, outer to inner. */
const LOWER = { right: [33, 7, 163, 144, 145, 153, 154, 155, 133], left: [263, 249, 390, 373, 374, 380, 381, 382, 362] };

/** The point a fraction t (0..1) along a polyline. */
export function along(pts: readonly P2[], t: number): P2 {
  const seg: number[] = [];
  let total = 0;
  for (let i = 1; i < pts.length; i++) { const d = Math.hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]); seg.push(d); total += d; }
  let rest = t * total;
  for (let i = 0; i < seg.length; i++) {
    if (rest <= seg[i] || i === seg.length - 1) { const f = seg[i] ? Math.min(1, rest / seg[i]) : 0; return [pts[i][0] + (pts[i + 1][0] - pts[i][0]) * f, pts[i][1] + (pts[i + 1][1] - pts[i][1]) * f]; }
    rest -= seg[i];
  }
  return pts[pts.length - 1] as P2;
}

/** The deepest ridge pixel between two points (from a to b, skipping `from` px and stopping `to` px short). */
export function deepestOn(field: RidgeField, a: P2, b: P2, from: number, to: number): { depth: number; at: number } {
  const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
  let best = { depth: 0, at: -1 };
  for (let t = from; t <= len - to; t += 0.5) {
    const x = Math.round(a[0] + ((b[0] - a[0]) * t) / len), y = Math.round(a[1] + ((b[1] - a[1]) * t) / len);
    if (x < 0 || y < 0 || x >= field.w || y >= field.h) continue;
    const d = field.depth[y * field.w + x];
    if (d > best.depth) best = { depth: d, at: t };
  }
  return best;
}

export interface Eyelid {
  /** 0 single, 1 parallel double, 2 scalloped double. */
  type: number;
  /** Crease depth (L*) at each of the five places, outer to inner; 0 where none. */
  depths: number[];
  /** Crease-to-margin distance (mm) where found. */
  gaps: number[];
}

export function eyelid(mesh: readonly P2[], side: 'right' | 'left', field: RidgeField, s: number): Eyelid {
  const lid = LID[side].map((i) => mesh[i]), brow = BROW[side].map((i) => mesh[i]);
  const depths: number[] = [], gaps: number[] = [];
  for (const t of EYELID.places) {
    const a = along(lid, t), b = along(brow, t);
    const hit = deepestOn(field, a, b, 1.2 * s, 1.5 * s);
    const found = hit.depth >= EYELID.minDepth;
    depths.push(found ? hit.depth : 0);
    gaps.push(found ? hit.at / s : NaN);
  }
  const found = depths.filter((d) => d > 0).length;
  if (found < EYELID.minFound) return { type: 0, depths, gaps };
  // Inner places (last two) against the middle ones.
  const mean = (v: number[]) => { const f = v.filter((x) => !Number.isNaN(x)); return f.length ? f.reduce((p, q) => p + q, 0) / f.length : NaN; };
  const inner = mean(gaps.slice(3)), middle = mean(gaps.slice(1, 3));
  const type = Number.isNaN(inner) || Number.isNaN(middle) || inner >= EYELID.parallel * middle ? 1 : 2;
  return { type, depths, gaps };
}

export interface Pouch { depth: number; found: number }

/** The lid-cheek groove under one eye: its mean depth where found and at how many of three places. */
export function eyePouch(mesh: readonly P2[], side: 'right' | 'left', field: RidgeField, s: number): Pouch {
  const lower = LOWER[side].map((i) => mesh[i]);
  const down = ((): P2 => {
    const a = mesh[168], b = mesh[152], d = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
    return [(b[0] - a[0]) / d, (b[1] - a[1]) / d];
  })();
  let sum = 0, found = 0;
  for (const t of [0.3, 0.5, 0.7]) {
    const a = along(lower, t);
    const b: P2 = [a[0] + down[0] * POUCH.to * s, a[1] + down[1] * POUCH.to * s];
    const hit = deepestOn(field, a, b, POUCH.from * s, 0);
    if (hit.depth >= POUCH.minDepth) { sum += hit.depth; found++; }
  }
  return { depth: found ? sum / found : 0, found };
}
