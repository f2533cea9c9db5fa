/**
 * One face's skin analysis: the frame (mm scale from the iris), its zones, then every measure of
 * decisions.md from the kernels beside this file. Every code is a threshold on a measured quantity in mm,
 * per cm² or in L*; every confidence is 0.5 at its threshold and grows toward 1 with the margin (grows()
 * for a finding, fades() for an absence), scaled down where the frame is too coarse to see the feature.
 */
import { fitPlane, planeResiduals } from '../../../image/plane-fit.ts';
import { toLab } from '../../../image/colour.ts';
import { gauss as blurPlane } from '../../../image/gauss.ts';
import type { RasterImage } from '../../../image/raster.ts';
import type { Rect } from '../../../image/rect.ts';
import type { Face } from '../../../vision/faces/detect.ts';
import type { FaceParsing, ParsingSample } from '../../../vision/parsing/face-parsing.ts';
import { findBlobs, measureBlob, type Blob, type LabFrame } from './blobs.ts';
import { eyelid, eyePouch } from './eyes.ts';
import { makeFrame, toImage, type Frame, type P2 } from './frame.ts';
import { darkCircle, itaClass, itaMargin, itaOf, meanIn, nth, pigments, quantileIn, quantilesIn, type Pigments } from './pigment.ts';
import { findLines, floorBeside, lineEvidence, ridgeField, type Line, type RidgeField } from './ridges.ts';
import { fineTexture, shineMap, skinType, type SkinType } from './shine.ts';
import { faceMm, skinZones, zoneArea, type ZoneName, type Zones } from './zones.ts';

export interface Scored { value: number; confidence: number }
export type LesionKind = 'acne' | 'closed_comedones' | 'mole' | 'skin_spot';
export const LESION_KINDS: readonly LesionKind[] = ['acne', 'closed_comedones', 'mole', 'skin_spot'];
export type WrinkleName = 'forehead_wrinkle' | 'crows_feet' | 'eye_finelines' | 'glabella_wrinkle' | 'nasolabial_fold';
export type PoreName = 'pores_forehead' | 'pores_left_cheek' | 'pores_right_cheek' | 'pores_jaw';
export type MemberName = 'skin_color' | 'left_eyelids' | 'right_eyelids' | 'eye_pouch' | 'dark_circle' | WrinkleName | PoreName | 'blackhead';

/** A finding's confidence: 0.5 at the threshold, toward 1 as the evidence exceeds it. */
export const grows = (evidence: number, threshold: number) => (evidence < threshold ? 0.5 : 1 - 0.5 * Math.exp(-(evidence - threshold) / threshold));
/** An absence's confidence: toward 1 as the evidence falls below the threshold (1 with none at all). */
export const fades = (evidence: number, threshold: number) => 0.5 + 0.5 * Math.max(0, Math.min(1, 1 - evidence / threshold));
const round3 = (v: number) => Math.round(v * 1000) / 1000;

/**
 * The resolved scale (px/mm) the eye's fine lines need: their finest ridge scale (σ 0.3 mm) is only
 * honoured from σ = 0.6 px (ridgeField), so below 2 px/mm a "fine line" read beside or under the eye is
 * mostly a wider thing: the lid's crease, an eye bag's groove (a 12-year-old's lower-lid crease, 6.2 L*
 * at 1.3 px/mm, was his eye_finelines). There crows_feet and eye_finelines claim only lines deeper than
 * minDepth x (FINE_SCALE / resolved)²: the square is the mildest power that keeps that crease out on the
 * fit half (linear: 4.6 L* there), and deep crow's feet still show (23 L* on a laughing older man at
 * 1.25 px/mm; refusing the members outright below 2 px/mm lost them). Resolved, not sampled: an enlarged
 * or soft photo has the pixels but not the detail, so the scale is the frame's times its sharpness over
 * SHARP_FULL (resolvedScale()). Forehead and glabella lines are deeper and wider, and keep minDepth.
 */
export const FINE_SCALE = 2;
/**
 * Sharpness (sharpness()) of a photo that holds all the detail its scale allows: the shared portraits at
 * their own size read 0.5-1.1 (median 0.63); enlarged 2x, 0.12-0.45.
 */
export const SHARP_FULL = 0.6;
/** Frame px/mm times the share of fine detail the frame holds (sharpness over SHARP_FULL, at most 1). */
export const resolvedScale = (s: number, sharp: number) => s * Math.min(1, sharp / SHARP_FULL);

/**
 * Thresholds, in mm and L* (see the quality script for how they were checked). The field a member reads:
 * 'fine' lines (RIDGE_SIGMAS.fine, with FINE_LINES' rules), 'coarse' folds, or 'all' (withFurrows): the
 * fine lines and, in the zone's core, furrows at the fold scales. Forehead lines read all: an older
 * forehead's creases are furrows 1-3 mm wide, which the fine-line rule (no deeper at the fold scales than
 * at the fine ones) took for shading; near the hairline and brows the fold scales see the hair's and the
 * brows' edges, so only the core reads them.
 */
