/**
 * What the learned garment parse (learned.ts) knows of one superpixel: its colour and texture, the matte,
 * where it lies on the body (in torso lengths from the shoulders, along the body's axis; distances to the
 * arm and leg bones), where it lies against the face, how its colour differs from the face's skin, the
 * torso's, the thighs', the shins' and the backdrop's, the hair mask, detected bag and person boxes, the
 * face parser's hat, hair, cloth, skin and background around the largest faces (head-parsing.ts), the
 * label the rules (rules.ts) gave it, the lower garment's shape against the legs (legs.ts), its place
 * against the head (face box, top of the silhouette) and its surroundings at the garment's scale
 * (surroundings.ts: above and below it, the silhouette's row through it, skin between it and the feet). One row of FEATURES.length numbers per region.
 */
import { labDistance } from '../../../image/colour.ts';
import type { Face } from '../../../vision/faces/detect.ts';
import { mid, segmentDistance, type BodyFrame, type Pt } from './body-frame.ts';
import type { DetectedObject } from './human-run.ts';
import { HEAD_CLASSES, type HeadParsing } from './head-parsing.ts';
import { LEG_PHOTO_FEATURES, legShape, NO_LEGS, type LegShape } from './legs.ts';
import { LABELS, L, medianLab, MISSING, type Scene } from './scene.ts';
import { SURROUNDING_FEATURES, surroundings } from './surroundings.ts';
import { FEATURE_SHAPES } from './learned-tuning.ts';


const LIMBS = ['upperArm', 'forearm', 'thigh', 'shin'] as const;
const REFERENCES = ['skin', 'torso', 'thigh', 'shin'] as const;

export const FEATURES: readonly string[] = [
  'L', 'a', 'b', 'chroma', 'sdL', 'sda', 'sdb', 'gradL', 'alpha', 'mainForeground', 'area', 'aspect',
  ...LABELS.map((l) => `rule:${l}`),
  'person', 'hasFrame', 'hasFace', 'hipsSeen', 'legsSeen', 'anklesSeen',
  'across', 'acrossAbs', 'along', 'top', 'bottom', 'belowHips', 'belowKnees', 'belowAnkles', 'torsoDist',
  ...LIMBS.flatMap((l) => [`${l}Dist`, `${l}T`]),
  'faceDx', 'faceDy', 'faceDist',
  ...REFERENCES.flatMap((r) => [`${r}dE`, `${r}dL`, `${r}da`, `${r}db`]),
  'backdropdE', 'hair', 'bagBox', 'personBox',
  'imageY', 'imageX',
  'pieceTop', 'pieceBottom', 'pieceLeft', 'pieceRight', 'pieceArea', 'crotchMatte',
  ...HEAD_CLASSES.map((c) => `head:${c}`), 'head:covered',
  // The lower garment's shape against the legs (legs.ts), the photo's: matte and cloth of the thighs'
  // colour at the gap between the legs and on the leg lines, rules' skin on them, hem heights, runs and
  // width of that cloth across the thighs and at the knees.
  ...LEG_PHOTO_FEATURES,
  // The region's: height along the legs (0 hips, 1 knees, 2 ankles), place across the gap between the
  // leg lines (0 middle, 1 on a leg line; and in torso lengths), how far down its piece of like colour covers the gap and the legs.
  'legT', 'gapPosAbs', 'gapDist', 'pieceGapT', 'pieceLegT',
  // Against the head: the region's and its piece's top, bottom and width against the face box, and its
  // centre against the top of the silhouette above the face (a hat is the top of the silhouette).
  'topVsFace', 'bottomVsFace', 'pieceTopFace', 'pieceBottomFace', 'pieceWidthFace', 'vsHeadTop',
  // Its surroundings at the garment's scale (surroundings.ts): above and below it, the silhouette's row
  // through it, its piece's span along the legs and the skin between that piece and the feet.
  ...SURROUNDING_FEATURES,
];

