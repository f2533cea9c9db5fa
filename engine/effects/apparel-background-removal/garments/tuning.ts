/**
 * The garment parser's rule parameters: the thresholds, margins, weights and proportions the rules' parse is
 * built on (the learned parse's are in learned-tuning.ts). Units: ΔE is CIE76 in L*a*b*; body lengths are
 * the body frame's (torso: shoulder centre to hip centre; sw: shoulder width; thigh, shin: hip to knee, knee
 * to ankle); face lengths the face box's width (w) and height (h), from its centre across and from its top
 * down; photo lengths are work-size pixels. Positions along the body run down from the shoulders (ys), hips
 * (yh) or ankles (ya), across it from the body's middle (cx). A region's "share" of something over a half
 * (≥ 0.5) means it mostly is that, and is not a parameter. Figures: docs/experiments/apparel-background-removal.md.
 */

/** The body frame from keypoints and the face (body-frame.ts). */
export const BODY = {
  /** Least keypoint score believed. */
  minScore: 0.25,
  /** Without shoulder keypoints: the shoulders this many face heights below the face box's top... */
  faceShoulderDrop: 1.55,
  /** ...this many face widths either side of the face's centre... */
  faceShoulderHalf: 1.1,
  /** ...and one shoulder seen: the other this many face widths from it (or fallbackShoulderSpan px without a face). */
  faceShoulderSpan: 2.2,
  fallbackShoulderSpan: 40,
  /** Without hip keypoints: the torso this many shoulder widths long, or torsoPerFace face widths if longer. */
  torsoPerShoulder: 1.4,
  torsoPerFace: 3,
  /** Hips this many shoulder widths either side of the middle; one hip seen, the other hipSpan from it. */
  hipHalf: 0.35,
  hipSpan: 0.7,
  /** The torso is at least this many shoulder widths long, the shoulders at least minShoulderWidth torsos wide. */
  minTorso: 0.8,
  minShoulderWidth: 0.5,
  /** Limbs not seen hang straight down by these shares of the torso. */
  thigh: 0.85,
  shin: 0.85,
  upperArm: 0.55,
  forearm: 0.5,
};

/** Sorting clothing regions into upper, lower, shoes and bag (body-garments.ts). */
export const BODY_PARTS = {
  /** The colour model's spread (ΔE) around each part's seed regions. */
  colourSigma: 10,
  /** Floor of each part's colour likelihood, so the spatial prior still counts where no seed is alike. */
  likelihoodFloor: 0.03,
  /** Rounds of relearning the colour models from the assignment (EM style). */
  iterations: 3,
  /** A region with this much prior for one part and less for every other seeds that part's colour model. */
  seedPrior: 0.75,
  /** Smoothing: passes over the neighbours, each neighbour's weight at most `smoothShare`, by colour likeness (ΔE scale). */
  smoothPasses: 2,
  smoothShare: 0.6,
  smoothColour: 12,
  /** Least detector score of a bag box the prior counts. */
  bagScore: 0.15,
  /** Thigh and shin are at least this many torsos long. */
  minThigh: 0.5,
  minShin: 0.5,
  /** On an arm: within this many torsos of an arm's bone (and nearer it than to a leg's). */
  armReach: 0.16,
  /** The upper part's prior fades by upperFade over upperFadeLength thighs below the hips; on an arm it keeps armUpper. */
  upperFade: 0.85,
  upperFadeLength: 0.6,
  armUpper: 0.9,
  /** The feet take over from the lower garment over feetBand shins either side of the ankles. */
  feetBand: 0.1,
  /** The lower part's prior rises from lowerFrom torsos above the hips to lowerTo torsos below them. */
  lowerFrom: 0.35,
  lowerTo: 0.05,
  /** How much the feet and an arm take away from the lower part's prior. */
  feetOverLower: 0.8,
  armOverLower: 0.7,
  /** Shoes' prior rises from shoesFrom shins above the ankles; beyond ankleReach shins from an ankle it is scaled by offAnkleShoes. */
  shoesFrom: 0.3,
  ankleReach: 0.8,
  offAnkleShoes: 0.2,
  /** Off the body: more than bagOffLines shoulder widths from every limb (or bagBesideBody from the middle). */
  bagBesideBody: 0.6,
  bagOffLines: 0.35,
  /** The bag prior: in a bag box off the body, in one on the body, off the body outside any, on it. */
  bagInBoxOff: 0.8,
  bagInBoxOn: 0.45,
  bagOff: 0.08,
  bagOn: 0.02,
};