export const LINES: Record<WrinkleName, { zones: ZoneName[]; field: 'fine' | 'coarse' | 'all'; direction: 'across' | 'down' | 'fold'; tolerance: number; minDepth: number; minLength: number; minScale?: number }> = {
  forehead_wrinkle: { zones: ['forehead'], field: 'all', direction: 'across', tolerance: 25, minDepth: 3, minLength: 12 },
  glabella_wrinkle: { zones: ['glabella'], field: 'fine', direction: 'down', tolerance: 25, minDepth: 3, minLength: 6 },
  crows_feet: { zones: ['rightCrowsFeet', 'leftCrowsFeet'], field: 'fine', direction: 'across', tolerance: 50, minDepth: 3, minLength: 7, minScale: FINE_SCALE },
  eye_finelines: { zones: ['rightUnderEye', 'leftUnderEye'], field: 'fine', direction: 'across', tolerance: 35, minDepth: 3, minLength: 6, minScale: FINE_SCALE },
  nasolabial_fold: { zones: ['rightNasolabial', 'leftNasolabial'], field: 'coarse', direction: 'fold', tolerance: 25, minDepth: 4, minLength: 14 },
};
/**
 * Line rules beyond the thresholds: a line pixel must be no deeper at the fold scales than overCoarse x
 * its fine-scale depth (fine-line members only), and deeper than `noise` robust spreads of the zone's own
 * depth field (the skin's texture, grain and JPEG blocks read as shallow lines everywhere).
 */
export const FINE_LINES = { overCoarse: 1.5, noise: 3 };
/** Ridge scales (σ, mm): fine lines 0.25-0.5 mm wide, folds several mm. */
export const RIDGE_SIGMAS = { fine: [0.3, 0.6], coarse: [1.2, 2.4] };

/** Blob scales (radius, mm) and lesion rules. */
export const BLOBS = {
  /**
   * Scales √2 apart. Sparser sets were faster and worse on the synthetic lesions: five 1.45x apart, acne
   * recall 0.50 and spot precision 0.58; four 1.6x apart, acne recall 0.40 (against 0.56 and 0.70 here).
   */
  lesionRadii: [0.5, 0.7, 1, 1.4, 2, 2.8],
  lesionResponse: 2,
  /** Overlapping dark blobs measured per place (findBlobs' layers): a spot's strongest scale is often not its own. */
  layers: 2,
  /** Robust standard deviations of the skin's own texture a blob must exceed (blobs.ts). */
  noise: 3,
  /**
   * From wideFrom mm of radius the dark search asks wideNoise spreads, not noise: grain's response falls
   * with scale, and what spreads it there is the face's own relief, which hid soft spots of 2-3 mm (spot
   * recall fit 0.67 -> 0.78, check 0.36 -> 0.42, with spot.minOverGrain keeping stubble and shadow out).
   */
  wideFrom: 1.4,
  wideNoise: 2,
  poreRadii: [0.15, 0.22, 0.3, 0.4],
  poreResponse: 1,
  /** Pores need this frame scale (px/mm) to be seen at all. */
  poreScale: 2.5,
  pores: { density: 30, minContrast: 2 },
  blackhead: { minContrast: 8, levels: [0.4, 1.2, 3] },
  /**
   * Acne must also be minOverGrain times redder than the a* grain around it (around()): the fine colour
   * grain of film and chroma noise made 43 tiny "acne" on the clean headscarf portrait (fit half); 3 left
   * 1 there but lost two faint synthetic acne on grainy check photos (recall 0.89 -> 0.83), 2.5 leaves 5
   * and loses none.
   */
  acne: { minRedness: 5, minR: 0.5, maxR: 3, maxDarkness: 15, minRoundness: 0.5, minOverGrain: 2.5 },
  mole: { minDarkness: 12, minRoundness: 0.7, maxEdge: 0.6, minR: 0.5, maxR: 3 },
  /** minOverGrain: darker than that many times the grain around it (around()): stubble and grainy shadow are not pigment. */
  spot: { minDarkness: 5, minR: 0.9, maxRedness: 3.5, minRoundness: 0.55, minYellow: -0.5, minOverGrain: 1.5 },
  /**
   * A closed comedone is a small pale bump, as pale as a glint of sebum: it is told from one by the skin
   * around it (maxShine: mean shine 1.5r to 3 mm out; glints come in shiny patches) and by standing alone
   * (minIsolation: lighter than every quarter of its ring, not the skin left between darker things), and
   * from the skin's own grain by standing minOverGrain times its spread above it (around()): on grainy skin
   * 1.4 px glints at 2.8 px/mm were a hundred "comedones" a face. On the fit half, 2.5 kept precision 0.94
   * at recall 0.44; 3 gave 1.00 at 0.31.
   */
  comedone: { minLightness: 3.5, maxLightness: 15, minR: 0.4, maxR: 1.5, maxRedness: 2.5, maxShine: 0.05, minRoundness: 0.6, minIsolation: 0.4, minOverGrain: 2.5 },
};

