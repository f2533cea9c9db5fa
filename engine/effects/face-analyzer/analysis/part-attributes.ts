/**
 * The face-analyzer attributes that come from the face parsing, the hair mask and colour: glasses, hat
 * (style and colour), mask, moustache, hair (length, bang, colour), skin colour and a beauty score. The
 * measures are in part-measures.ts; the rules here. Each coded answer is `{type, probability}` with the
 * probability of the type given, from a logistic of the measure's margin from its threshold (two-way
 * answers), a product of such margins (ordered cases), pixel shares (hat colour) or the posterior of
 * Gaussian colour classes (hair colour, skin). Constants are in RULES, from the fit half of the shared
 * faces against by-eye labels (scripts/datasets/face-parts-labels.json; scripts/quality/face-parts.ts reports both
 * halves). Where there were no labelled examples the rule is hand-set from what the measure means and is
 * marked "unchecked".
 *
 * Codes (docs/interface.md#face-analyzer): eye.glass 0 none, 1 glasses, 2 sunglasses; hat.style 0 none,
 * 1 hat, 2 helmet, 3 safety hat; hat.color 0 none, 1 red, 2 yellow, 3 blue, 4 black, 5 grey/white, 6 mixed; mask 0 none,
 * 1 worn not covering, 2 covering chin, 3 covering mouth, 4 worn correctly; moustache 0 none, 1 present;
 * hair.length 0 bald, 1 short, 2 medium, 3 long, 4 tied; hair.bang 0 none, 1 fringe; hair.color 0 black,
 * 1 blonde, 2 brown, 3 grey/white; skin 0 yellow, 1 brown, 2 black, 3 white; beauty 0..100.
 *
 * Limits inherited from the parsing: a headscarf reads as background (so: no hat); a beard reads as skin
 * (so the moustache rule reads the colour of the upper-lip band, not a class); hair longer than the crop
 * is seen only through the hair mask, which spills onto the face on tight crops.
 */
import type { Mask } from '../../../image/mask.ts';
import type { RasterImage } from '../../../image/raster.ts';
import type { FaceParsing, ParsingSample } from '../../../vision/parsing/face-parsing.ts';
import type { Face } from '../../../vision/faces/detect.ts';
import type { Coded } from './geometry-attributes.ts';
import { measureParts } from './part-measures.ts';
import type { Lab, PartFeatures } from './part-features.ts';

export type { Coded, PartFeatures };

export interface PartAttributes {
  glass: Coded;
  hat: { style: Coded; color: Coded };
  mask: Coded;
  moustache: Coded;
  hair: { length: Coded; bang: Coded; color: Coded };
  skin: Coded;
  /** 0..100; what it measures: see beautyScore(). */
  beauty: number;
}

/** [threshold, scale]: P = sigma((x - threshold) / scale); a negative scale means "below the threshold". */
type Margin = readonly [number, number];
/** A Gaussian colour class in L*a*b*: mean, SD per axis, prior weight (its count in the fit half). */
interface ColourClass { mean: Lab; sd: Lab; prior: number }

/**
 * Fitted on the fit half (46 labelled faces) unless marked unchecked. For the two-way rules the threshold
 * is the midpoint of the gap (or the best split) between the labelled groups in the fit half and the scale
 * a quarter of that gap, so the probability passes 0.88 where the nearest labelled face lay.
 */
