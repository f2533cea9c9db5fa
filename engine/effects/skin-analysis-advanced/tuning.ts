/**
 * The skin analysis's parameters: the quality gates, the working scales, and every measure's threshold.
 * Lengths are in mm of the face (the iris scale, skin/frame.ts), scales in frame px per mm, contrasts in
 * L*, a* and b*. Each was chosen on the fit half of the synthetic lesions and labelled faces and checked on
 * the other (docs/experiments/skin-analysis-advanced.md#tuning-the-detectors has the figures).
 */
import type { WrinkleName, ZoneName } from './skin/names.ts';

/**
 * Quality gates (face_quality_control=1). minPxPerMm: below 1.2 image px per mm (iris under 14 px, a face
 * under ~170 px wide) lines and lesions of a millimetre are a pixel or less. minSharpness: the fine-to-mid
 * detail ratio around the eyes (skin/sharpness.ts); the shared portraits whose faces pass the size gate
 * read 0.53-0.64 sharp and 0.17-0.41 after a Gaussian blur of σ 0.5 mm (scripts/quality/skin-analysis.ts, part 3).
 */
export const QUALITY = { minPxPerMm: 1.2, minSharpness: 0.45 };

/**
 * Working scale (frame px/mm): 3 px/mm still resolves enlarged pores (0.3-0.6 mm across is 1-2 px) and
 * keeps the frame of a 2 MP portrait's face near 0.35 MP (4 px/mm made it 0.6 MP and the analysis twice as slow).
 */
export const WORK_PX_PER_MM = 3;

/** Zones are drawn at this scale (px/mm) and brought to the frame's bilinearly: their edges need 1 mm, not 0.3. */
export const ZONE_PX_PER_MM = 1.5;

/** Faces finer than this (frame px/mm) are measured fully; coarser frames scale every confidence down. */
export const FULL_SCALE = 3;

/**
 * The resolved scale (px/mm) the eye's fine lines need: their finest ridge scale (σ 0.3 mm) is only
 * honoured from σ = 0.6 px, so below 2 px/mm a "fine line" beside or under the eye is mostly a wider thing
 * (the lid's crease, an eye bag's groove). There crows_feet and eye_finelines claim only lines deeper than
 * minDepth x (FINE_SCALE / resolved)², the mildest power that keeps a child's lower-lid crease out while
 * deep crow's feet still show. Resolved, not sampled: an enlarged or soft photo has the pixels but not the
 * detail (resolvedScale()). Forehead and glabella lines are deeper and wider, and keep minDepth.
 */
export const FINE_SCALE = 2;
/**
 * Sharpness (sharpness()) of a photo that holds all the detail its scale allows: the shared portraits at
 * their own size read 0.5-1.1 (median 0.63); enlarged 2x, 0.12-0.45.
 */
export const SHARP_FULL = 0.6;

/**
 * Each wrinkle kind's rule: the zones it is read in; the field it reads, 'fine' lines (RIDGE_SIGMAS.fine,
 * with FINE_LINES' rules), 'coarse' folds, or 'all' (withFurrows: the fine lines and, in the zone's core,
 * furrows at the fold scales); the direction lines must run ('across' the face, 'down' it, or along the
 * nasolabial 'fold') within `tolerance` degrees; the least depth (L*) and length (mm); and the resolved
 * scale below which the depth asked grows (FINE_SCALE). Forehead lines read all: an older forehead's creases
 * are furrows 1-3 mm wide, which the fine-line rule took for shading; near the hairline and brows the fold
 * scales see the hair's and brows' edges, so only the core reads them.
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
 * its fine-scale depth (fine-line members only: deeper there, it is a broad crease or shadow), and deeper
 * than `noise` robust spreads of the zone's own depth field (the skin's texture, grain and JPEG blocks read
 * as shallow lines everywhere).
 */
export const FINE_LINES = { overCoarse: 1.5, noise: 3 };
/** Ridge scales (σ, mm): fine lines 0.25-0.5 mm wide, folds several mm. */
export const RIDGE_SIGMAS = { fine: [0.3, 0.6], coarse: [1.2, 2.4] };
/**
 * A zone's core (coreOf) is where the zone, blurred by the largest fold scale, stays above this (about
 * 1.3 σ in from its edge): what the fold scales read there is the zone's own relief, not the hair, brows or
 * eyes beside it.
 */
export const CORE_LEVEL = 0.9;