/**
 * The least radius (frame px) at which a closed comedone is resolved, 3 px across (a 0.8 mm one needs
 * 1.9 px/mm): on the synthetic ones (both halves, 3 seeds) 5 of 44 smaller than that were found (0.11),
 * against 16 of 28 at 1.5 px or more. The quality script reports those apart, as unresolvable at the
 * photo's scale, with how many were found all the same. (Refusing blobs whose detection scale is under
 * 1.5 px was tried: the scale is not the size, a comedone's small highlight peaks at the finest scale, and
 * fit recall of resolvable ones fell 14/25 -> 1/25.)
 */
export const COMEDONE_MIN_PX = 1.5;

export const POUCH_CONF = { depth: 3 };
export const DARK_CIRCLE = { drop: 3 };
/** Faces finer than this (frame px/mm) are measured fully; coarser frames scale every confidence down. */
const FULL_SCALE = 3;

export interface Lesion { kind: LesionKind; rect: Rect; confidence: number; blob: Blob }

export interface SkinAnalysis {
  frame: Frame;
  zones: Zones;
  members: Record<MemberName, Scored>;
  skinType: SkinType;
  skinAge: number;
  lesions: Lesion[];
  /** The measured quantities behind the codes (for reports and the skin-age model). */
  measures: {
    ita: number; tShine: number; uShine: number; texture: number;
    wrinkles: Record<WrinkleName, { evidence: number; longest: number; depth: number }>;
    pouch: number; darkCircle: ReturnType<typeof darkCircle>;
    poreDensity: Record<PoreName, number>; blackheadDensity: number;
    spotDensity: number; melaninSpread: number; faceWidth: number;
  };
  /** Features of the skin-age model, in its order. */
  ageFeatures: number[];
  internals: { lab: LabFrame; fine: RidgeField; pig: Pigments; shine: Float32Array; pores: Blob[]; blackheads: Blob[]; lines: Record<WrinkleName, Line[]>; candidates: Blob[] };
}

/**
 * Sharpness: RMS of detail finer than 0.3 mm over RMS of 0.3-1.2 mm detail, around the eyes and brows.
 * Blurred only over the area and a margin of 3 coarse σ (what the blur reaches), not the whole frame.
 */
export function sharpness(L: Float32Array, w: number, h: number, s: number, area: Rect): number {
  const sf = Math.max(0.6, 0.3 * s), sc = Math.max(1.2, 1.2 * s), m = Math.ceil(3 * sc);
  const ax1 = area.x0 + area.w, ay1 = area.y0 + area.h;
  const cx0 = Math.max(0, area.x0 - m), cy0 = Math.max(0, area.y0 - m), cx1 = Math.min(w, ax1 + m), cy1 = Math.min(h, ay1 + m);
  const cw = cx1 - cx0, ch = cy1 - cy0;
  if (cw <= 2 || ch <= 2) return 0;
  const crop = new Float32Array(cw * ch);
  for (let y = 0; y < ch; y++) crop.set(L.subarray((cy0 + y) * w + cx0, (cy0 + y) * w + cx1), y * cw);
  const f = blurPlane(crop, cw, ch, sf), c = blurPlane(crop, cw, ch, sc);
  let ef = 0, em = 0;
  for (let y = Math.max(1, area.y0); y < Math.min(h - 1, ay1); y++) {
    for (let x = Math.max(1, area.x0); x < Math.min(w - 1, ax1); x++) {
      const i = (y - cy0) * cw + (x - cx0);
      ef += (crop[i] - f[i]) ** 2; em += (f[i] - c[i]) ** 2;
    }
  }
  return em > 0 ? Math.sqrt(ef / em) : 0;
}

/** The eyes-and-brows box of a frame (the sharpness probe's area). */
export function eyeArea(f: Frame): Rect {
  const idx = [46, 53, 52, 65, 55, 33, 133, 145, 159, 276, 283, 282, 295, 285, 263, 362, 374, 386];
  const xs = idx.map((i) => f.mesh[i][0]), ys = idx.map((i) => f.mesh[i][1]);
  const m = 3 * f.s;
  const x0 = Math.floor(Math.min(...xs) - m), y0 = Math.floor(Math.min(...ys) - m);
  return { x0, y0, w: Math.ceil(Math.max(...xs) + m) - x0, h: Math.ceil(Math.max(...ys) + m) - y0 };
}