/** Face, skin, hair and hat (head.ts). Face lengths: see the file comment. */
export const HEAD = {
  /** The face's skin model needs this many face pixels, and this many left once the outliers are gone. */
  minFacePixels: 30,
  minSkinPixels: 20,
  /** Face pixels further than these from the median (a*, b*, L*) are eyes, brows, lips, glasses or shadow. */
  skinOutlier: { a: 7, b: 9, L: 22 },
  /** Floors of the a* and b* variances: a face in flat light is more uniform than the same skin on arms and legs in shade. */
  skinVarianceFloor: { a: 2, b: 3 },
  /** Skin's lightness band around the face's mean L*: this far darker, this far lighter. */
  skinLightness: { below: 38, above: 22 },
  /** Skin: Mahalanobis² of the chroma under the face's skin model below this. */
  skinDistance2: 5,
  /** Hair: within this ΔE of the hair's colour. */
  hairDE: 16,
  /** Hair seeds beside the face: from `top` to `bottom` face heights below its top, `inner` to `outer` face widths out. */
  sideSeeds: { top: 0.1, bottom: 0.7, inner: 0.45, outer: 0.9 },
  /** Hair (or hat) seeds above the face: from `bottom` face heights into it to `top` above it, within `half` face widths. */
  aboveSeeds: { bottom: 0.05, top: 0.25, half: 0.4 },
  /** Hair-mask regions below the eyes giving the hair's colour: from `top` to `bottom` face heights down, within `half` face widths. */
  lowHair: { top: 0.6, bottom: 2, half: 1.5 },
  /** The low hair's colour counts from this share of the face box. */
  lowHairArea: 0.08,
  /** The beside-face hair's colour counts from this share of the face box. */
  sideHairArea: 0.05,
  /** Hat candidates: above `bottom` face heights into the face, up to `top` above it, within `half` face widths. */
  hatZone: { bottom: 0.15, top: 1.4, half: 1.3 },
  /** A hat covers at least this share of the face box. */
  hatArea: 0.5,
  /** A hat rises this many face heights above the face's top (with hair seen beside it), or `riseAlone` and spreads `wide` face widths. */
  hatRise: 0.45,
  hatRiseAlone: 0.6,
  hatWide: 1.2,
  /** What is left around the head is hair: from `bottom` face heights down to `top` above, within `half` face widths. */
  headRest: { bottom: 0.9, top: 1.5, half: 1.2 },
  /** Hair grows from its seeds within `half` face widths, from `top` face heights above to `bottom` below (long hair reaches the chest). */
  hairReach: { half: 1.5, top: 0.9, bottom: 3.2 },
  /** Below `chin` face heights, hair hangs at the sides: not within `middle` face widths of the chest's middle. */
  hairBelowChin: { chin: 1.2, middle: 0.5 },
};

/**
 * Naming the upper and lower garments (layers.ts). Window edges are in shoulder widths across (from the
 * body's middle) and torsos, thighs or shins along (from the shoulders, hips or ankles).
 */
