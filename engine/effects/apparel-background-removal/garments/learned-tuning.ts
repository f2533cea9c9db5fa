/**
 * The learned garment parse's parameters: the features of a region as the model (apparel-model.json) was
 * trained on them, and how its class probabilities are smoothed and decided. Change the features only with a
 * retrain (scripts/train/apparel.ts). Units as in tuning.ts (torso lengths, ΔE CIE76, work-size pixels).
 * Figures: docs/experiments/apparel-background-removal.md.
 */

/** Features of a region for the learned parse (apparel-features.ts). */
export const FEATURE_SHAPES = {
  /** Without a body frame, lengths are in thirds of the photo's longer side. */
  framelessUnit: 3,
  /** The backdrop's colour needs more than this many regions off the subject. */
  backdropRegions: 2,
  /** A region's piece: its neighbours through the subject within this ΔE of its colour. */
  pieceDE: 10,
  /** The matte between the legs is read from crotchFrom of the way down the thighs to the knees, every crotchStep. */
  crotchFrom: 0.35,
  crotchStep: 0.05,
  /** Height along the legs (0 hips, 1 knees) from which a region carries the photo's leg readings. */
  legReadingsFrom: -0.3,
  /** Reference colours: the torso at torsoAt of the way to the hips within torsoRadius torsos; thighs, shins likewise. */
  torsoAt: 0.45,
  torsoRadius: 0.25,
  thighAt: 0.4,
  thighRadius: 0.15,
  shinAt: 0.5,
  shinRadius: 0.12,
};

/** The lower garment's shape against the legs (legs.ts). Heights along the legs: 0 hips, 1 knees, 2 ankles. */
export const LEGS = {
  /** Heights scanned for the hems: scanCount steps of scanStep from scanFrom. */
  scanFrom: 0.3,
  scanStep: 0.1,
  scanCount: 18,
  /** Within this ΔE of the thighs' colour a region is the lower garment's cloth. */
  clothDE: 15,
  /** Samples across the gap (shares of the half-gap either side of its middle) and across each leg line (torsos). */
  gapSamples: [-0.25, 0, 0.25],
  legSamples: [-0.05, 0, 0.05],
  /** A hem: where less than hemCloth of the samples are the cloth; never found, hemNone. */
  hemCloth: 0.5,
  hemNone: 2.1,
  /** The hips are at least minHips torsos wide; the rows read across run rowMargin torsos beyond the leg lines. */
  minHips: 0.3,
  rowMargin: 0.6,
  /** Heights of the rows read across: the thighs' and the knees'. */
  rows: [0.5, 1],
  /** A run across counts from this many pixels. */
  minRun: 2,
  /** The gap's half-width is at least this many torsos. */
  minHalfGap: 0.05,
};

/** A region's surroundings at the garment's scale (surroundings.ts). */
export const SURROUNDINGS = {
  /** How far above and below a region its surroundings are read, in torsos along the body's axis. */
  step: 0.25,
  /** Half the width of the window across the body in which a row of the silhouette is read, in torsos. */
  halfWindow: 0.9,
  /** A run of the silhouette counts from this many pixels. */
  minRun: 2,
  /** The feet: this many torsos below the ankles. */
  feetBelow: 0.1,
};

/** The second stage's context over the body grid (context.ts), in torsos. */
export const CONTEXT = {
  /** Grid cells, and the grid's extent along (a0 to a1) and across (c0 to c1) the body. */
  cell: 0.05,
  a0: -3,
  a1: 9,
  c0: -4,
  c1: 4,
  /** Colour likeness of neighbours (ΔE scale), as the smoothing of the final probabilities uses it. */
  likeDE: 12,
  /** The band at the same height: ± band. */
  band: 0.2,
  /** Above and below: from near to far along the body, within ±across. */
  near: 0.15,
  far: 0.6,
  across: 0.5,
  /** The mirrored place: ±mirrorAlong along, ±mirrorAcross across. */
  mirrorAlong: 0.1,
  mirrorAcross: 0.15,
};

/**
 * How far the learned parse's class probabilities spread to neighbours of like colour (share per pass, ΔE
 * scale), and how many times (learned.ts smooth): chosen on the fit half's folds
 * (docs/experiments/apparel-background-removal.md#split-and-training).
 */
export const SMOOTHING = { share: 0.85, passes: 8, colour: 12 };

/**
 * Whether connected lower garments are voted skirt or trousers as wholes (learned.ts voteLower). Off: with
 * the face parser's features it no longer helped the fit folds
 * (docs/experiments/apparel-background-removal.md#the-face-parsers-hat); scripts/train/apparel.ts --vote
 * measures it again.
 */
export const LOWER_VOTE = false;

/** After the learned parse, a piece of hat smaller than this share of the face box is a mistake (short dark hair). */
export const LEAST_HAT = 0.25;