export function labFrame(f: Frame): LabFrame {
  const lab = toLab({ data: f.rgb, width: f.w, height: f.h, channels: 3 });
  return { L: lab.L, a: lab.a, b: lab.b, w: f.w, h: f.h };
}

/** Classifies one lesion-scale blob (measures in mm; `near`: the skin around it, around()); null when it is none of the four. */
export function lesionKind(b: Blob, s: number, near: Around = { shine: 0, grain: 0, redGrain: 0 }): LesionKind | null {
  const r = b.r / s, edge = b.edge / s, B = BLOBS;
  if (b.da >= acneRedness(near) && r >= B.acne.minR && r <= B.acne.maxR && b.dL > -B.acne.maxDarkness && b.roundness >= B.acne.minRoundness) return 'acne';
  if (b.dL <= -B.mole.minDarkness && r >= B.mole.minR && r <= B.mole.maxR && b.roundness >= B.mole.minRoundness && edge <= B.mole.maxEdge * Math.max(r, 1)) return 'mole';
  // Pigment, not shadow: a spot is round-ish and no bluer than the skin around it.
  if (b.dL <= -B.spot.minDarkness && r >= B.spot.minR && b.da < B.spot.maxRedness && b.roundness >= B.spot.minRoundness && b.db >= B.spot.minYellow
    && -b.dL >= B.spot.minOverGrain * near.grain) return 'skin_spot';
  if (b.dL >= B.comedone.minLightness && b.dL <= B.comedone.maxLightness && r >= B.comedone.minR && r <= B.comedone.maxR
    && b.da < B.comedone.maxRedness && near.shine < B.comedone.maxShine && b.roundness >= B.comedone.minRoundness && b.isolation >= B.comedone.minIsolation
    && b.dL >= B.comedone.minOverGrain * near.grain) return 'closed_comedones';
  return null;
}

/**
 * A wide dark blob no rule takes, measured again at the same centre at up to SPOT_FINER.steps finer lesion
 * radii (not below the spot's minR): at low resolution a soft spot's strongest scale is often wider than
 * the spot, and over that wider disc it reads too pale and its rays run off into the face's relief. What
 * such a re-measure finds counts only as a skin spot (refinedSpot), held to a stricter rule than a blob
 * found at its own scale.
 */
export const SPOT_FINER = {
  steps: 2,
  /** Darker than this many times the grain around it (the spot rule asks BLOBS.spot.minOverGrain). */
  minOverGrain: 2.5,
  /** Its edge (25-75 %) no wider than this many radii: a wider one is the face's shading. */
  maxEdge: 1.5,
  /** Yellower than the skin by this share of its darkening (b* over -L*): pigment, not shadow or hair. */
  minYellowShare: 0.25,
};
/** Whether a blob re-measured by finer() stands as a skin spot (SPOT_FINER). */
export const refinedSpot = (b: Blob, kind: LesionKind, near: Around) => kind === 'skin_spot' && -b.dL >= SPOT_FINER.minOverGrain * near.grain
  && b.edge <= SPOT_FINER.maxEdge * b.r && b.db >= SPOT_FINER.minYellowShare * -b.dL;
export function finer(lab: LabFrame, zone: Float32Array, plane: Float32Array, b: Blob, s: number): Blob[] {
  if (b.r / s < BLOBS.wideFrom - 1e-6) return [];
  const radii = BLOBS.lesionRadii.filter((r) => r * s < b.r - 1e-6 && r >= BLOBS.spot.minR).slice(-SPOT_FINER.steps).reverse();
  const out: Blob[] = [];
  for (const r of radii) {
    const m = measureBlob(lab, zone, b.x, b.y, r * s, b.response, plane);
    if (m && m.dL < 0) out.push(m);
  }
  return out;
}

/** The redness acne needs where it is: BLOBS.acne.minRedness, or more on grainy skin. */
export const acneRedness = (near: Around) => Math.max(BLOBS.acne.minRedness, BLOBS.acne.minOverGrain * near.redGrain);

/** How sure a lesion is: its defining contrast over its rule's threshold. */
export function lesionConfidence(kind: LesionKind, b: Blob, near: Around = { shine: 0, grain: 0, redGrain: 0 }): number {
  const B = BLOBS;
  switch (kind) {
    case 'acne': return grows(b.da, acneRedness(near));
    case 'mole': return Math.sqrt(grows(-b.dL, B.mole.minDarkness) * grows(b.roundness, B.mole.minRoundness));
    case 'skin_spot': return grows(-b.dL, B.spot.minDarkness);
    case 'closed_comedones': return grows(b.dL, B.comedone.minLightness);
  }
}