export const RULES = {
  /**
   * P(any glasses) from the glasses share of the eye band (fit half of face-attributes.labels.json: glasses
   * 0.14-0.62, none <= 0.01; midpoint of the gap, a quarter of it as scale).
   */
  glasses: [0.075, 0.0325] as Margin,
  /**
   * P(sunglasses | glasses) from whether the eye shows through the lens: lensShade + eyeSpread
   * (part-features.ts), the lens area's L* against skin plus the eye's white against its iris. A clear lens
   * shows skin and the eye's white (fit: -16 and up), a dark one neither (the one pair in the fit half:
   * -50). The threshold is the gap's midpoint, the scale a quarter of it. Without a lens area to read
   * (the parser's glasses all on the frame), clear glasses, the common case, are likelier.
   */
  sunglasses: [-32.8, -8.4] as Margin,
  sunglassesMissing: 0.3,
  /** P(hat) from the share of the cap above the forehead that the parser is sure is hat (fit: hats 0.72-1.0, no hat <= 0.46 bar one 0.84). */
  hat: [0.6, 0.06] as Margin,
  /** P(helmet | hat): hat beside the face at ear level (hats seen: 0.01-0.09). Unchecked: no helmet in the data. */
  helmet: [0.35, 0.06] as Margin,
  /**
   * P(safety hat | hat, not helmet): the share of the hat in hard-hat colours (red/orange, yellow) and a brim
   * (the hat wider than 1.2 face widths). Unchecked: no safety hat in the data, and a white hard hat cannot
   * be told from a white cap this way (the white caps in the data are near-white over 97% of their pixels).
   */
  safetyColour: [0.6, 0.08] as Margin,
  safetyBrim: [1.2, 0.05] as Margin,
  /** A hat colour needs this share of the hat's pixels; below it the hat is "mixed". */
  hatColourShare: 0.55,
  /**
   * Mask: a mesh region counts as covered by this share of pixels that are neither skin, nose nor lips to
   * the parser (or less red than skin), far from the skin's colour and even (part-measures.ts). Unchecked
   * against labels (no masks in the data; on the 89 shared faces nose <= 0.27, chin <= 0.34, lips up to
   * 0.59 under two dark moustaches); checked by painting a mask on a photo (part-attributes.test.ts).
   */
  covered: [0.45, 0.07] as Margin,
  /**
   * P(moustache) from the upper-lip band against bare skin (forehead, nose) under the same light:
   * lipBandShade + grain x lipBandGrain (part-features.ts), darker and grainier. The weight and the grain's
   * scale (tuning.ts MOUSTACHE_GRAIN) are those that parted the fit half's labelled faces widest against
   * the scores' spread (fit: none <= 2.19, moustaches >= 2.56); the threshold is the gap's midpoint, the
   * scale a quarter of it. Dark skin under a dark beard stays weak (little darker, little grainier).
   */
  moustache: [2.37, 0.09] as Margin,
  moustacheGrain: 1.5,
  /** P(bang) from the parser's hair over the mesh forehead (fit: best split 0.2; fringes 0.01-0.57). */
  bang: [0.2, 0.03] as Margin,
  /**
   * P(bald): little parser hair over the crown... (the fit half's one bald head: crown hair 0, skin 0.80;
   * the haired heads with least crown hair 0.15-0.20)
   */
  baldHair: [0.25, -0.05] as Margin,
  /** ...and skin there (fit: bald 0.80, haired heads <= 0.60; the gap's midpoint, a quarter of it as scale). */
  baldSkin: [0.7, 0.05] as Margin,
  /** P(hair at the sides, ear to chin): short hair 0-0.06, medium / long 0.51-0.85 in the fit half. */
  sides: [0.25, 0.06] as Margin,
  /** P(long | hair at the sides): the hair mask's bottom below the chin, in face widths (medium 0.44; long 0.56-0.79). */
  long: [0.5, 0.04] as Margin,
  /**
   * P(tied): the crown covered, nothing at the sides, and hair mass below the chin (a ponytail or bun
   * behind). Unchecked: no tied hair labelled in the data. The crown must be covered all over, as
   * pulled-back hair covers it: short-haired men whose beard the hair mask carries below the chin have
   * crown hair 0.74-0.77 (fit half), 0.61 (check half) and read tied at a threshold of 0.6.
   */
  tiedCrown: [0.9, 0.04] as Margin,
  tiedSides: [0.1, -0.03] as Margin,
  tiedBelow: [0.3, 0.08] as Margin,
  /**
   * Hair colour from the lit hair (part-features.ts hairLit, hairTint; any hair is dark in its own shadow),
   * fit half of face-attributes.labels.json: grey or white hair lit is about as light as the face under
   * the same light (hairLit - skin L*: grey -2 and up bar one 12 px head at -24, black -19 and below);
   * brown hair lit is coloured and not dark (hairTint: brown 11.9 and up bar one light-brown head at 7.2,
   * where no hair of another colour lit over L* 37 passes 8.7; hairLit: black 32 and below, brown 42 and up).
   * Blonde against brown by lightness is hand-set (no blonde in the fit half; its browns' hairLit <= 59).
   * Thresholds at the gaps' midpoints, scales a quarter of the gaps.
   */
  hairGrey: [-10.5, 4.2] as Margin,
  hairColoured: [10.3, 0.8] as Margin,
  hairLight: [37, 2.5] as Margin,
  hairBlonde: [65, 5] as Margin,
  /** Skin classes (median L*a*b* of cheek and forehead skin). Weak: lighting moves L* more than skin does. */
  skin: [
    { mean: [59.7, 12.4, 13.6], sd: [16.7, 3.9, 5.7], prior: 9 },
    { mean: [56.6, 15.5, 23.0], sd: [14.0, 4.4, 10.3], prior: 12 },
    { mean: [43.4, 16.3, 18.7], sd: [16.4, 8.6, 13.7], prior: 6 },
    { mean: [64.4, 16.3, 19.8], sd: [14.4, 5.0, 7.9], prior: 16 },
  ] as ColourClass[],
  /**
   * Beauty: the fit half's median and SD of mesh asymmetry and skin spread, and the mean and SD of the
   * proportions (eye distance, mouth width, nose width, face length over face width). No labels involved.
   */
  beauty: {
    asymmetry: [0.0227, 0.0147] as Margin,
    skinSpread: [5.964, 3.25] as Margin,
    proportions: [[0.4547, 0.0288], [0.4092, 0.0535], [0.2907, 0.0216], [1.1338, 0.0781]] as Margin[],
  },
};

