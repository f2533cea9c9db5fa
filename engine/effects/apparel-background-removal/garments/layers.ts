/**
 * Which garment an upper or lower part is. Upper: an outer layer (coat, jacket, blazer, cardigan) shows
 * as one colour on the arms and the torso's sides with another in a strip down the front, or as an upper
 * garment that hangs well below the hips; otherwise it is a top. Lower: trousers and shorts part into two
 * tubes at the hem, a skirt stays one piece.
 */
import { labDistance } from '../../../image/colour.ts';
import { segmentDistance } from './body-frame.ts';
import type { Geometry } from './body-garments.ts';
import { flood } from './regions.ts';
import { areaOf, L, medianLab, type Scene } from './scene.ts';
import { LAYERS } from './tuning.ts';

/** Splits the upper regions into coat and tops region lists. */
export function splitUpper(s: Scene, upper: number[], g: Geometry): { coat: number[]; tops: number[] } {
  if (upper.length === 0) return { coat: [], tops: [] };
  const R = (r: number) => s.regions[r];
  // The inner garment is sampled at the neckline (the upper third of the torso's middle), where a jacket
  // or coat opens; lower down an outer layer is often closed or buttoned (measured: 0.5 of the torso
  // mixed the coat into the sample and sent suits and buttoned coats to tops).
  const centre = upper.filter((r) => Math.abs(R(r).x - g.cx) < g.sw * LAYERS.neckline.half && R(r).y > g.ys - LAYERS.neckline.above * g.t && R(r).y < g.ys + LAYERS.neckline.below * g.t);
  const arms = upper.filter((r) => Math.min(...g.arms.map(([a, b]) => segmentDistance(R(r), a, b).d)) < g.t * LAYERS.armReach && Math.abs(R(r).x - g.cx) > g.sw * LAYERS.armOut);
  const sides = upper.filter((r) => Math.abs(R(r).x - g.cx) > g.sw * LAYERS.sides.inner && Math.abs(R(r).x - g.cx) < g.sw * LAYERS.sides.outer && R(r).y > g.ys + LAYERS.sides.from * g.t && R(r).y < g.yh);
  const cin = medianLab(s, centre);
  const cout = medianLab(s, arms.length >= LAYERS.minArmRegions ? arms : sides);
  const total = areaOf(s, upper);
  if (cin && cout && labDistance(cin, cout) > LAYERS.colourStep) {
    const inner: number[] = [], outer: number[] = [];
    for (const r of upper) {
      const near = Math.abs(R(r).x - g.cx) < g.sw * LAYERS.innerNear.half && R(r).y < g.yh + LAYERS.innerNear.below * g.thigh ? LAYERS.innerBias : 0;
      (labDistance(R(r).lab, cin) - near < labDistance(R(r).lab, cout) ? inner : outer).push(r);
    }
    const share = areaOf(s, inner) / total;
    const outerOnSides = areaOf(s, outer.filter((r) => Math.abs(R(r).x - g.cx) > g.sw * LAYERS.outerSides)) / Math.max(1, areaOf(s, outer));
    if (share > LAYERS.innerShare.min && share < LAYERS.innerShare.max && outerOnSides > 0.5) {
      const shape = layerShape(s, inner, outer, g);
      if (shape === 'coat') return { coat: outer, tops: inner };
      if (shape === 'vest') return { coat: [], tops: upper };
    }
  }
  // One garment: a coat when a good part of it hangs below the hips.
  const below = areaOf(s, upper.filter((r) => R(r).y > g.yh + LAYERS.longBelow * g.thigh));
  return below / total > LAYERS.longShare ? { coat: upper, tops: [] } : { coat: [], tops: upper };
}

/**
 * An upper garment that goes on below the hips in the same colour (a coat, a long jacket) took the lower
 * part's place there: those regions go back to the upper garment, when a different lower garment (or
 * the legs) shows below or between them. Without anything different below it is one piece (a dress, a
 * jumpsuit, a suit of one colour) and the hips stay the seam. First, a lower garment worn above the hip
 * keypoints takes back its waistband (waistband()).
 */
