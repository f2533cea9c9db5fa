/**
 * A region's surroundings at the garment's scale, for the learned parse (apparel-features.ts): what lies a
 * quarter torso above and below it along the body's axis (colour contrast, the rules' skin), how much of the
 * silhouette's width at its height its piece of like colour spans and in how many runs the silhouette
 * crosses there (a skirt spans the lower body in one run; trouser legs part), where its piece starts and
 * ends along the legs (0 hips, 1 knees, 2 ankles), and whether skin shows between the piece's bottom and
 * the feet (a skirt or shorts over bare legs; trousers reach the shoes).
 */
import { labDistance } from '../../../image/colour.ts';
import { mid, type BodyFrame, type Pt } from './body-frame.ts';
import type { LegShape } from './legs.ts';
import { L, MISSING, type Scene } from './scene.ts';
import { SURROUNDINGS } from './learned-tuning.ts';

export const SURROUNDING_FEATURES: readonly string[] = [
  'updE', 'upSkin', 'downdE', 'downSkin',
  'rowRuns', 'rowWidth', 'rowShare',
  'pieceTopT', 'pieceBottomT',
  'underdE', 'underSkin', 'skinBelow', 'skinBelowGap',
];

/** The rows a piece of like colour spans: its first (y0) and last (y1, inclusive). */
export interface PieceRows { y0: number; y1: number }

/**
 * The features of region r (SURROUNDING_FEATURES order) into `put`. `inPiece(q)` says whether region q
 * is in r's piece of like colour; `axis` is the body's unit axis (neck to pelvis).
 */
export function surroundings(s: Scene, fg: Uint8Array, frame: BodyFrame, legs: LegShape, axis: Pt, r: number, piece: PieceRows, inPiece: (q: number) => boolean, put: (v: number) => void) {
  const g = s.regions[r], unit = frame.torso, W = s.width, H = s.height;
  const regionAt = (x: number, y: number) => {
    const xi = Math.round(x), yi = Math.round(y);
    return xi >= 0 && yi >= 0 && xi < W && yi < H ? s.sp[yi * W + xi] : -1;
  };
  for (const dir of [-1, 1]) {
    const q = regionAt(g.x + dir * SURROUNDINGS.step * unit * axis.x, g.y + dir * SURROUNDINGS.step * unit * axis.y);
    if (q < 0 || !fg[q]) { put(MISSING); put(MISSING); continue; }
    put(labDistance(g.lab, s.regions[q].lab)); put(s.label[q] === L.skin ? 1 : 0);
  }
  // The silhouette's row through the region, across the body: centred on the legs' middle below the hips,
  // on the neck–pelvis line above.
  const y = Math.round(g.y);
  const hips = mid(...frame.hips), knees = mid(...frame.knees), shoulders = mid(...frame.shoulders);
  const centre = y > hips.y ? hips.x + (knees.x - hips.x) * Math.min(1, (y - hips.y) / Math.max(1, knees.y - hips.y))
    : shoulders.x + (hips.x - shoulders.x) * Math.max(0, Math.min(1, (y - shoulders.y) / Math.max(1, hips.y - shoulders.y)));
  const x0 = Math.max(0, Math.round(centre - SURROUNDINGS.halfWindow * unit)), x1 = Math.min(W - 1, Math.round(centre + SURROUNDINGS.halfWindow * unit));
  let runs = 0, len = 0, on = 0, mine = 0;
  for (let x = x0; x <= x1 + 1; x++) {
    const q = x <= x1 ? s.sp[y * W + x] : -1;
    if (q >= 0 && fg[q]) { len++; on++; if (inPiece(q)) mine++; } else { if (len >= SURROUNDINGS.minRun) runs++; len = 0; }
  }
  put(runs); put(on / unit); put(on ? mine / on : 0);
  put(legs.place({ x: g.x, y: piece.y0 }).t); put(legs.place({ x: g.x, y: piece.y1 }).t);
  // Below the piece: what it meets (a quarter torso under its bottom, in the region's column), and the
  // share of skin down to the ankles (or the shoes), with how far below the piece the first skin is.
  const under = regionAt(g.x, piece.y1 + SURROUNDINGS.step * unit);
  if (under < 0 || !fg[under]) { put(MISSING); put(MISSING); } else { put(labDistance(g.lab, s.regions[under].lab)); put(s.label[under] === L.skin ? 1 : 0); }
  const feet = Math.min(H - 1, Math.round((frame.ankles[0].y + frame.ankles[1].y) / 2 + SURROUNDINGS.feetBelow * unit));
  const xc = Math.round(g.x);
  let seen = 0, skin = 0, first = -1;
  for (let yy = piece.y1 + 1; yy <= feet; yy++) {
    const q = s.sp[yy * W + xc];
    if (!fg[q] || inPiece(q)) continue;
    if (s.label[q] === L.shoes) break;
    seen++;
    if (s.label[q] === L.skin) { skin++; if (first < 0) first = yy; }
  }
  put(seen ? skin / seen : MISSING); put(first < 0 ? MISSING : (first - piece.y1) / unit);
}