/**
 * The nasolabial fold's search in its band (foldSearch, lateralReach). search: degrees off the mesh's
 * wing-to-corner course the strongest line may run (folds run up to ~45 degrees off it). The band's floor
 * is `over` x its `quantile` depth with the line and `margin` mm around it left out: a fold must stand
 * above the rest of its band's relief. lateral: face-mm a line must run lateral of the course (half the
 * least reach of the fit half's folds on faces ≥ 50); on the course or inside it is the upper lip's edge.
 */
export const FOLD = { search: 45, margin: 1.2, quantile: 0.9, over: 1.5, lateral: 2.5 };

/** Blob scales (radius, mm) and lesion rules. */
export const BLOBS = {
  /** Lesion scales, √2 apart (sparser sets were faster and worse on the synthetic lesions). */
  lesionRadii: [0.5, 0.7, 1, 1.4, 2, 2.8],
  /** Least LoG response of a lesion-scale blob, L* (a Gaussian blob of contrast c responds c/2). */
  lesionResponse: 2,
  /** Overlapping dark blobs measured per place (findBlobs' layers): a spot's strongest scale is often not its own. */
  layers: 2,
  /** Robust standard deviations of the skin's own texture a blob must exceed (blobs.ts). */
  noise: 3,
  /**
   * From wideFrom mm of radius the dark search asks wideNoise spreads, not noise: grain's response falls
   * with scale, and what spreads it there is the face's own relief, which hid soft spots of 2-3 mm.
   */
  wideFrom: 1.4,
  wideNoise: 2,
  /** Pore scales (radius, mm) and their least LoG response (L*). */
  poreRadii: [0.15, 0.22, 0.3, 0.4],
  poreResponse: 1,
  /** Pores need this frame scale (px/mm) to be seen at all. */
  poreScale: 2.5,
  /** Enlarged pores: at least `density` per cm² in a zone, each at least minContrast L* darker. */
  pores: { density: 30, minContrast: 2 },
  /** Blackheads: pores at least minContrast L* darker on the nose; codes 1-3 from `levels` per cm². */
  blackhead: { minContrast: 8, levels: [0.4, 1.2, 3] },
  /**
   * Acne: redder by minRedness a* (radius minR-maxR mm, no darker than maxDarkness L*, roundness at least
   * minRoundness), and minOverGrain times redder than the a* grain around it (around()): film grain and
   * chroma noise otherwise read as tiny acne.
   */
  acne: { minRedness: 5, minR: 0.5, maxR: 3, maxDarkness: 15, minRoundness: 0.5, minOverGrain: 2.5 },
  /** Moles: dark (L*), round, with a sharp edge (mm per mm of radius). */
  mole: { minDarkness: 12, minRoundness: 0.7, maxEdge: 0.6, minR: 0.5, maxR: 3 },
  /**
   * Skin spots: darker, no redder than maxRedness and no bluer than minYellow (pigment, not shadow), and
   * darker than minOverGrain times the grain around it (around()): stubble and grainy shadow are not pigment.
   */
  spot: { minDarkness: 5, minR: 0.9, maxRedness: 3.5, minRoundness: 0.55, minYellow: -0.5, minOverGrain: 1.5 },
  /**
   * A closed comedone is a small pale bump, as pale as a glint of sebum: it is told from one by the skin
   * around it (maxShine: mean shine 1.5r to 3 mm out; glints come in shiny patches) and by standing alone
   * (minIsolation: lighter than every quarter of its ring, not the skin left between darker things), and
   * from the skin's own grain by standing minOverGrain times its spread above it (around()).
   */
  comedone: { minLightness: 3.5, maxLightness: 15, minR: 0.4, maxR: 1.5, maxRedness: 2.5, maxShine: 0.05, minRoundness: 0.6, minIsolation: 0.4, minOverGrain: 2.5 },
};

/**
 * A wide dark blob no rule takes is measured again at finer radii (finer()): at low resolution a soft
 * spot's strongest scale is often wider than the spot, and over that wider disc it reads too pale and its
 * rays run off into the face's relief. What the re-measure finds counts only as a skin spot, held to a
 * stricter rule than a blob found at its own scale (refinedSpot).
 */
export const SPOT_FINER = {
  /** How many finer lesion radii are tried. */
  steps: 2,
  /** Darker than this many times the grain around it (the spot rule asks BLOBS.spot.minOverGrain). */
  minOverGrain: 2.5,
  /** Its edge (25-75 %) no wider than this many radii: a wider one is the face's shading. */
  maxEdge: 1.5,
  /** Yellower than the skin by this share of its darkening (b* over -L*): pigment, not shadow or hair. */
  minYellowShare: 0.25,
};