export function extendUpper(s: Scene, upper: number[], lower: number[], g: Geometry): { upper: number[]; lower: number[]; bib?: boolean } {
  const offArms = (r: number) => Math.min(...g.arms.map(([a, b]) => segmentDistance(s.regions[r], a, b).d)) > g.t * LAYERS.offArms;
  const torso = upper.filter((r) => s.regions[r].y > g.ys + LAYERS.torso.from * g.t && s.regions[r].y < g.yh && Math.abs(s.regions[r].x - g.cx) > g.sw * LAYERS.torso.out && offArms(r));
  const u = medianLab(s, torso.length ? torso : upper);
  if (!u || lower.length === 0) return { upper, lower };
  const waist = waistband(s, upper, lower, u, g, offArms);
  if (waist.length) {
    const inWaist = new Set(waist);
    upper = upper.filter((r) => !inWaist.has(r));
    lower = [...lower, ...waist];
  }
  const isLower = new Set(lower), isUpper = new Set(upper);
  const same = flood(s, upper.filter((r) => s.regions[r].y > g.yh - LAYERS.extendFrom * g.t), (r) => isLower.has(r) ? shadedDistance(s.regions[r].lab, u) < LAYERS.colourStep : isUpper.has(r));
  const moved = lower.filter((r) => same.has(r));
  const rest = lower.filter((r) => !same.has(r));
  const bib = moved.length && reachesAnkles(s, moved, g) ? bibFront(s, upper, u, g, offArms) : null;
  if (bib) {
    const inBib = new Set(bib);
    return { upper: upper.filter((r) => !inBib.has(r)), lower: [...lower, ...bib], bib: true };
  }
  if (areaOf(s, rest) >= areaOf(s, lower) * LAYERS.restShare) return { upper: [...upper, ...moved], lower: rest };
  // Legs in a colour close to the coat's (dark tights under a dark coat): the coat is the part that stays
  // one piece well below the crotch, above the row where the legs part.
  const mask = new Uint8Array(s.width * s.height);
  for (let i = 0; i < mask.length; i++) mask[i] = isLower.has(s.sp[i]) || isUpper.has(s.sp[i]) ? 1 : 0;
  const parts = splitRow(mask, s.width, s.height, g);
  if (!(parts > g.yh + LAYERS.partsBelow * g.thigh) || parts === Infinity) return { upper, lower };
  const coatSkirt = moved.filter((r) => s.regions[r].y < parts);
  return { upper: [...upper, ...coatSkirt], lower: lower.filter((r) => !coatSkirt.includes(r)) };
}

/**
 * A lower garment worn high (high-waisted trousers or skirt) reaches above the hip keypoints, where the
 * upper part's prior took it: the hips' colour, when it is not the torso's, grows up through the regions
 * off the arms between the waist and the hips.
 */
function waistband(s: Scene, upper: number[], lower: number[], u: number[], g: Geometry, offArms: (r: number) => boolean): number[] {
  const c = medianLab(s, lower.filter((r) => s.regions[r].y > g.yh - LAYERS.hips.above * g.t && s.regions[r].y < g.yh + LAYERS.hips.below * g.thigh));
  if (!c || labDistance(c, u) <= LAYERS.colourStep) return [];
  const band = new Set(upper.filter((r) => s.regions[r].y > g.yh - LAYERS.waistband.above * g.t && offArms(r) && Math.abs(s.regions[r].x - g.cx) < g.sw * LAYERS.waistband.half));
  const isLower = new Set(lower);
  const grown = flood(s, lower, (r) => isLower.has(r) || (band.has(r) && labDistance(s.regions[r].lab, c) < LAYERS.colourStep));
  // A waistband goes round the body: going up from the hips, it ends at the first row it no longer
  // spans (a panel or stripe of the trousers' colour up the front of a shirt does not).
  const torso = new Set([...band, ...lower]);
  let top = g.yh;
  for (let y = Math.round(g.yh); y >= Math.max(0, g.yh - LAYERS.waistband.above * g.t); y--) {
    let on = 0, all = 0;
    for (let x = Math.max(0, Math.round(g.cx - g.sw * LAYERS.waistband.half)); x < Math.min(s.width, g.cx + g.sw * LAYERS.waistband.half); x++) {
      const r = s.sp[y * s.width + x];
      if (!torso.has(r)) continue;
      all++;
      if (grown.has(r)) on++;
    }
    if (all && on < all * LAYERS.waistband.spans) break;
    top = y;
  }
  return [...band].filter((r) => grown.has(r) && s.regions[r].y >= top);
}

/**
 * The torso's colour goes on down the legs to the ankles. With the arms and the neckline in clearly another
 * colour (a shirt, a jacket beneath or over it) that is a bib (overalls, dungarees): its front over the
 * torso is the trousers too; those regions are returned. With the arms in the torso's colour it is a coat,
 * a suit or one outfit (null); with bare arms it may as well be a one-colour top and trousers (null).
 */