const sigma = (v: number) => 1 / (1 + Math.exp(-v));
const round3 = (v: number) => Math.round(v * 1000) / 1000;
/** P from a margin; a measure that could not be taken (NaN) gives `missing`. */
const p = (x: number, [t, s]: Margin, missing = 0.5) => (Number.isFinite(x) ? sigma((x - t) / s) : missing);

function pick(ps: number[]): Coded {
  const sum = ps.reduce((a, b) => a + b, 0) || 1;
  let best = 0;
  ps.forEach((v, i) => { if (v > ps[best]) best = i; });
  return { type: best, probability: round3(ps[best] / sum) };
}

function colourPosterior(x: Lab, classes: readonly ColourClass[]): number[] {
  if (!x.every(Number.isFinite)) return classes.map((c) => c.prior);
  const ll = classes.map((c) => Math.log(c.prior) - c.mean.reduce((s, m, d) => s + ((x[d] - m) / c.sd[d]) ** 2 / 2 + Math.log(c.sd[d]), 0));
  const top = Math.max(...ll);
  return ll.map((v) => Math.exp(v - top));
}

/**
 * Beauty, 0..100: the mean of three scores, each 0..1, from how the face compares with the fit half of the
 * shared faces (no labels, no notion of taste beyond these): symmetry (the 3D mesh's mismatch with its
 * mirror image, lower = higher score), skin evenness (the spread of L* over cheek and forehead skin,
 * lower = higher) and average proportions (eye distance, mouth and nose width, face length against their
 * means: closer = higher, exp(-mean z^2 / 2)). One-sided scores are sigma(-1.7 z), about the share of
 * faces that measure worse. 50 is an average face.
 */
export function beautyScore(x: PartFeatures): number {
  const B = RULES.beauty;
  const oneSided = (v: number, [m, s]: Margin) => (Number.isFinite(v) ? sigma((-1.7 * (v - m)) / s) : 0.5);
  const z2 = x.proportions.map((v, i) => ((v - B.proportions[i][0]) / B.proportions[i][1]) ** 2);
  const prop = Math.exp(-z2.reduce((a, b) => a + b, 0) / z2.length / 2);
  const score = (oneSided(x.asymmetry, B.asymmetry) + oneSided(x.skinSpread, B.skinSpread) + prop) / 3;
  return Math.round(100 * score);
}

/** Hat colour code from the hat's pixel shares by bin (part-measures colourBin: red, yellow, blue, black, grey/white, other). */
function hatColour(shares: number[]): Coded {
  let best = 0;
  shares.forEach((v, i) => { if (v > shares[best]) best = i; });
  if (best === 5 || shares[best] < RULES.hatColourShare) return { type: 6, probability: round3(1 - Math.max(...shares.slice(0, 5))) };
  return { type: best + 1, probability: round3(shares[best]) };
}

/**
 * Hair colour: 0 black, 1 blonde, 2 brown, 3 grey/white. Without hair to read (a hat, a bald head) the
 * measures are NaN and black, the commonest, is likeliest.
 */
function hairColour(x: PartFeatures): Coded {
  const coloured = p(x.hairTint, RULES.hairColoured, 0.2) * p(x.hairLit, RULES.hairLight, 0.5);
  const grey = p(x.hairLit - x.skinLab[0], RULES.hairGrey, 0.2);
  const blonde = p(x.hairLit, RULES.hairBlonde, 0.2);
  return pick([(1 - coloured) * (1 - grey), coloured * blonde, coloured * (1 - blonde), (1 - coloured) * grey]);
}