export function analyseSkin(f: Frame, face: Face, parsing: FaceParsing | ParsingSample, lab = labFrame(f), ms: Record<string, number> = {}): SkinAnalysis {
  const s = f.s, { w, h } = f;
  let t0 = performance.now(), c0 = process.cpuUsage();
  /** Milliseconds per part, wall and (as `${name} cpu`) this process's CPU, into `ms` (the benchmark prints them). */
  const lap = (name: string) => {
    const t = performance.now(), c = process.cpuUsage();
    ms[name] = (ms[name] ?? 0) + t - t0;
    ms[`${name} cpu`] = (ms[`${name} cpu`] ?? 0) + (c.user - c0.user + c.system - c0.system) / 1000;
    t0 = t; c0 = c;
  };
  const zones = skinZones(f, face, parsing);
  lap('zones');
  const resolution = Math.min(1, s / FULL_SCALE);
  const resolved = resolvedScale(s, sharpness(lab.L, w, h, s, eyeArea(f)));
  const scaleConf = (c: number) => round3(0.5 + (c - 0.5) * resolution);

  // Lines and folds.
  const fine = ridgeField(lab.L, w, h, RIDGE_SIGMAS.fine.map((v) => v * s));
  const coarse = ridgeField(lab.L, w, h, RIDGE_SIGMAS.coarse.map((v) => v * s));
  // Fine lines are fine: where the fold scales read a line deeper than FINE_LINES.overCoarse x the fine
  // scales do, it is a broad crease or shadow (a smiling child's lower lid), not a fine line.
  const fineDepth = new Float32Array(w * h);
  for (let i = 0; i < fineDepth.length; i++) fineDepth[i] = coarse.depth[i] > FINE_LINES.overCoarse * fine.depth[i] ? 0 : fine.depth[i];
  const fineLines: RidgeField = { ...fine, depth: fineDepth };
  lap('ridges');
  const foldDir = (side: 'right' | 'left') => {
    const [a, b] = side === 'right' ? [129, 61] : [358, 291];
    return Math.atan2(f.mesh[b][1] - f.mesh[a][1], f.mesh[b][0] - f.mesh[a][0]);
  };
  const wrinkles = {} as SkinAnalysis['measures']['wrinkles'];
  const members = {} as Record<MemberName, Scored>;
  const allLines = {} as Record<WrinkleName, Line[]>;
  for (const [name, rule] of Object.entries(LINES) as [WrinkleName, (typeof LINES)[WrinkleName]][]) {
    let evidence = 0, longest = 0, depth = 0;
    allLines[name] = [];
    const minDepth = rule.minScale && resolved < rule.minScale ? rule.minDepth * (rule.minScale / resolved) ** 2 : rule.minDepth;
    for (const z of rule.zones) {
      const dir = rule.direction === 'across' ? f.roll : rule.direction === 'down' ? f.roll + Math.PI / 2 : foldDir(z.startsWith('right') ? 'right' : 'left');
      const field = rule.field === 'coarse' ? coarse : fineLines;
      let floor: number, along = dir;
      if (rule.direction === 'fold') ({ floor, direction: along } = foldSearch(field, zones[z], dir, minDepth, rule.minLength, w, s));
      else floor = FINE_LINES.noise * spreadIn(field.depth, zones[z]);
      const query = { zone: zones[z], minDepth: Math.max(minDepth, floor), direction: along, tolerance: (rule.tolerance * Math.PI) / 180, s };
      let lines = findLines(rule.field === 'all' ? withFurrows(fineLines, query.minDepth, coarse, zones[z], minDepth, w, h, s) : field, query);
      if (rule.direction === 'fold') {
        const side = z.startsWith('right') ? 'right' : 'left', perFaceMm = faceMm(face.mesh!) * f.k;
        lines = lines.filter((l) => lateralReach(l, f.mesh, side, field.depth, w, perFaceMm) >= FOLD.lateral);
      }
      allLines[name].push(...lines.filter((l) => l.length >= rule.minLength));
      evidence += lineEvidence(lines, rule.minLength);
      for (const l of lines) if (l.length > longest) { longest = l.length; depth = l.depth; }
    }
    wrinkles[name] = { evidence, longest, depth };
    const threshold = rule.minLength * minDepth;
    members[name] = evidence > 0
      ? { value: 1, confidence: scaleConf(grows(evidence, threshold)) }
      : { value: 0, confidence: scaleConf(fades(longest * depth, threshold)) };
  }

  lap('lines');
  // Eyelids and pouches.
  for (const side of ['right', 'left'] as const) {
    const e = eyelid(f.mesh, side, fine, s);
    const found = e.depths.filter((d) => d > 0);
    const mean = found.length ? found.reduce((p, q) => p + q, 0) / found.length : 0;
    members[`${side}_eyelids`] = { value: e.type, confidence: scaleConf(e.type === 0 ? fades(found.length, 3) : grows(mean * found.length, 2.5 * 3)) };
  }
  const pr = eyePouch(f.mesh, 'right', coarse, s), pl = eyePouch(f.mesh, 'left', coarse, s);
  const pouchFound = pr.found >= 2 || pl.found >= 2;
  const pouch = Math.max(pr.depth, pl.depth);
  members.eye_pouch = { value: pouchFound ? 1 : 0, confidence: scaleConf(pouchFound ? grows(pouch, POUCH_CONF.depth) : fades((pr.found + pl.found) / 2, 2)) };

  // Colour, pigments, dark circles.
  const pig = pigments(f.rgb, w * h);
  const shine = shineMap(lab, s);
  lap('pigment+shine');
  const cheeks = new Float32Array(w * h);
  for (let i = 0; i < cheeks.length; i++) cheeks[i] = Math.max(zones.rightCheek[i], zones.leftCheek[i]) >= 0.5 && shine[i] < 0.05 ? 1 : 0;
  const Lc = quantileIn(lab.L, cheeks, 0.5), bc = quantileIn(lab.b, cheeks, 0.5);
  const [melanin10, melanin90] = quantilesIn(pig.melanin, cheeks, [0.1, 0.9]);
  const ita = itaOf(Lc, bc);
  let cheekPx = 0; for (const v of cheeks) cheekPx += v;
  members.skin_color = { value: itaClass(ita), confidence: round3(grows(itaMargin(ita) + 2, 2) * Math.min(1, cheekPx / (200 * s * s))) };
  const under = new Float32Array(w * h);
  for (let i = 0; i < under.length; i++) under[i] = Math.max(zones.rightUnderEye[i], zones.leftUnderEye[i]) >= 0.5 && shine[i] < 0.05 ? 1 : 0;
  const stats = (m: Float32Array) => ({ L: quantileIn(lab.L, m, 0.5), m: quantileIn(pig.melanin, m, 0.5), h: quantileIn(pig.haemoglobin, m, 0.5), s: quantileIn(pig.shading, m, 0.5) });
  const dc = darkCircle(stats(under), stats(cheeks), DARK_CIRCLE.drop);
  members.dark_circle = { value: Number.isNaN(dc.dL) ? 0 : dc.type, confidence: round3(Number.isNaN(dc.dL) ? 0 : dc.type ? grows(-dc.dL, DARK_CIRCLE.drop) : fades(Math.max(0, -dc.dL), DARK_CIRCLE.drop)) };

  // Skin type.
  const tShine = meanIn(shine, zones.tZone), uShine = meanIn(shine, cheeks.map((_, i) => Math.max(zones.rightCheek[i], zones.leftCheek[i])));
  const texture = fineTexture(lab.L, w, h, s, cheeks);
  const st = skinType(tShine || 0, uShine || 0, texture);

  // Pores and blackheads (pore-scale dark blobs), lesions (lesion-scale blobs).
  lap('colour+type');
  const poresSeen = s >= BLOBS.poreScale;
  const pores = poresSeen ? findBlobs(lab, { radii: BLOBS.poreRadii.map((r) => r * s), polarity: 'dark', minResponse: BLOBS.poreResponse, zone: zones.skin, noise: 3 })
    .filter((b) => -b.dL >= BLOBS.pores.minContrast && b.da < BLOBS.acne.minRedness) : [];
  const density = (blobs: Blob[], zone: Float32Array) => {
    const area = zoneArea(zone, s) / 100;
    return area > 0.2 ? blobs.filter((b) => zone[b.y * w + b.x] >= 0.5).length / area : 0;
  };
  const jaw = new Float32Array(w * h);
  for (let i = 0; i < jaw.length; i++) jaw[i] = Math.max(zones.jaw[i], zones.chin[i]);
  const poreZones: Record<PoreName, Float32Array> = { pores_forehead: zones.forehead, pores_left_cheek: zones.leftCheek, pores_right_cheek: zones.rightCheek, pores_jaw: jaw };
  const poreDensity = {} as Record<PoreName, number>;
  const poreConf = poresSeen ? 1 : 0;
  for (const [name, zone] of Object.entries(poreZones) as [PoreName, Float32Array][]) {
    const d = density(pores, zone);
    poreDensity[name] = d;
    const c = d >= BLOBS.pores.density ? grows(d, BLOBS.pores.density) : fades(d, BLOBS.pores.density);
    members[name] = { value: d >= BLOBS.pores.density ? 1 : 0, confidence: round3(poreConf * scaleConf(c)) };
  }
  const blackheads = pores.filter((b) => -b.dL >= BLOBS.blackhead.minContrast && zones.nose[b.y * w + b.x] >= 0.5);
  const bhDensity = density(blackheads, zones.nose);
  const level = BLOBS.blackhead.levels.filter((l) => bhDensity >= l).length;
  const lv = BLOBS.blackhead.levels;
  members.blackhead = { value: level, confidence: round3(poreConf * scaleConf(level === 0 ? fades(bhDensity, lv[0]) : grows(bhDensity, lv[level - 1]))) };

  lap('pores');
  const lesionZone = zones.skin;
  const plane = lesionPlane(lab);
  // Dark blobs no rule takes are followed by their finer re-measures (finer()), which only refinedSpot() may keep.
  const refined = new Set<Blob>();
  const dark = findBlobs(lab, { radii: BLOBS.lesionRadii.map((r) => r * s), polarity: 'dark', minResponse: BLOBS.lesionResponse, zone: lesionZone, detect: plane, noise: BLOBS.lesionRadii.map((r) => (r >= BLOBS.wideFrom ? BLOBS.wideNoise : BLOBS.noise)), layers: BLOBS.layers });
  const candidates = [
    ...dark.flatMap((b) => (lesionKind(b, s) ? [b] : [b, ...finer(lab, lesionZone, plane, b, s).map((m) => { refined.add(m); return m; })])),
    ...findBlobs(lab, { radii: BLOBS.lesionRadii.filter((r) => r <= 1.5).map((r) => r * s), polarity: 'bright', minResponse: BLOBS.lesionResponse, zone: lesionZone, noise: BLOBS.noise }),
  ];
  const lesions: Lesion[] = [];
  for (const b of candidates) {
    // The skin around a blob only makes the rules stricter: measured only for blobs some rule takes without it.
    if (!lesionKind(b, s)) continue;
    const near = around(lab, shine, lesionZone, b, s);
    const kind = lesionKind(b, s, near);
    if (!kind) continue;
    if (refined.has(b) && !refinedSpot(b, kind, near)) continue;
    if (lesions.some((l) => Math.hypot(l.blob.x - b.x, l.blob.y - b.y) < Math.max(l.blob.r, b.r))) continue;
    const [x0, y0] = toImage(f, b.x - 1.2 * b.r, b.y - 1.2 * b.r), [x1, y1] = toImage(f, b.x + 1.2 * b.r, b.y + 1.2 * b.r);
    lesions.push({ kind, blob: b, confidence: scaleConf(lesionConfidence(kind, b, near)), rect: { x0: Math.round(x0), y0: Math.round(y0), w: Math.max(1, Math.round(x1 - x0)), h: Math.max(1, Math.round(y1 - y0)) } });
  }

  lap('lesions');
  // Skin age (see skinAgeOf).
  const skinArea = zoneArea(zones.skin, s) / 100;
  const spotDensity = skinArea > 0 ? lesions.filter((l) => l.kind === 'skin_spot' || l.kind === 'mole').length / skinArea : 0;
  const melaninSpread = melanin90 - melanin10;
  const faceWidth = faceWidthMm(face, f.pxPerMm);
  const ageFeatures = ageFeaturesOf(wrinkles, pouch, spotDensity, melaninSpread, texture, faceWidth);

  return {
    frame: f, zones, members, skinType: st, skinAge: skinAgeOf(ageFeatures), lesions,
    measures: { ita, tShine, uShine, texture, wrinkles, pouch, darkCircle: dc, poreDensity, blackheadDensity: bhDensity, spotDensity, melaninSpread, faceWidth },
    ageFeatures,
    internals: { lab, fine, pig, shine, pores, blackheads, lines: allLines, candidates },
  };
}

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
export const FOLD = { search: 45, margin: 1.2, quantile: 0.9, over: 1.5, lateral: 2.5 };
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

