/** Skin age: a measurement from the skin's own features, read through AGE_MODEL. */
import type { Face } from '../../../vision/faces/detect.ts';
import { ADULT_WIDTH, AGE_MODEL, SKIN_AGE_ANCHOR, SKIN_AGE_RANGE } from '../tuning.ts';
import type { WrinkleMeasures } from './names.ts';

/**
 * Skin-age features: wrinkle evidence (log of 1 + Σ length·depth over the five line kinds, mm·L*), the
 * deeper eye-bag groove (L*), spots and moles per cm², the cheek melanin spread (10-90 % range, OD), the
 * nasolabial fold's longest line (log of 1 + length·depth, flagged or not: folds deepen steadily with age),
 * the cheeks' fine texture (RMS L* finer than 0.5 mm) and how far the face's width falls short of an
 * adult's (min(width, ADULT_WIDTH) - ADULT_WIDTH, mm; 0 for any grown face).
 */
export function ageFeaturesOf(wr: WrinkleMeasures, pouch: number, spots: number, melanin: number, texture: number, faceWidth: number): number[] {
  const lines = Object.values(wr).reduce((s, v) => s + v.evidence, 0);
  const fold = Math.log1p(wr.nasolabial_fold.longest * wr.nasolabial_fold.depth);
  return [Math.log1p(lines), pouch, spots, Number.isNaN(melanin) ? 0 : melanin, fold, texture, Math.min(faceWidth, ADULT_WIDTH) - ADULT_WIDTH];
}

/** Cheek-to-cheek width of the face, mm: mesh 234-454 in 3D (the mesh's depth keeps a turned face's width) over the iris scale. */
export function faceWidthMm(face: Face, pxPerMm: number): number {
  const a = face.mesh![234], b = face.mesh![454];
  return Math.hypot(a[0] - b[0], a[1] - b[1], (a[2] ?? 0) - (b[2] ?? 0)) / pxPerMm;
}

/** The age from AGE_MODEL's transformed scale: power 0 is ln. */
export const fromAgeScale = (v: number, power: number) => (power === 0 ? Math.exp(v) : Math.max(0, v) ** (1 / power));
export const toAgeScale = (age: number, power: number) => (power === 0 ? Math.log(age) : age ** power);

/**
 * Skin age from its features (ageFeaturesOf: lines, pouches, spots, melanin, the fold, texture and the
 * face's width), not the face-attribute age model: AGE_MODEL's linear fit on its scale, clamped to SKIN_AGE_RANGE.
 */
export function skinAgeOf(features: readonly number[], model: { power: number; intercept: number; weights: readonly number[] } = AGE_MODEL): number {
  const v = fromAgeScale(model.intercept + features.reduce((s, x, i) => s + x * (model.weights[i] ?? 0), 0), model.power);
  return Math.round(Math.max(SKIN_AGE_RANGE[0], Math.min(SKIN_AGE_RANGE[1], v)));
}

/** The answered skin age: the apparent age moved toward the skin's own measure (SKIN_AGE_ANCHOR). */
export function anchoredSkinAge(apparent: number, measured: number, anchor: { gain: number; maxShift: number; bias?: number } = SKIN_AGE_ANCHOR): number {
  const shift = Math.max(-anchor.maxShift, Math.min(anchor.maxShift, anchor.gain * (measured - apparent - (anchor.bias ?? 0))));
  return Math.round(Math.max(SKIN_AGE_RANGE[0], Math.min(SKIN_AGE_RANGE[1], apparent + shift)));
}
