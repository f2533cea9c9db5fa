/**
 * The advanced skin retouch's parameters: each flag's strength alone and in the smart blend, how many faces
 * it retouches, the smoothing, healing, evening, under-eye, wrinkle and pore sizes and amounts, the blemish
 * finder's thresholds, and where the parsing's skin counts in full.
 */

/** How strongly each part of the retouch runs, 0..1. */
export interface Plan { acne: number; spots: number; brighten: number; smooth: number; pores: number; wrinkles: number; underEye: number; scars: number }

/**
 * smart_skin: a balanced blend, each part gentler than on its own (the parts add up: smoothing over
 * lowered pores over filled lines), blemishes healed in full because a half-healed spot is still a spot.
 */
export const SMART: Plan = { acne: 1, spots: 1, brighten: 0.4, smooth: 0.7, pores: 0.5, wrinkles: 0.6, underEye: 0.6, scars: 0.6 };

/**
 * A flag on its own: each part at its full, still natural strength. Brightening and smoothing are held
 * back because they move the face descriptor most
 * (docs/experiments/smart-skin-advanced.md#each-flag-alone-brightening-and-smoothing-held-back).
 */
export const FULL: Plan = { acne: 1, spots: 1, brighten: 0.5, smooth: 0.7, pores: 1, wrinkles: 1, underEye: 1, scars: 1 };

/** Faces retouched: the largest five. */
export const SKIN_FACES = 5;

/**
 * Tuning: sizes in millimetres (the iris scale) or face widths (fw), amounts at strength 1.
 * smooth: guided smoothing as face-beauty's, finer (radius 2.5 % fw, eps 0.004) since the pore, line and
 * spot steps have already evened the skin; pores at 0.4 % fw back at 0.45. Small faces as face-beauty
 * treats them (smooth.ts faceEps, faceShapeBand), with the threshold's contrast in step with the pixel's
 * share of the face (power 2 from epsWidth px down) and 0.8 of the 1.5 px shape band given back (the face's
 * own shading, which identity rests on): smart_skin blends the smoothing at 0.7 over a parsing skin of
 * ~0.6 on the cheeks, so it needs a higher threshold than face-beauty's to flatten a small face's grain.
 * A linear growth reaching the same on the smallest faces raised eps on every face under 400-600 px and
 * cost identity. Faces under fullWidth px are smoothed in proportion.
 * lowerFace: as face-beauty's (skin-mask.ts spareLowerFace): the chin, jaw and smile lines of a face
 * narrower than toWidth px are retouched only in part, and not at all below fromWidth; there they are
 * the face's features (and its gender's), 1-2 px lines, not blemishes or wrinkles.
 */
export const TUNING = {
  smooth: { radius: 0.025, eps: 0.004, poreSigma: 0.004, texture: 0.45, epsWidth: 170, epsPower: 2, shape: { sigma: 0.015, share: 0, minPx: 1.5, smallShare: 0.8 }, fullWidth: 40 },
  lowerFace: { fromWidth: 35, toWidth: 50 },
  brighten: { lift: 9, even: 0.5, toneSigma: 0.08 },
  /** A healed spot covers at least this radius (mm), and its halo (heal.ts). */
  spotMinRadiusMm: 0.6,
  /**
   * A spot's found radius is its half-maximum; its soft tail and inflamed halo reach further, and a rim
   * still on the tail would be cloned back in (at 1x, a rendered bump came out half healed).
   */
  spotReach: 1.3,
  /** Patches and lines: pulled this far toward the skin around, grain kept (below grainMm). */
  even: { amount: 0.75, grainMm: 0.5, skinMm: 3, growMm: 0.6 },
  /**
   * Under-eye: fraction of the gap to the cheek's lightness and colour closed, over the broad tone (mm).
   * fullPx: the correction runs in full where that tone is at least this many pixels wide (faces from
   * about 135 px), and in proportion below: on a small face the tone is finer than the pixel grain, so the
   * lift closed the gap pixel by pixel and flattened the lower lid and the eye socket's shading, which a
   * small face is recognised (and its gender read) by; a 39 px face in a group photo turned female.
   */
  underEye: { light: 0.7, colour: 0.5, toneMm: 1.5, fullPx: 1.5 },
  /** Wrinkles: line scales (mm), curvature for a full line, fraction of the depth filled. */
  wrinkles: { scalesMm: [0.4, 1.2], contrast: 1.5, fill: 0.7 },
  /** Pores: the band below poreMm lowered by `band`; T-zone shine above the broad skin lowered by `shine`. */
  pores: { poreMm: 0.35, band: 0.5, shine: 0.6, shineMm: 1, broadMm: 6, shineFloor: 2 },
};

/** The blemish finder (blemishes.ts), tuned with scripts/quality/blemishes.ts on the shared portraits' tune half. Sizes in mm, contrasts in Lab units. */
export const FIND = {
  /** Pore-scale grain smoothed away before looking. */
  grainMm: 0.2,
  /** The local skin: masked blur at this sigma. */
  skinMm: 2.5,
  /** A pixel is a candidate above max(floor, k x the skin's robust spread). */
  pixel: { redFloor: 2.5, darkFloor: 3.5, k: 2.5 },
  /** A component counts when its peak is above max(floor, k x spread). */
  peak: { redFloor: 5, darkFloor: 6, k: 4 },
  spot: { minMm: 0.7, maxMm: 6 },
  patchMaxMm: 12,
  /** Longer than wide by this much: a line. */
  lineElongation: 3,
  lineMinMm: 4,
  /** Components reaching within this of the skin mask's edge are shadows of features, not blemishes. */
  edgeMm: 1,
  /**
   * A spot stands out from the skin around it, not only from the face's skin at large: its peak must be
   * `k` x the contrast's spread within about `mm` of it (the spot included). Stubble, creases, a textured
   * or glistening cheek vary that much all over and give none
   * (docs/experiments/smart-skin-advanced.md#a-spot-must-stand-out-from-the-skin-around-it).
   */
  local: { k: 3, mm: 3 },
};

/** Healing (heal.ts): the hole covers the lesion and its halo (inflamed rim, shadow) out to this many radii; the blend fades to its edge. */
export const HOLE = 1.6, CORE = 1.2;

/**
 * The parsing's skin is a probability, and on evenly lit cheeks often only 0.6-0.8 (skin-mask.ts keeps it
 * soft): healing or lifting by it would leave a spot two-thirds healed. Above SURE it counts as skin in
 * full; the soft edges toward hair, brows and the background stay soft.
 */
export const SURE = 0.6;