export interface FeatureInput {
  s: Scene;
  /** Regions of the main subject. */
  fg: Uint8Array;
  person: boolean;
  frame: BodyFrame | null;
  face?: Face;
  /** 0..255 at work size. */
  hair?: Uint8Array;
  /** The face parser's classes at work size, when a face was parsed. */
  heads?: HeadParsing;
  objects: DetectedObject[];
}

/** A row FEATURES.length wide per region of `regions`, in that order. */
export function regionFeatures(f: FeatureInput, regions: readonly number[]): Float32Array {
  const { s, fg, frame, face } = f;
  const R = s.regions.length, F = FEATURES.length, n = s.width * s.height;
  const out = new Float32Array(regions.length * F).fill(MISSING);
  // Texture: spread of each Lab channel and the mean lightness gradient inside the region.
  const sq = new Float64Array(R * 3), grad = new Float64Array(R), hair = new Float64Array(R);
  const heads = f.heads && f.heads.width === s.width && f.heads.height === s.height ? f.heads : undefined;
  const H = HEAD_CLASSES.length, head = new Float64Array(heads ? R * (H + 1) : 0);
  // The per-pixel pass reads flat arrays and locals only (it visits every work pixel).
  const { sp, lab, width } = s, hairPlane = f.hair;
  const means = new Float64Array(3 * R);
  for (let r = 0; r < R; r++) for (let c = 0; c < 3; c++) means[3 * r + c] = s.regions[r].lab[c];
  const planes = heads ? HEAD_CLASSES.map((c) => heads.planes[c]) : [];
  for (let i = 0; i < n; i++) {
    const r = sp[i];
    for (let c = 0; c < 3; c++) { const d = lab[i * 3 + c] - means[r * 3 + c]; sq[r * 3 + c] += d * d; }
    const x = i % width;
    const gx = x + 1 < width ? lab[(i + 1) * 3] - lab[i * 3] : 0, gy = i + width < n ? lab[(i + width) * 3] - lab[i * 3] : 0;
    grad[r] += Math.hypot(gx, gy);
    if (hairPlane && hairPlane[i] >= 128) hair[r]++;
    if (heads) {
      for (let c = 0; c < H; c++) head[r * (H + 1) + c] += planes[c][i];
      head[r * (H + 1) + H] += heads.covered[i];
    }
  }
  const unit = frame ? frame.torso : Math.max(s.width, s.height) / FEATURE_SHAPES.framelessUnit;
  const neck = frame ? mid(...frame.shoulders) : null, pelvis = frame ? mid(...frame.hips) : null;
  // The body's axis (neck to pelvis) and the across direction, so leaning bodies read as upright ones.
  const axis = neck && pelvis ? norm({ x: pelvis.x - neck.x, y: pelvis.y - neck.y }) : { x: 0, y: 1 };
  const refs = frame ? references(f, frame) : null;
  const around = [...fg.keys()].filter((r) => !fg[r]);
  const backdrop = medianLab(s, around.length > FEATURE_SHAPES.backdropRegions ? around : []);
  const bags = f.objects.filter((o) => ['handbag', 'backpack', 'suitcase'].includes(o.label));
  const people = f.objects.filter((o) => o.label === 'person');
  const inBox = (o: DetectedObject, p: Pt) => p.x >= o.box.x0 && p.x <= o.box.x0 + o.box.w && p.y >= o.box.y0 && p.y <= o.box.y0 + o.box.h;
  const crotch = frame ? crotchMatte(s, frame) : MISSING;
  const work = pieceWork(s, fg);
  const legs: LegShape = frame ? legShape(s, fg, frame, refs?.thigh ?? null) : NO_LEGS(R);
  const headTop = face ? silhouetteTop(s, fg, face) : MISSING;
  regions.forEach((r, at) => {
    const g = s.regions[r], row = at * F, N = Math.max(1, g.n);
    let k = 0;
    const put = (v: number) => { out[row + k++] = v; };
    const [Lm, am, bm] = g.lab;
    put(Lm); put(am); put(bm); put(Math.hypot(am, bm));
    for (let c = 0; c < 3; c++) put(Math.sqrt(sq[r * 3 + c] / N));
    put(grad[r] / N);
    put(s.alpha[r]); put(fg[r]); put(g.n / (unit * unit));
    put((g.y1 - g.y0 + 1) / (g.x1 - g.x0 + 1));
    for (let l = 0; l < LABELS.length; l++) put(s.label[r] === l ? 1 : 0);
    put(f.person ? 1 : 0); put(frame ? 1 : 0); put(face ? 1 : 0);
    put(frame?.hipsSeen ? 1 : 0); put(frame ? frame.legsSeen : 0); put(frame?.anklesSeen ? 1 : 0);
    if (frame && neck && pelvis) {
      const dx = g.x - neck.x, dy = g.y - neck.y;
      const along = (dx * axis.x + dy * axis.y) / unit, across = (dx * axis.y - dy * axis.x) / unit;
      put(across); put(Math.abs(across)); put(along);
      put((g.y0 - neck.y) / unit); put((g.y1 - neck.y) / unit);
      put((g.y - pelvis.y) / unit);
      put((g.y - (frame.knees[0].y + frame.knees[1].y) / 2) / unit);
      put((g.y - (frame.ankles[0].y + frame.ankles[1].y) / 2) / unit);
      put(segmentDistance(g, neck, pelvis).d / unit);
      const bones: Record<(typeof LIMBS)[number], [Pt, Pt][]> = {
        upperArm: [0, 1].map((i) => [frame.shoulders[i], frame.elbows[i]]),
        forearm: [0, 1].map((i) => [frame.elbows[i], frame.wrists[i]]),
        thigh: [0, 1].map((i) => [frame.hips[i], frame.knees[i]]),
        shin: [0, 1].map((i) => [frame.knees[i], frame.ankles[i]]),
      };
      for (const l of LIMBS) {
        const best = bones[l].map(([a, b]) => segmentDistance(g, a, b)).sort((p, q) => p.d - q.d)[0];
        put(best.d / unit); put(best.t);
      }
    } else k += 9 + LIMBS.length * 2;
    if (face) {
      const fx = face.box.x0 + face.box.w / 2, fy = face.box.y0 + face.box.h / 2;
      put((g.x - fx) / face.box.w); put((g.y - fy) / face.box.h); put(Math.hypot(g.x - fx, g.y - fy) / face.box.w);
    } else k += 3;
    for (const name of REFERENCES) {
      const c = refs ? refs[name] : null;
      if (c) { put(labDistance(g.lab, c)); put(Lm - c[0]); put(am - c[1]); put(bm - c[2]); } else k += 4;
    }
    if (backdrop) put(labDistance(g.lab, backdrop)); else k++;
    put(hair[r] / N);
    put(Math.max(0, ...bags.filter((o) => inBox(o, g)).map((o) => o.score)));
    put(Math.max(0, ...people.filter((o) => inBox(o, g)).map((o) => o.score)));
    put(g.y / s.height); put(g.x / s.width);
    // The piece of like colour around the region (seeded flood through the subject): how far it reaches
    // up, down and across (a coat's colour goes on below the hips; a skirt's does not split in two).
    const piece = pieceOf(r, work, legs);
    const oy = neck ? neck.y : 0, ox = neck ? neck.x : s.width / 2;
    put((piece.y0 - oy) / unit); put((piece.y1 - oy) / unit); put((piece.x0 - ox) / unit); put((piece.x1 - ox) / unit); put(piece.n / (unit * unit));
    put(crotch);
    if (heads) {
      for (let c = 0; c < H; c++) put(head[r * (H + 1) + c] / 255 / N);
      put(head[r * (H + 1) + H] / N);
    } else k += H + 1;
    const leg = frame ? legs.place(g) : null;
    // The photo's leg readings only on the lower body: above it they would only tell photos apart (the
    // model learnt hats by photo with them on every region).
    for (const v of legs.photo) put(leg && leg.t > FEATURE_SHAPES.legReadingsFrom ? v : MISSING);
    if (leg) {
      put(leg.t); put(leg.gap); put(leg.dist); put(piece.gapT); put(piece.legT);
    } else k += 5;
    if (face) {
      const fy = face.box.y0, fh = face.box.h, fw = face.box.w;
      put((g.y0 - fy) / fh); put((g.y1 - fy) / fh);
      put((piece.y0 - fy) / fh); put((piece.y1 - fy) / fh); put((piece.x1 - piece.x0 + 1) / fw);
      put(headTop === MISSING ? MISSING : (g.y - headTop) / fh);
    } else k += 6;
    if (frame) surroundings(s, fg, frame, legs, axis, r, piece, (q) => work.seen[q] === piece.stamp, put);
    else k += SURROUNDING_FEATURES.length;
    if (k !== F) throw new Error(`regionFeatures wrote ${k} of ${F} features`);
  });
  return out;
}