export const LAYERS = {
  /** Two colours further apart than this (ΔE) are two garments. */
  colourStep: 14,
  /** A colour of at least this chroma forgives light and shade: its lightness counts shadeLightness. */
  shadeChroma: 10,
  shadeLightness: 0.25,
  /** The inner garment's sample at the neckline, where a jacket or coat opens (lower down it is often closed). */
  neckline: { half: 0.16, above: 0.05, below: 0.35 },
  /** The outer garment's sample on the arms: within armReach torsos of an arm's bone, beyond armOut shoulder widths. */
  armReach: 0.12,
  armOut: 0.45,
  /** ...when there are at least minArmRegions such regions; otherwise on the torso's sides, below `from` torsos. */
  minArmRegions: 2,
  sides: { inner: 0.3, outer: 0.6, from: 0.2 },
  /** Regions near the middle (within `half`, above `below` thighs under the hips) lean innerBias ΔE to the inner colour. */
  innerNear: { half: 0.35, below: 0.2 },
  innerBias: 4,
  /** A split is a layer when the inner colour holds between these shares and most of the outer lies beyond outerSides. */
  innerShare: { min: 0.04, max: 0.6 },
  outerSides: 0.3,
  /** One garment is a coat when more than longShare of it lies over longBelow thighs under the hips. */
  longBelow: 0.25,
  longShare: 0.08,
  /** Off the arms: further than this many torsos from every arm bone. */
  offArms: 0.1,
  /** The torso's colour, sampled below `from` torsos and beyond `out` shoulder widths (off the arms). */
  torso: { from: 0.3, out: 0.2 },
  /** An upper garment is followed down from `above` torsos over the hips. */
  extendFrom: 0.3,
  /** What differs below keeps its own garment when it is at least this share of the lower part. */
  restShare: 0.15,
  /** A garment that parts into legs only this many thighs below the hips is a skirt (or coat) over legs. */
  partsBelow: 0.5,
  /** The hips' colour: from `above` torsos over the hips to `below` thighs under them. */
  hips: { above: 0.1, below: 0.35 },
  /** A waistband: grown `above` torsos up from the hips, within `half` shoulder widths, ending where it spans less than `spans` of a row. */
  waistband: { above: 0.35, half: 0.6, spans: 0.6 },
  /** A bib: arms and neckline more than bibStep x colourStep away from the torso's colour. */
  bibStep: 2,
  /** The neckline a bib leaves: within `half` shoulder widths, from `above` to `below` torsos. */
  bibNeck: { half: 0.16, above: 0.05, below: 0.15 },
  /** The bib's front: within `half` shoulder widths, below `from` torsos. */
  bibFront: { half: 0.4, from: 0.1 },
  /** Reaching the ankles: below this many shins above them. */
  ankles: 0.35,
  /** Legs part where a row holds two runs of at least legRun shoulder widths, their gap within legGap of the middle, from splitFrom thighs below the hips. */
  legRun: 0.1,
  legGap: 0.3,
  splitFrom: 0.2,
  /** The hem: the last hemShare of the garment's height, not above hemFrom thighs below the hips. */
  hemShare: 0.2,
  hemFrom: 0.3,
  /** Runs across the hem count from hemRun shoulder widths (at least minHemRun px); tubes from tubeRun. */
  hemRun: 0.04,
  minHemRun: 2,
  tubeRun: 0.08,
  /** Trousers: this share of the hem's rows in two tubes, or ankleTubes reaching the ankles. */
  tubes: 0.4,
  ankleTubes: 0.25,
  /** The torso for a layer's shape: within `half` shoulder widths, below `from` torsos. */
  layerTorso: { half: 0.45, from: 0.1 },
  /** Around the elbows: within elbowReach torsos of an arm bone, beyond elbowOut shoulder widths. */
  elbowReach: 0.12,
  elbowOut: 0.4,
  /** A layer covers at least torsoCover of the torso; covering less than armCover of the elbows it is a vest. */
  torsoCover: 0.4,
  armCover: 0.35,
};

/** Bags from the detector's boxes (bags.ts). */
export const BAGS = {
  /** A bag box anywhere. */
  minScore: 0.15,
  /** A bag box that hangs beside the body (hangingBag); the detector is asked down to this score. */
  hangingScore: 0.06,
  /** A hanging bag: at least `tall` torsos tall, its centre `beside` shoulder widths off the middle, its bottom `below` torsos under the hips. */
  hanging: { tall: 0.8, beside: 0.5, below: 0.5 },
  /** A faint box overlapping a confident one by this share (of the smaller) is the same bag. */
  sameBag: 0.25,
  /** Off the body's lines: further than this many shoulder widths. */
  offLines: 0.22,
  /** The bag's colour comes from within this share of the box either side of its centre. */
  core: 0.35,
  /** Within this ΔE of the bag's colour, or offDE off the body's lines (shading, prints, sheen). */
  bagDE: 16,
  offDE: 32,
  /** A box whose middle (middle share either side of its centre) the matte holds less than leftOut of is a bag the matte left out. */
  middle: 0.25,
  leftOut: 0.5,
  /** A box the matte does not reach at all (this share of it) belongs to someone else in the background. */
  touches: 0.1,
  /** The backdrop: a ring `ring` box sizes around the box; the bag's colour covering over ringShare of it is backdrop. */
  ring: 0.25,
  ringShare: 0.2,
  /** A loose bag covers at least this share of its box. */
  looseArea: 0.15,
};