function bibFront(s: Scene, upper: number[], u: number[], g: Geometry, offArms: (r: number) => boolean): number[] | null {
  const like = (r: number) => shadedDistance(s.regions[r].lab, u) < LAYERS.colourStep;
  const arms = medianLab(s, upper.filter((r) => !offArms(r) && Math.abs(s.regions[r].x - g.cx) > g.sw * LAYERS.armOut));
  // A bib leaves the neckline to the garment beneath it (a shirt, a top).
  const neck = medianLab(s, upper.filter((r) => Math.abs(s.regions[r].x - g.cx) < g.sw * LAYERS.bibNeck.half && s.regions[r].y > g.ys - LAYERS.bibNeck.above * g.t && s.regions[r].y < g.ys + LAYERS.bibNeck.below * g.t));
  if (!arms || !neck || labDistance(arms, u) <= LAYERS.bibStep * LAYERS.colourStep || labDistance(neck, u) <= LAYERS.bibStep * LAYERS.colourStep) return null;
  return upper.filter((r) => like(r) && offArms(r) && Math.abs(s.regions[r].x - g.cx) < g.sw * LAYERS.bibFront.half && s.regions[r].y > g.ys + LAYERS.bibFront.from * g.t);
}

/** Whether the regions reach down to the ankles. */
function reachesAnkles(s: Scene, rs: number[], g: Geometry): boolean {
  return Math.max(...rs.map((r) => s.regions[r].y1)) > g.ya - LAYERS.ankles * g.shin;
}

/**
 * The lower garment: what covers the hips, grown down through its own colour. Ending above mid-shin it is
 * a skirt or shorts (shorts part into two tubes at the hem); reaching lower it is trousers unless the hem
 * stays one wide piece (a long skirt). What covers the legs below it in another colour (leggings, tights)
 * is counted with trousers; `legs` lists those regions (not part of the garment at the hips). `trousers`:
 * already known to be trousers (a bib down to the ankles, whose legs may overlap as one piece).
 */
export function splitLower(s: Scene, lower: number[], g: Geometry, trousers = false): { skirt: number[]; pants: number[]; legs: number[] } {
  const hipSeeds = lower.filter((r) => s.regions[r].y > g.yh - LAYERS.hips.above * g.t && s.regions[r].y < g.yh + LAYERS.hips.below * g.thigh);
  const c = medianLab(s, hipSeeds);
  if (!c) return { skirt: [], pants: lower, legs: lower };
  const isLower = new Set(lower);
  const main = flood(s, hipSeeds, (r) => isLower.has(r) && shadedDistance(s.regions[r].lab, c) < LAYERS.colourStep);
  const garment = [...main], legs = lower.filter((r) => !main.has(r));
  const mask = new Uint8Array(s.width * s.height);
  for (let i = 0; i < mask.length; i++) mask[i] = main.has(s.sp[i]) ? 1 : 0;
  // Between trouser legs the background or the skin shows; a gap of clothing inside one outline (a
  // panel, a fold, a print in another colour) does not part a skirt.
  const open = new Uint8Array(mask.length);
  for (let i = 0; i < open.length; i++) open[i] = s.alpha[s.sp[i]] < 0.5 || s.label[s.sp[i]] === L.skin ? 1 : 0;
  const kind = trousers ? 'pants' : hemKind(mask, s.width, s.height, g, open);
  if (kind === 'skirt') return { skirt: garment, pants: legs, legs };
  // Trousers part at the crotch. A garment that stays one piece well below it and only then parts is a
  // skirt over legs in a similar colour (tights, leggings, dark boots).
  const parts = splitRow(mask, s.width, s.height, g);
  if (parts > g.yh + LAYERS.partsBelow * g.thigh) {
    const skirt = garment.filter((r) => s.regions[r].y < parts);
    return { skirt, pants: lower.filter((r) => !skirt.includes(r)), legs };
  }
  return { skirt: [], pants: lower, legs };
}

/** The runs [start, end) of mask == 1 along row y that are at least minLength long, left to right. */
function rowRuns(mask: Uint8Array, width: number, y: number, minLength: number): [number, number][] {
  const runs: [number, number][] = [];
  let start = -1;
  for (let x = 0; x <= width; x++) {
    const on = x < width && mask[y * width + x] === 1;
    if (on && start < 0) start = x;
    if (!on && start >= 0) { if (x - start >= minLength) runs.push([start, x]); start = -1; }
  }
  return runs;
}

/** The first row below the crotch where the mask is two sizeable runs; Infinity when it never parts. */
export function splitRow(mask: Uint8Array, width: number, height: number, g: Geometry): number {
  const minRun = g.sw * LAYERS.legRun;
  for (let y = Math.max(0, Math.round(g.yh + LAYERS.splitFrom * g.thigh)); y < height; y++) {
    const runs = rowRuns(mask, width, y, minRun);
    // Legs: two runs with the gap between them near the body's midline (not an arm or a bag beside it).
    for (let k = 0; k + 1 < runs.length; k++) if (Math.abs((runs[k][1] + runs[k + 1][0]) / 2 - g.cx) < g.sw * LAYERS.legGap) return y;
  }
  return Infinity;
}