/** The skin around a blob (1.5 radii out to 3 mm, at least 2.5 radii): see Around. */
export interface Around {
  /** Mean shine (shineMap). */
  shine: number;
  /**
   * Robust spread of lightness (1.4826 x median absolute residual, L*) about the plane that fits it best:
   * the skin's own grain (texture, film grain, JPEG), with the slow shading of the face's relief taken out.
   */
  grain: number;
  /** The same spread of a* (the photo's colour grain and chroma noise where the blob is). */
  redGrain: number;
}

export function around(lab: LabFrame, shine: Float32Array, zone: Float32Array, b: { x: number; y: number; r: number }, s: number): Around {
  const { L, w, h } = lab;
  const r0 = 1.5 * b.r, r1 = Math.max(2.5 * b.r, 3 * s), R = Math.ceil(r1);
  let sh = 0, n = 0;
  const xs: number[] = [], ys: number[] = [], vs: number[] = [], as: number[] = [];
  for (let y = Math.max(0, b.y - R); y <= Math.min(h - 1, b.y + R); y++) {
    for (let x = Math.max(0, b.x - R); x <= Math.min(w - 1, b.x + R); x++) {
      const dx = x - b.x, dy = y - b.y, d = Math.sqrt(dx * dx + dy * dy), i = y * w + x;
      if (d < r0 || d > r1) continue;
      sh += shine[i]; n++;
      if (zone[i] >= 0.5) { xs.push(x - b.x); ys.push(y - b.y); vs.push(L[i]); as.push(lab.a[i]); }
    }
  }
  return { shine: n ? sh / n : 0, grain: planeResidualSpread(xs, ys, vs), redGrain: planeResidualSpread(xs, ys, as) };
}