/** The rules' parse of a photo (rules.ts). */
export const RULE_PARSE = {
  /** Foreground pieces at least this share of the largest one belong to the subject. */
  pieceShare: 0.2,
  /** A keypoint counts as seen from this score. */
  seenScore: 0.3,
  /** Pieces within this many torsos of a wrist stay (what a hand holds). */
  handReach: 0.3,
  /** Skin islands within this many torsos of a forearm stay skin (a bare arm across the body). */
  forearmReach: 0.12,
  /** A person box: score at least personScore, holding more than personShare of the foreground. */
  personScore: 0.45,
  personShare: 0.5,
  /** A thing nobody wears: detector score from this (the shared cup scores 0.56)... */
  notWornScore: 0.3,
  /** ...its box holding more than this share of the foreground (the shared cup's holds 0.48: the saucer is beside it). */
  notWornShare: 1 / 3,
  /** Boots: leg regions below `above` shins over the knees, within bootDE of the shoes' colour, whose top bootRim meets bare skin. */
  bootAbove: 0.1,
  bootDE: 14,
  bootRim: 0.2,
};

/** A garment alone: its class from the silhouette (alone.ts). Heights are shares of the shape's height from its top. */
export const ALONE = {
  /** The rows read: top, upper, middle and low. */
  rows: { top: 0.1, upper: 0.3, middle: 0.5, low: 0.85 },
  /** Rows where trousers show two legs, and how many of them must. */
  legRows: [0.6, 0.7, 0.8, 0.9],
  legRowsTwo: 3,
  /** Rows where sleeves show as three pieces; or shoulders fuller than sleeveShoulders over a middle under sleeveMiddle. */
  sleeveRows: [0.3, 0.4, 0.5, 0.6, 0.7],
  sleeveRuns: 3,
  sleeveShoulders: 0.8,
  sleeveMiddle: 0.65,
  /** A bag: a hole of at least holeShare of the box, the shape less than bagAspect tall for its width. */
  holeShare: 0.01,
  bagAspect: 1.6,
  /** Trousers: taller than pantsAspect. */
  pantsAspect: 0.9,
  /** Shoes: flatter than shoesAspect (two pieces at the bottom, or any shape that flat). */
  shoesAspect: 0.75,
  /** A hat: flatter than hatAspect, its top row less full than hatTop, its low row fuller than hatLow. */
  hatAspect: 0.8,
  hatTop: 0.7,
  hatLow: 0.8,
  /** A skirt: wider low than in the middle by skirtFlare, its top under skirtTop full, taller than skirtAspect. */
  skirtFlare: 1.05,
  skirtTop: 0.8,
  skirtAspect: 0.7,
  /** Taller than this a top is a coat. */
  coatAspect: 1.35,
};

/** The work image's superpixels (scene.ts, superpixels.ts). */
export const SUPERPIXELS = {
  /** Roughly this many pixels per superpixel, and at least minRegions superpixels. */
  pixelsPerRegion: 70,
  minRegions: 64,
  /** SLIC's compactness (larger: squarer regions) and its rounds. */
  compactness: 12,
  iterations: 6,
};

/** Human's body and object detectors for the parse (human-run.ts). */
export const DETECTION = {
  /** Side of the square view the detectors read (padded right and bottom). */
  viewSide: 1024,
  /** Movenet's least keypoint confidence (the parse judges scores itself, BODY.minScore). */
  bodyMinConfidence: 0.05,
  /** Centernet's least score by default, its overlap suppression and most objects. */
  objectMinScore: 0.2,
  objectIou: 0.4,
  objectMax: 20,
};

/** Faces the face parser reads around (head-parsing.ts): the largest ones (people in the back are rarely the subject). */
export const HEAD_FACES = 2;
/**
 * The face parser's input side here: hats and hair are large parts of the crop; 384 costs about half of
 * 512's CPU, and the smaller parts (lips, eyes) that need 512 are not read here.
 */
export const HEAD_INPUT = 384;