/** 'pants' or 'skirt' from the garment's hem: two tubes (or reaching the ankles) or one piece. */
export function hemKind(mask: Uint8Array, width: number, height: number, g: Geometry, open?: Uint8Array): 'pants' | 'skirt' {
  let top = -1, bottom = -1;
  for (let y = 0; y < height; y++) {
    let any = false;
    for (let x = 0; x < width; x++) if (mask[y * width + x]) { any = true; break; }
    if (any) { if (top < 0) top = y; bottom = y; }
  }
  if (top < 0) return 'pants';
  // The hem: the last fifth of the garment's height, but not above the crotch.
  const from = Math.max(Math.round(bottom - (bottom - top) * LAYERS.hemShare), Math.round(g.yh + LAYERS.hemFrom * g.thigh));
  let split = 0, rows = 0;
  const minGap = Math.max(LAYERS.minHemRun, Math.round(g.sw * LAYERS.hemRun));
  for (let y = from; y <= bottom; y++) {
    const runs = rowRuns(mask, width, y, minGap);
    if (runs.length === 0) continue;
    rows++;
    // Two tubes: two sizeable runs with a real gap between them near the body's middle.
    const big = runs.filter(([a, b]) => b - a >= g.sw * LAYERS.tubeRun);
    if (big.length >= 2 && (!open || big.some((run, k) => k + 1 < big.length && openShare(open, y * width, run[1], big[k + 1][0]) >= 0.5))) split++;
  }
  if (rows === 0) return 'pants';
  const reachesAnkles = bottom > g.ya - LAYERS.ankles * g.shin;
  const ratio = split / rows;
  return ratio > LAYERS.tubes || (reachesAnkles && ratio > LAYERS.ankleTubes) ? 'pants' : 'skirt';
}

/** Share of the pixels of row `offset` from x0 (inclusive) to x1 (exclusive) that are on in `open`. */
function openShare(open: Uint8Array, offset: number, x0: number, x1: number): number {
  let on = 0;
  for (let x = x0; x < x1; x++) on += open[offset + x];
  return x1 > x0 ? on / (x1 - x0) : 0;
}

/**
 * Whether a colour split of the upper garment has the shape of an outer layer. A coat or jacket covers
 * the torso's sides and the upper arms; one over the torso but not the upper arms (their colour is the
 * inner garment's, or skin) is a vest, which counts as a top. An "outer" colour that covers the arms but
 * not the torso (bare arms the skin model missed, sleeves of another colour on a t-shirt) is no layer.
 */
export function layerShape(s: Scene, inner: number[], outer: number[], g: Geometry): 'coat' | 'vest' | 'none' {
  const R = (r: number) => s.regions[r];
  const inTorso = (r: number) => Math.abs(R(r).x - g.cx) < g.sw * LAYERS.layerTorso.half && R(r).y > g.ys + LAYERS.layerTorso.from * g.t && R(r).y < g.yh;
  const torsoOuter = areaOf(s, outer.filter(inTorso)), torsoInner = areaOf(s, inner.filter(inTorso));
  // Around the elbows (the lower upper arm, the upper forearm): a vest's armhole ends above them.
  const nearElbow = (r: number) => g.arms.some(([a, b], k) => {
    const { d, t } = segmentDistance(R(r), a, b);
    return d < g.t * LAYERS.elbowReach && (k % 2 === 0 ? t > 0.5 : t < 0.5);
  }) && Math.abs(R(r).x - g.cx) > g.sw * LAYERS.elbowOut;
  const armOuter = areaOf(s, outer.filter(nearElbow)), armInner = areaOf(s, inner.filter(nearElbow));
  const torsoShare = torsoOuter / Math.max(1, torsoOuter + torsoInner);
  const armShare = armOuter / Math.max(1, armOuter + armInner);
  if (torsoShare < LAYERS.torsoCover) return 'none';
  if (armOuter + armInner > 0 && armShare < LAYERS.armCover) return 'vest';
  return 'coat';
}

/**
 * Colour distance that forgives light and shade on a coloured fabric: sun and shadow on one garment move
 * its lightness far more than its chroma (a, b), so for a chromatic colour lightness counts a quarter.
 * Neutral colours (black, grey, white, where chroma says nothing) keep the plain distance.
 */
export function shadedDistance(p: ArrayLike<number>, q: ArrayLike<number>): number {
  const chroma = Math.min(Math.hypot(p[1], p[2]), Math.hypot(q[1], q[2]));
  const w = chroma >= LAYERS.shadeChroma ? LAYERS.shadeLightness : 1;
  return Math.hypot((p[0] - q[0]) * w, p[1] - q[1], p[2] - q[2]);
}
