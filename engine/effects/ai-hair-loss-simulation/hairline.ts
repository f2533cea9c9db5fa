/**
 * Where hair is lost at each stage, as a field over the head measured from the mesh.
 *
 * The head frame: `u` across the face in half face widths (mesh 234 to 454; 0 at their midpoint), `v` up
 * from the brows' upper edge in forehead heights. The mesh's forehead top (point 10) lies well below a
 * full hairline, so a forehead height is 1.6 x brows-to-point-10: the untouched hairline is near v = 1, the
 * top of the skull near v = 1.6 and its sides near |u| = 1
 * (docs/experiments/ai-hair-loss-simulation.md#a-forehead-height-is-16-times-brows-to-mesh-10).
 *
 * A stage is a loss field: at each point the share of strands lost, 0..1 (strands.ts turns it into which
 * strands go). Men follow Norwood: a hairline that recedes at the temples first (an M), then in the middle,
 * the crown thinning from stage 4, the two joined from stage 6 and at 7 only the horseshoe at the sides and
 * back left. Women follow Ludwig: the front line kept, a parting that widens and diffuse thinning around
 * it over the top. Each stage's field is the pointwise maximum of its own shape and the stage before's, so
 * a later stage loses every strand an earlier one lost and more (strictly ordered by construction).
 */
import type { Face } from '../../vision/faces/detect.ts';
import { LEFT_BROW, RIGHT_BROW } from '../../vision/faces/landmarks.ts';
import { poseFromMesh } from '../../vision/faces/pose.ts';

export type Series = 'man' | 'woman';
export interface Level { series: Series; stage: number }

export const STAGES = 7;

/** `man_3` → { series: 'man', stage: 3 }; anything else → null. */
export function parseLevel(level: string): Level | null {
  const m = /^(man|woman)_([1-7])$/.exec(level);
  return m ? { series: m[1] as Series, stage: Number(m[2]) } : null;
}

/** The head frame of one face, in image pixels. */
export interface HeadFrame {
  /** Origin: the brows' upper edge on the line between the face's sides. */
  ox: number; oy: number;
  /** Unit vectors across the face (toward the subject's left) and up it. */
  ax: [number, number]; up: [number, number];
  /** Half the face width and the forehead height, in pixels. */
  halfWidth: number; forehead: number;
  /** u of the face's midline at the forehead (mesh 10), where the hairline and the parting are centred. */
  mid: number;
  /** Sine of how far the face looks down (the mesh's pitch; 0 looking level or up, or unknown). */
  down?: number;
}

/** A forehead height (brows to hairline) over the brows-to-mesh-10 distance: see the module comment. */
export const FOREHEAD_PER_MESH = 1.6;

const BROW_TOPS = [...RIGHT_BROW.slice(0, 5), ...LEFT_BROW.slice(0, 5)];

export function headFrame(mesh: NonNullable<Face['mesh']>): HeadFrame {
  const r = mesh[234], l = mesh[454], top = mesh[10];
  const dx = l[0] - r[0], dy = l[1] - r[1], width = Math.hypot(dx, dy);
  const ax: [number, number] = [dx / width, dy / width];
  const up: [number, number] = [ax[1], -ax[0]];
  const cx = (r[0] + l[0]) / 2, cy = (r[1] + l[1]) / 2;
  // The brows' upper edge, measured along `up` from the sides' midpoint.
  let brow = 0;
  for (const i of BROW_TOPS) brow += (mesh[i][0] - cx) * up[0] + (mesh[i][1] - cy) * up[1];
  brow /= BROW_TOPS.length;
  const ox = cx + brow * up[0], oy = cy + brow * up[1];
  const forehead = Math.max(1, FOREHEAD_PER_MESH * ((top[0] - ox) * up[0] + (top[1] - oy) * up[1]));
  const halfWidth = width / 2;
  const mid = ((top[0] - ox) * ax[0] + (top[1] - oy) * ax[1]) / halfWidth;
  const down = Math.sin((Math.max(0, poseFromMesh(mesh).pitch) * Math.PI) / 180);
  return { ox, oy, ax, up, halfWidth, forehead, mid, down };
}