/** 1.4826 x the median absolute residual of v about its least-squares plane in (x, y). */
export function planeResidualSpread(xs: readonly number[], ys: readonly number[], vs: readonly number[]): number {
  const plane = fitPlane(xs, ys, vs, 6);
  return plane ? 1.4826 * nth(planeResiduals(plane, xs, ys, vs), vs.length >> 1) : 0;
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
export const CORE_LEVEL = 0.9;

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

/** Where spots and inflamed bumps stand out: darker or redder than around (L* - 1.5 a*). */
export function lesionPlane(lab: LabFrame): Float32Array {
  const p = new Float32Array(lab.L.length);
  for (let i = 0; i < p.length; i++) p[i] = lab.L[i] - 1.5 * lab.a[i];
  return p;
}

/**
 * Skin-age features: wrinkle evidence (log of 1 + Σ length·depth over the five line kinds, mm·L*), the
 * deeper eye-bag groove (L*), spots and moles per cm², the cheek melanin spread (10-90 % range, OD), the
 * nasolabial fold's longest line (log of 1 + length·depth, flagged or not: folds deepen steadily with age),
 * the cheeks' fine texture (RMS L* finer than 0.5 mm) and how far the face's width falls short of an
 * adult's (min(width, ADULT_WIDTH) - ADULT_WIDTH, mm; 0 for any grown face).
 */
export function ageFeaturesOf(wr: SkinAnalysis['measures']['wrinkles'], pouch: number, spots: number, melanin: number, texture: number, faceWidth: number): number[] {
  const lines = Object.values(wr).reduce((s, v) => s + v.evidence, 0);
  const fold = Math.log1p(wr.nasolabial_fold.longest * wr.nasolabial_fold.depth);
  return [Math.log1p(lines), pouch, spots, Number.isNaN(melanin) ? 0 : melanin, fold, texture, Math.min(faceWidth, ADULT_WIDTH) - ADULT_WIDTH];
}

/**
 * A grown face is 130-145 mm from cheek to cheek (mesh 234-454); a child's is narrower (114-127 mm on the
 * fit half's children under 12 at the iris scale), and a child's skin is young whatever its creases read.
 * Not a skin measure but a measured one: at 1-1.5 px/mm (the UTKFace chips) lines and spots barely show,
 * and without it children read as young adults.
 */
export const ADULT_WIDTH = 135;

/** Cheek-to-cheek width of the face, mm: mesh 234-454 in 3D (the mesh's depth keeps a turned face's width) over the iris scale. */
export function faceWidthMm(face: Face, pxPerMm: number): number {
  const a = face.mesh![234], b = face.mesh![454];
  return Math.hypot(a[0] - b[0], a[1] - b[1], (a[2] ?? 0) - (b[2] ?? 0)) / pxPerMm;
}

/**
 * Skin age: a measurement from the skin's own features (ageFeaturesOf: lines, pouches, spots, melanin,
 * the fold, texture and the face's width), not the face-attribute age model. √(skin age) is linear in the
 * features, least squares with no negative weight (no measure counts backwards) on the "fit" half of the
 * labelled faces (scripts/quality/skin-analysis.ts --fit prints the coefficients), clamped to
 * SKIN_AGE_RANGE; the pouch, spots and fold came out at weight 0 (the lines, melanin spread, texture and
 * width tell what they do). A power of the age, not the age: an age's spread grows with it (5 years off is
 * gross on a child, small on a 70-year-old), so in years the children pulled the line little, read 19-25
 * on average, and the clamp at 10 kept them there. The power was chosen by the fit half's leave-one-out
 * MAE, which --fit prints for each power.
 */
export const AGE_MODEL = { power: 0.5, intercept: 4.6589, weights: [0.146, 0, 0, 0.152, 0, 3.0482, 0.2145] };
export const SKIN_AGE_RANGE = [1, 90] as const;

/** The age from AGE_MODEL's transformed scale: power 0 is ln. */
export const fromAgeScale = (v: number, power: number) => (power === 0 ? Math.exp(v) : Math.max(0, v) ** (1 / power));
export const toAgeScale = (age: number, power: number) => (power === 0 ? Math.log(age) : age ** power);

export function skinAgeOf(features: readonly number[], model: { power: number; intercept: number; weights: readonly number[] } = AGE_MODEL): number {
  const v = fromAgeScale(model.intercept + features.reduce((s, x, i) => s + x * (model.weights[i] ?? 0), 0), model.power);
  return Math.round(Math.max(SKIN_AGE_RANGE[0], Math.min(SKIN_AGE_RANGE[1], v)));
}

export { makeFrame };
export type { RasterImage };
