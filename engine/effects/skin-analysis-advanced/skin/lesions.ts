/**
 * Lesions from blobs: which of acne, closed comedones, moles and skin spots a blob is (lesionKind), by its
 * contrast, size, roundness and edge and by the skin around it (around()), and how sure that is.
 */
import { fitPlane, planeResiduals } from '../../../image/plane-fit.ts';
import { BLOBS, SPOT_FINER } from '../tuning.ts';
import { measureBlob, type Blob, type LabFrame } from './blobs.ts';
import { grows } from './confidence.ts';
import type { Rect } from '../../../image/rect.ts';
import type { LesionKind } from './names.ts';
import { nth } from './pigment.ts';

export interface Lesion { kind: LesionKind; rect: Rect; confidence: number; blob: Blob }

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

/** Whether a blob re-measured by finer() stands as a skin spot (SPOT_FINER). */
export const refinedSpot = (b: Blob, kind: LesionKind, near: Around) => kind === 'skin_spot' && -b.dL >= SPOT_FINER.minOverGrain * near.grain
  && b.edge <= SPOT_FINER.maxEdge * b.r && b.db >= SPOT_FINER.minYellowShare * -b.dL;
/**
 * A wide dark blob no rule takes, measured again at the same centre at up to SPOT_FINER.steps finer lesion
 * radii (not below the spot's minR): what these find counts only as a skin spot (refinedSpot).
 */
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

/** Where spots and inflamed bumps stand out: darker or redder than around (L* - 1.5 a*). */
export function lesionPlane(lab: LabFrame): Float32Array {
  const p = new Float32Array(lab.L.length);
  for (let i = 0; i < p.length; i++) p[i] = lab.L[i] - 1.5 * lab.a[i];
  return p;
}