/** Image point → head frame (u, v). */
export function toHead(f: HeadFrame, x: number, y: number): [number, number] {
  const dx = x - f.ox, dy = y - f.oy;
  return [(dx * f.ax[0] + dy * f.ax[1]) / f.halfWidth, (dx * f.up[0] + dy * f.up[1]) / f.forehead];
}

/** Head frame → image point. */
export function fromHead(f: HeadFrame, u: number, v: number): [number, number] {
  return [f.ox + u * f.halfWidth * f.ax[0] + v * f.forehead * f.up[0], f.oy + u * f.halfWidth * f.ax[1] + v * f.forehead * f.up[1]];
}

const clamp01 = (t: number) => (t < 0 ? 0 : t > 1 ? 1 : t);
/** Smoothstep: 0 below 0, 1 above 1, an S between. */
export const smooth = (t: number) => { const c = clamp01(t); return c * c * (3 - 2 * c); };

/**
 * The skull as the frame sees it: an ellipse centred at (0, SKULL.v0) reaching |u| = SKULL.a and v = top.
 * Scalp is drawn inside it; hair lost outside it shows what is behind the hair (background).
 */
export const SKULL = { v0: 0.45, a: 1.05, top: 1.6 };

/**
 * The skull's span across the frame (u): its centre `u0` and half width `a`. Frontal, the skull is centred
 * between the face's sides (mesh 234, 454) and reaches SKULL.a. A turned head's sides come close together
 * in the photo while the skull behind them does not: the cranium runs back past the near ear, and the
 * frame's usual ellipse left the crown outside the head (hair there, lost, was replaced by the backdrop, as
 * hair standing in the air is). The span of the skull seen turned, from the turn measured by where the
 * forehead's middle (`mid`) lies between the sides: the forehead stands FRONT half face widths ahead of
 * them, so tan(yaw) = mid / FRONT; the skull (SKULL.a wide, DEPTH deep in true half face widths, its centre
 * BEHIND behind the sides) projects to half width sqrt(a² + DEPTH² tan²) and centre -BEHIND tan in the
 * frame's (foreshortened) half face widths. Its usual top (v) rises with the turn as hypot(1, tan): a
 * turned face's forehead height is shorter against its true width than a frontal one's
 * (docs/experiments/ai-hair-loss-simulation.md#a-turned-heads-skull-reaches-back-and-stands-taller).
 */
export interface SkullSpan {
  u0: number; a: number; top: number;
  /** How much of `top` a bowed head's rise is (skullSpan's `down`): the scalp's stages stretch up with it. */
  bow?: number;
}
export const FRONTAL: SkullSpan = { u0: 0, a: SKULL.a, top: SKULL.top };
const SKULL_TURN = { FRONT: 1.2, DEPTH: 1.35, BEHIND: 0.15, MAX_TAN: 2.5 };
export function skullSpan(mid: number, down = 0): SkullSpan {
  const t = Math.max(-SKULL_TURN.MAX_TAN, Math.min(SKULL_TURN.MAX_TAN, mid / SKULL_TURN.FRONT));
  const bowed = SKULL_BOW.BEHIND * Math.max(0, down - SKULL_BOW.FROM);
  return { u0: -SKULL_TURN.BEHIND * t, a: Math.hypot(SKULL.a, SKULL_TURN.DEPTH * t), top: SKULL.top * Math.hypot(1, t) + bowed, bow: bowed };
}
/**
 * A face looking down (sine of the pitch `down`) shows the top of its head: the skull's centre, BEHIND
 * (about 1.1 forehead heights) behind the brows, rises by BEHIND x down in the photo against the brows and
 * the forehead's height barely changes, so the skull's top stands that much higher in v. From FROM on (past
 * level faces' pitch): under it the frame's usual skull, whose top the level faces were tuned on; without
 * it a bowed head's crown was taken for hair standing in the air
 * (docs/experiments/ai-hair-loss-simulation.md#a-bowed-heads-skull-stands-taller-from-12-degrees-of-pitch).
 */
const SKULL_BOW = { BEHIND: 1.1, FROM: Math.sin((12 * Math.PI) / 180) };

/**
 * Norwood stages, in the frame: the middle of the hairline (`mid`, v), how much higher the temples recede
 * (`temple`, added at |u| about 0.6), the crown's loss (`crown`, of strands) and its radius (in half face
 * widths), and how far in the side hair (kept from the horseshoe outward, |u|) still reaches at the top.
 */