/**
 * The least radius (frame px) at which a closed comedone is resolved, 3 px across (a 0.8 mm one needs
 * 1.9 px/mm): smaller ones were rarely found, so the quality script reports them apart, as unresolvable at
 * the photo's scale.
 */
export const COMEDONE_MIN_PX = 1.5;

/**
 * Eyelids (skin/eyes.ts): creases looked for at `places` (fractions along the upper lid), at least minDepth
 * L* deep; fewer than minFound found is a single lid; a crease whose inner gap to the margin is under
 * `parallel` x its middle gap closes in toward the inner corner (scalloped), otherwise parallel. The
 * confidences use the same numbers: a double lid's grows from minFound creases of minDepth (summed depth),
 * a single lid's fades as the creases found near minFound.
 */
export const EYELID = { places: [0.2, 0.35, 0.5, 0.65, 0.8], minDepth: 2.5, minFound: 3, parallel: 0.7 };
/** Eye pouch: the lid-cheek groove looked for `from` to `to` mm under the lower lid, at least minDepth L* deep, at minFound of three places under either eye. */
export const POUCH = { from: 3, to: 12, minDepth: 3, minFound: 2 };
/** The pouch's confidence grows from this groove depth (L*). */
export const POUCH_CONF = { depth: 3 };
/** Dark circles: the under-eye skin at least `drop` L* darker than the cheeks. */
/** Skin colour and dark circles are read only where the shine (skin/shine.ts, 0..1) is under this: a glint is the light's colour, not the skin's. */
export const MATTE_SHINE = 0.05;
export const DARK_CIRCLE = { drop: 3 };

/** Skin type thresholds: shine as the fraction of zone area; texture in L*. Tuned on the shared portraits. */
export const SKIN_TYPE = { oilyT: 0.03, oilyU: 0.02, dryTexture: 2.2 };

/**
 * A grown face is 130-145 mm from cheek to cheek (mesh 234-454); a child's is narrower (114-127 mm on the
 * fit half's children under 12 at the iris scale), and a child's skin is young whatever its creases read.
 * Not a skin measure but a measured one: at 1-1.5 px/mm (the UTKFace chips) lines and spots barely show,
 * and without it children read as young adults.
 */
export const ADULT_WIDTH = 135;

/**
 * Skin age: (skin age)^power is linear in the features (ageFeaturesOf), least squares with no negative
 * weight (no measure counts backwards) on the fit half of the labelled faces (scripts/quality/skin-analysis.ts
 * --fit prints the coefficients); the pouch, spots and fold came out at weight 0. A power of the age, not
 * the age: an age's spread grows with it (5 years off is gross on a child, small on a 70-year-old).
 */
export const AGE_MODEL = { power: 0.5, intercept: 4.6589, weights: [0.146, 0, 0, 0.152, 0, 3.0482, 0.2145] };
/** Skin age is clamped to these years. */
export const SKIN_AGE_RANGE = [1, 90] as const;

/**
 * The skin age answered: the face's apparent age (the face analyzer's age estimate, uncapped) moved by `gain`
 * times what the skin measures beyond it (AGE_MODEL's age minus the apparent one, less `bias`), by at most
 * `maxShift` years either way. Chosen on the fit half (scripts/quality/skin-age.ts): gain 0. AGE_MODEL was
 * fitted on 1 px/mm chips and reads sharper photos as old (90 for most shared portraits, young or not), and
 * every gain above 0, with or without its median excess taken off, lost on the fit half against the labelled
 * ages; so the answer is the apparent age until the skin measures are refitted across resolutions.
 */
export const SKIN_AGE_ANCHOR = { gain: 0, maxShift: 8, bias: 0 };

/**
 * How many of the largest faces get a mesh: the measured face is the largest with one (a group photo's
 * largest face may be turned or blurred past the mesh's score while the next is clear).
 */
export const MESHED_FACES = 5;

/**
 * How far (mm) lesions are not looked for past the eye opening (liner, lashes and lid shadow: make-up read as
 * moles and spots), past the parsed glasses (frames parse a few pixels thin, their edges read as spots) and
 * past the brows (stray hairs). Skin itself already keeps 1.5 mm from the features and 1 mm from hair and frames.
 */
export const LESION_CLEAR = { eyesMm: 5, glassesMm: 3, browsMm: 2.5 };