/** The rules applied to measured features (exported for the quality script). */
export function decideParts(x: PartFeatures): PartAttributes {
  const R = RULES;
  // Glasses: none / glasses / sunglasses as P(any) split by P(dark | any).
  const pg = p(x.glassBand, R.glasses, 0), ps = p(x.lensShade + x.eyeSpread, R.sunglasses, R.sunglassesMissing);
  const glass = pick([1 - pg, pg * (1 - ps), pg * ps]);
  // Hat: none / hat / helmet / safety hat.
  const ph = p(x.hatTop, R.hat, 0);
  const pHelmet = p(x.hatEars, R.helmet, 0);
  const pSafety = p(x.hatColours[0] + x.hatColours[1], R.safetyColour, 0) * p(x.hatWidth, R.safetyBrim, 0);
  const style = pick([1 - ph, ph * (1 - pHelmet) * (1 - pSafety), ph * pHelmet, ph * (1 - pHelmet) * pSafety]);
  const color = style.type === 0 ? { type: 0, probability: style.probability } : hatColour(x.hatColours);
  // Mask: which of nose, mouth, chin are covered; the cases in order of coverage.
  // Case 1 (worn, covering nothing: pulled under the chin) is not answered: below the chin the parser sees
  // neck and cloth, and a mask there reads as a collar (a measure of non-skin under the chin came out
  // above 0.6 on 4 of the 89 shared faces, none with a mask).
  const pn = p(x.coverNose, R.covered, 0), pm = p(x.coverMouth, R.covered, 0), pc = p(x.coverChin, R.covered, 0);
  // A mask over the mouth also covers the chin: the mouth alone reads as none (a dark moustache and
  // beard still pass the colour and evenness tests on 2 of the 89 shared faces, at 0.59 of the lips).
  const mask = pick([
    (1 - pn) * (1 - pc),
    0,
    (1 - pn) * (1 - pm) * pc,
    (1 - pn) * pm * pc,
    pn * pm,
  ]);
  const pMo = p(x.lipBandShade + R.moustacheGrain * x.lipBandGrain, R.moustache, 0.2);
  const moustache = pMo >= 0.5 ? { type: 1, probability: round3(pMo) } : { type: 0, probability: round3(1 - pMo) };
  // Hair length: bald, else tied, else by the sides and the bottom.
  const bald = p(x.crownHair, R.baldHair, 0) * p(x.crownSkin, R.baldSkin, 0);
  const tied = p(x.crownHair, R.tiedCrown, 0) * p(x.sideHair, R.tiedSides, 0.5) * p(x.hairBelowChin, R.tiedBelow, 0);
  const side = p(x.sideHair, R.sides), long = p(x.hairBelowChin, R.long);
  const rest = (1 - bald) * (1 - tied);
  const length = pick([bald, rest * (1 - side), rest * side * (1 - long), rest * side * long, (1 - bald) * tied]);
  const pb = p(x.fringe, R.bang, 0);
  const bang = pb >= 0.5 ? { type: 1, probability: round3(pb) } : { type: 0, probability: round3(1 - pb) };
  return {
    glass,
    hat: { style, color },
    mask,
    moustache,
    hair: { length, bang, color: hairColour(x) },
    skin: pick(colourPosterior(x.skinLab, R.skin)),
    beauty: beautyScore(x),
  };
}

/**
 * The part attributes of one face, from its parsing (parseFace) and the photo's hair mask (hairMask; without
 * it the parser's hair stands in and hair past the crop is not seen). Null when the face has no mesh.
 */
export function partAttributes(face: Face, image: RasterImage, parsing: FaceParsing | ParsingSample, hair?: Mask): PartAttributes | null {
  const x = measureParts(face, image, parsing, hair);
  if (!x) return null;
  const parts = decideParts(x);
  // A photo without colour says nothing of the skin's: no skin answer (type 0, probability 0, as for one not asked).
  return greyFace(face, image) ? { ...parts, skin: { type: 0, probability: 0 } } : parts;
}

/** Channel difference (0..255) within which a pixel counts as grey, and the share of the face's box that may exceed it. */
const GREY = { tolerance: 6, colourShare: 0.02 };

/** Whether the face's box holds no colour: a black-and-white photo (or one stored as RGB with equal channels). */
export function greyFace(face: Face, image: RasterImage): boolean {
  const { data, width, height, channels } = image;
  const x0 = Math.max(0, Math.floor(face.box.x0)), y0 = Math.max(0, Math.floor(face.box.y0));
  const x1 = Math.min(width, Math.ceil(face.box.x0 + face.box.w)), y1 = Math.min(height, Math.ceil(face.box.y0 + face.box.h));
  if (channels < 3 || x1 <= x0 || y1 <= y0) return channels < 3;
  const step = Math.max(1, Math.floor(Math.min(x1 - x0, y1 - y0) / 64));
  let n = 0, coloured = 0;
  for (let y = y0; y < y1; y += step) {
    for (let x = x0; x < x1; x += step) {
      const i = (y * width + x) * channels;
      n++;
      if (Math.max(Math.abs(data[i] - data[i + 1]), Math.abs(data[i + 1] - data[i + 2]), Math.abs(data[i] - data[i + 2])) > GREY.tolerance) coloured++;
    }
  }
  return coloured <= GREY.colourShare * n;
}