const NORWOOD = [
  { mid: 1.0, temple: 0.08, crown: 0, crownR: 0, sides: 0.86, sideTop: 9 },
  { mid: 1.03, temple: 0.18, crown: 0, crownR: 0, sides: 0.86, sideTop: 9 },
  { mid: 1.07, temple: 0.3, crown: 0.15, crownR: 0.25, sides: 0.86, sideTop: 9 },
  { mid: 1.14, temple: 0.32, crown: 0.5, crownR: 0.4, sides: 0.85, sideTop: 9 },
  { mid: 1.26, temple: 0.3, crown: 0.8, crownR: 0.55, sides: 0.84, sideTop: 9 },
  { mid: 1.9, temple: 0.2, crown: 1, crownR: 0.8, sides: 0.8, sideTop: 1.0 },
  { mid: 9, temple: 0, crown: 1, crownR: 1.2, sides: 0.84, sideTop: 0.62 },
];

/**
 * Ludwig stages: the parting's bare width (half face widths), the diffuse loss on top and how far across it
 * reaches (|u|), and the front band (v above the hairline) where strands are kept. Stage 1 already takes a
 * fifth of the top's strands: less left nothing to see on fair hair.
 */
const LUDWIG = [
  { part: 0.05, diffuse: 0.2, spread: 0.42 },
  { part: 0.07, diffuse: 0.28, spread: 0.5 },
  { part: 0.095, diffuse: 0.36, spread: 0.58 },
  { part: 0.13, diffuse: 0.42, spread: 0.65 },
  { part: 0.18, diffuse: 0.55, spread: 0.72 },
  { part: 0.25, diffuse: 0.68, spread: 0.8 },
  { part: 0.34, diffuse: 0.8, spread: 0.88 },
];

/** The width (u) over which a woman's parting's edges thin out into the hair beside it. */
const PART_SOFT = 0.08;
/** The most a woman's top loses off the parting. */
const LUDWIG_MOST = 0.78;
/** A little loss everywhere above the brows on the top and sides per stage: hair thins overall with age. */
const OVERALL = 0.025;
/**
 * The horseshoe's soft edges (across in u, over its top in v): over 0.2 and 0.25 the side hair's edge over
 * the bare dome read as a cut block at man_6 and man_7; over about a third of a forehead height it thins out.
 */
const SIDE_EDGE = { across: 0.32, top: 0.45 };
/** The hairline's soft width (v): strands thin out over it instead of stopping on a line. */
const EDGE = 0.3;
/** No change below this v (the brows and what lies beside them), fully allowed above FLOOR + FLOOR_FADE. */
export const FLOOR = 0.08, FLOOR_FADE = 0.12;