/** Bounds and area of r and the regions reachable from it through the subject's regions within FEATURE_SHAPES.pieceDE of r's colour. */
function pieceOf(r: number, work: PieceWork, legs: LegShape) {
  const limit = FEATURE_SHAPES.pieceDE * FEATURE_SHAPES.pieceDE;
  const { seen, stack, lab, start, next, box, size } = work;
  const { gapT, legT } = legs;
  const l0 = lab[3 * r], a0 = lab[3 * r + 1], b0 = lab[3 * r + 2];
  const stamp = ++work.stamp;
  let top = 0;
  stack[top++] = r; seen[r] = stamp;
  let x0 = box[4 * r], y0 = box[4 * r + 1], x1 = box[4 * r + 2], y1 = box[4 * r + 3], n = 0, pieceGapT = 0, pieceLegT = 0;
  while (top) {
    const q = stack[--top];
    n += size[q];
    if (gapT[q] > pieceGapT) pieceGapT = gapT[q];
    if (legT[q] > pieceLegT) pieceLegT = legT[q];
    if (box[4 * q] < x0) x0 = box[4 * q]; if (box[4 * q + 1] < y0) y0 = box[4 * q + 1]; if (box[4 * q + 2] > x1) x1 = box[4 * q + 2]; if (box[4 * q + 3] > y1) y1 = box[4 * q + 3];
    for (let e = start[q], end = start[q + 1]; e < end; e++) {
      const t = next[e];
      if (seen[t] === stamp) continue;
      const dl = lab[3 * t] - l0, da = lab[3 * t + 1] - a0, db = lab[3 * t + 2] - b0;
      if (dl * dl + da * da + db * db < limit) { seen[t] = stamp; stack[top++] = t; }
    }
  }
  return { x0, y0, x1, y1, n, gapT: pieceGapT, legT: pieceLegT, stamp };
}