/** Loss of one stage's own shape at (u, v), before the running maximum over earlier stages. */
function stageLoss(series: Series, stage: number, u: number, v: number, mid: number, nearSide = 1): number {
  const x = Math.abs(u - mid);
  const overall = OVERALL * (stage - 1);
  if (series === 'man') {
    const s = NORWOOD[stage - 1];
    // The hairline: the middle height plus the temples' recession, an M peaking at |u| 0.6.
    const temple = s.temple * Math.exp(-(((x - 0.62) / 0.24) ** 2)) + 0.5 * s.temple * smooth((x - 0.35) / 0.4);
    const line = s.mid + temple;
    // Below mid-forehead only the middle recedes: at the temples the hair there hangs from the sides.
    let front = smooth((line - v) / EDGE + 0.5) * Math.max(smooth((v - 0.45) / 0.2), 1 - smooth((x - 0.3) / 0.3));
    // On a turned head's foreshortened near side the front ends where its side hair begins, nearer the
    // midline in the frame (nearSide: the frontal skull's half width over that side's), while the side hair
    // stands whole (sideTop); the horseshoe, the crown and the late stages keep the frontal measure
    // (docs/experiments/ai-hair-loss-simulation.md#the-near-sides-hairline-ends-where-its-side-hair-begins).
    if (nearSide > 1 && s.sideTop > 2) front *= 1 - smooth((x * nearSide - s.sides) / 0.2);
    // The horseshoe: side hair beyond `sides` is kept up to sideTop, its top rising toward the back of the
    // head (further out in the frame) and both its edges thinning out over a band, as a fringe of
    // remaining hair does, not cut on a line.
    const out = x - s.sides;
    const side = smooth((out + 0.05) / SIDE_EDGE.across) * smooth((s.sideTop + 0.7 * Math.max(0, out) - v) / SIDE_EDGE.top + 0.25);
    front *= 1 - side;
    // The crown, seen from the front as the top of the head thinning, then bare.
    const d = Math.hypot(x / 1.2, (v - (SKULL.top - 0.08)) / 0.5);
    const crown = s.crown * smooth((s.crownR - d) / 0.25 + 0.5) * (1 - side);
    return Math.max(front, crown, overall);
  }
  const s = LUDWIG[stage - 1];
  // The front line is kept: loss rises only from the hairline (v about 1) over a band.
  const behindFront = smooth((v - 1.0) / 0.15);
  // The parting: widest behind the front line, narrowing toward the crown; a few strands still cross it.
  const partHalf = (s.part / 2) * (1.25 - 0.55 * smooth((v - 1.0) / 0.6));
  // Its edges thin out over PART_SOFT: over 0.03 the parting read as a stripe cut into the hair.
  const part = 0.75 * smooth((partHalf - x) / PART_SOFT + 0.5);
  const diffuse = s.diffuse * Math.exp(-((x / s.spread) ** 2) * 1.6) * smooth((v - 0.95) / 0.35);
  // Near the parting the hair is thinner still (Olsen's "Christmas tree": wider toward the front).
  const nearPart = Math.min(1, s.diffuse * 1.2) * Math.exp(-(((x - s.part / 2) / (0.05 + s.part)) ** 2));
  // Ludwig thinning leaves hair on top even at stage III: scalp shows through it, never bare but on the parting.
  return Math.max(behindFront * Math.max(part, LUDWIG_MOST * Math.max(diffuse, nearPart)), overall);
}

/**
 * Share of strands lost at (u, v) at this level (0..1), the running maximum over the series' stages so far.
 * `jitter` (frame v) moves the shapes up or down a little at this point, the same at every level, so
 * hairlines and parting edges wander as real ones do; `lift` moves them all, to the person's own hairline
 * (see hairlineLift).
 */
export function lossAt(level: Level, u: number, v: number, mid = 0, jitter = 0, lift = 0, band = OUTSIDE_BAND, skull: SkullSpan = FRONTAL, hangs = false): number {
  // A bowed head's scalp above the hairline is seen stretched up to its taller top: the stages (the crown
  // at the top) are drawn on it as on the usual skull.
  const bow = skull.bow ?? 0;
  const scalpV = (t: number) => (bow > 0 && t > 1 ? 1 + ((t - 1) * (skull.top - bow - 1)) / (skull.top - 1) : t);
  // The stages are drawn on the frontal skull: on a turned head the side of the midline nearer the
  // skull's outline is foreshortened to it, else its side hair at the skull's edge counted as temple hair
  // and went at man_1.
  const near = (t: number) => { const edge = t < mid ? mid - (skull.u0 - skull.a) : skull.u0 + skull.a - mid; return Math.max(1, Math.min(1.6, SKULL.a / Math.max(1e-3, edge))); };
  let loss = 0;
  for (let s = 1; s <= level.stage; s++) loss = Math.max(loss, stageLoss(level.series, s, u + 0.6 * jitter, scalpV(v) + jitter - lift, mid, near(u + 0.6 * jitter)));
  const inside = skullInside(u, v, skull.top, 0.08, skull);
  if (inside >= 1 || level.series === 'woman') return inside * loss * smooth((v - FLOOR) / FLOOR_FADE);
  // Outside the skull the hair stands in the air: a man's goes when the strands where it grows from (the
  // skull's outline below it) all go, it does not thin (thinned, its silhouette against the background
  // would look scratched); a woman's stays. Only hair within `band` skull radii counts as this head's (the
  // parsing takes a dark backdrop above dark hair for more hair; the caller widens it where the person
  // matte says the hair is the person's).
  const r = skullRadius(u, v, skull.top, skull);
  const k = r > ROOT_R ? ROOT_R / r : 1;
  const pu = skull.u0 + (u - skull.u0) * k, pv = v > SKULL.v0 ? SKULL.v0 + (v - SKULL.v0) * k : v;
  // Where long hair `hangs` beside the head it may as well fall from higher up, over the temples and
  // sides: it goes only when the strands at the outline on the way to the crown go too; short hair standing
  // out grows from under it
  // (docs/experiments/ai-hair-loss-simulation.md#hair-beside-the-temples-goes-with-the-top-not-the-temples-kept).
  const hang = hangs ? hangRoot(u, v, skull) : null;
  let root = 0, hung = 0;
  for (let s = 1; s <= level.stage; s++) {
    root = Math.max(root, stageLoss(level.series, s, pu + 0.6 * jitter, scalpV(pv) + jitter - lift, mid, near(pu + 0.6 * jitter)));
    if (hang) hung = Math.max(hung, stageLoss(level.series, s, hang[0] + 0.6 * jitter, scalpV(hang[1]) + jitter - lift, mid, near(hang[0] + 0.6 * jitter)));
  }
  if (hang) root = Math.min(root, hung);
  const out = smooth((Math.max(loss, root) - 0.6) / 0.4) * smooth((band - r) / 0.06);
  return (inside * loss + (1 - inside) * out) * smooth((v - FLOOR) / FLOOR_FADE);
}