/**
 * Scratch space for pieceOf, shared by the regions of one photo (the floods are many; allocation is not),
 * and the scene as flat arrays: each region's Lab, and its foreground neighbours in their order (CSR).
 * Same floods as over s.regions and s.neighbours, in about a third of the time (~300 ms a photo before).
 */
interface PieceWork {
  seen: Int32Array; stack: Int32Array; stamp: number; lab: Float64Array; start: Int32Array; next: Int32Array;
  /** Each region's bounding box (x0, y0, x1, y1) and pixel count. */
  box: Float64Array; size: Float64Array;
}

function pieceWork(s: Scene, fg: Uint8Array): PieceWork {
  const R = s.regions.length;
  const lab = new Float64Array(3 * R), start = new Int32Array(R + 1), box = new Float64Array(4 * R), size = new Float64Array(R);
  for (let q = 0; q < R; q++) {
    const g = s.regions[q], c = g.lab;
    lab[3 * q] = c[0]; lab[3 * q + 1] = c[1]; lab[3 * q + 2] = c[2];
    box[4 * q] = g.x0; box[4 * q + 1] = g.y0; box[4 * q + 2] = g.x1; box[4 * q + 3] = g.y1; size[q] = g.n;
    let n = 0;
    for (const t of s.neighbours[q]) if (fg[t]) n++;
    start[q + 1] = start[q] + n;
  }
  const next = new Int32Array(start[R]);
  for (let q = 0, e = 0; q < R; q++) for (const t of s.neighbours[q]) if (fg[t]) next[e++] = t;
  return { seen: new Int32Array(R), stack: new Int32Array(R), stamp: 0, lab, start, next, box, size };
}