/**
 * How far (0..1) a point lies beside the temples and the sides of the head rather than over its top, by its
 * direction from the skull's centre (in the skull's radii): fully up to TEMPLE_SIDE.FULL degrees over the
 * horizontal, none from TEMPLE_SIDE.NONE on.
 */
const TEMPLE_SIDE = { FULL: 60, NONE: 80 };
export function templeSide(u: number, v: number, skull: SkullSpan = FRONTAL): number {
  const x = Math.abs(u - skull.u0) / skull.a, y = Math.max(0, (v - SKULL.v0) / (skull.top - SKULL.v0));
  const deg = (Math.atan2(y, x) * 180) / Math.PI;
  return 1 - smooth((deg - TEMPLE_SIDE.FULL) / (TEMPLE_SIDE.NONE - TEMPLE_SIDE.FULL));
}

/**
 * Where hair hanging from the top of the head would cross into the skull (ROOT_R), on its way from (u, v)
 * to a point HANG_AIM skull radii over the skull's centre; null when that way misses the skull.
 */
const HANG_AIM = 1.0, ROOT_R = 0.97;
function hangRoot(u: number, v: number, skull: SkullSpan): [number, number] | null {
  const b = skull.top - SKULL.v0;
  const px = (u - skull.u0) / skull.a, py = v > SKULL.v0 ? (v - SKULL.v0) / b : 0;
  const dx = -px, dy = HANG_AIM - py;
  const pd = px * dx + py * dy, dd = dx * dx + dy * dy, pp = px * px + py * py;
  const disc = pd * pd - dd * (pp - ROOT_R * ROOT_R);
  if (pp <= ROOT_R * ROOT_R || dd < 1e-9 || disc < 0) return null;
  const t = (-pd - Math.sqrt(disc)) / dd;
  if (t < 0 || t > 1) return null;
  return [skull.u0 + skull.a * (px + t * dx), SKULL.v0 + b * (py + t * dy)];
}

/** The skull ellipse's radius at (u, v): 1 on its outline. */
export function skullRadius(u: number, v: number, top = SKULL.top, skull: SkullSpan = FRONTAL): number {
  const b = top - SKULL.v0;
  return Math.hypot((u - skull.u0) / skull.a, v > SKULL.v0 ? (v - SKULL.v0) / b : 0);
}

/** Hair standing out of the skull further than this (in skull radii) is left alone. */
export const OUTSIDE_BAND = 1.3;

/** Inside the skull ellipse: 1 well inside, 0 outside, soft over `soft` (frame units). */
export function skullInside(u: number, v: number, top = SKULL.top, soft = 0.08, skull: SkullSpan = FRONTAL): number {
  return smooth((1 - skullRadius(u, v, top, skull)) / soft + 0.5);
}

/**
 * How far the stages move up (or down) to start from the person's own hairline `h0` (v where the hair
 * begins over the middle of the forehead), instead of the usual one at v = 1. Kept small: a fringe hides
 * the real line (so not far down), and a hairline already high would leave the early stages nothing to
 * take (so not far up).
 */
export const hairlineLift = (h0: number | null): number => (h0 === null ? 0 : Math.max(-0.15, Math.min(0.1, h0 - 1)));