/** Mean matte on the line between the legs from a third of the way down the thighs to the knees: low where trouser legs (or bare legs) part. */
function crotchMatte(s: Scene, frame: BodyFrame): number {
  const top = mid(...frame.hips), bottom = mid(...frame.knees);
  let sum = 0, n = 0;
  for (let t = FEATURE_SHAPES.crotchFrom; t <= 1; t += FEATURE_SHAPES.crotchStep) {
    const x = Math.round(top.x + (bottom.x - top.x) * t), y = Math.round(top.y + (bottom.y - top.y) * t);
    if (x < 0 || y < 0 || x >= s.width || y >= s.height) continue;
    sum += s.alpha[s.sp[y * s.width + x]]; n++;
  }
  return n ? sum / n : MISSING;
}

/** The first foreground row above the face's centre, in the face's column (the top of the head or the hat). */
function silhouetteTop(s: Scene, fg: Uint8Array, face: Face): number {
  const x = Math.min(s.width - 1, Math.max(0, Math.round(face.box.x0 + face.box.w / 2)));
  const to = Math.min(s.height, Math.max(0, Math.round(face.box.y0 + face.box.h / 2)));
  for (let y = 0; y < to; y++) if (fg[s.sp[y * s.width + x]]) return y;
  return to;
}

const norm = (v: Pt) => { const l = Math.hypot(v.x, v.y) || 1; return { x: v.x / l, y: v.y / l }; };

/**
 * Reference colours of the person: the face's skin (what the rules called face or skin near the face),
 * the torso's middle, the thighs' middles and the shins' middles (foreground regions near those points,
 * skin, hair and face left out).
 */
function references(f: FeatureInput, frame: BodyFrame) {
  const { s, fg } = f;
  const near = (pts: Pt[], radius: number) => [...fg.keys()].filter((r) => fg[r] && s.label[r] !== L.face && s.label[r] !== L.hair && s.label[r] !== L.skin
    && pts.some((p) => Math.hypot(s.regions[r].x - p.x, s.regions[r].y - p.y) < radius));
  const lerp = (a: Pt, b: Pt, t: number) => ({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });
  const neck = mid(...frame.shoulders), pelvis = mid(...frame.hips);
  const skin = [...fg.keys()].filter((r) => fg[r] && (s.label[r] === L.skin || s.label[r] === L.face));
  return {
    skin: medianLab(s, skin),
    torso: medianLab(s, near([lerp(neck, pelvis, FEATURE_SHAPES.torsoAt)], frame.torso * FEATURE_SHAPES.torsoRadius)),
    thigh: medianLab(s, near([0, 1].map((i) => lerp(frame.hips[i], frame.knees[i], FEATURE_SHAPES.thighAt)), frame.torso * FEATURE_SHAPES.thighRadius)),
    shin: medianLab(s, near([0, 1].map((i) => lerp(frame.knees[i], frame.ankles[i], FEATURE_SHAPES.shinAt)), frame.torso * FEATURE_SHAPES.shinRadius)),
  };
}
