/**
 * Clothing regions of a person sorted into upper garment, lower garment, shoes and bag: a spatial prior
 * from the body frame (torso and arms, hips to ankles, feet, detected bags) times a colour model per
 * part, learnt from the regions each prior is sure of and re-learnt from the assignment (EM style, as
 * GrabCut does), then smoothed over neighbouring regions of similar colour.
 */
import { labDistanceSquared } from '../../../image/colour.ts';
import { dist, mid, segmentDistance, type BodyFrame, type Pt } from './body-frame.ts';
import type { DetectedObject } from './human-run.ts';
import type { Scene } from './scene.ts';
import { BODY_PARTS } from './tuning.ts';

export const PARTS = ['upper', 'lower', 'shoes', 'bag'] as const;
export type Part = (typeof PARTS)[number];

const BAG_LABELS = new Set(['handbag', 'backpack', 'suitcase']);

const clamp01 = (v: number) => Math.max(0, Math.min(1, v));
const ramp = (v: number, from: number, to: number) => clamp01((v - from) / (to - from));

export interface Geometry {
  ys: number; yh: number; yk: number; ya: number; cx: number;
  thigh: number; shin: number; t: number; sw: number;
  arms: [Pt, Pt][]; legs: [Pt, Pt][];
}

export function geometry(f: BodyFrame): Geometry {
  const s = mid(...f.shoulders), h = mid(...f.hips), k = mid(...f.knees), a = mid(...f.ankles);
  const thigh = Math.max(k.y - h.y, f.torso * BODY_PARTS.minThigh), shin = Math.max(a.y - k.y, f.torso * BODY_PARTS.minShin);
  return {
    ys: s.y, yh: h.y, yk: h.y + thigh, ya: h.y + thigh + shin, cx: (s.x + h.x) / 2, thigh, shin, t: f.torso, sw: f.shoulderWidth,
    arms: [0, 1].flatMap((i) => [[f.shoulders[i], f.elbows[i]], [f.elbows[i], f.wrists[i]]] as [Pt, Pt][]),
    legs: [0, 1].flatMap((i) => [[f.hips[i], f.knees[i]], [f.knees[i], f.ankles[i]]] as [Pt, Pt][]),
  };
}

const nearest = (p: Pt, segs: [Pt, Pt][]) => Math.min(...segs.map(([a, b]) => segmentDistance(p, a, b).d));

/** Prior of each part for a region centred at p. */
function prior(g: Geometry, f: BodyFrame, p: Pt, bags: DetectedObject[]): number[] {
  const dArm = nearest(p, g.arms), dLeg = nearest(p, g.legs);
  const onArm = dArm < g.t * BODY_PARTS.armReach && dArm < dLeg ? 1 : 0;
  const upper = !f.hipsSeen ? 1 : Math.max(p.y <= g.yh ? 1 : 1 - BODY_PARTS.upperFade * ramp(p.y, g.yh, g.yh + BODY_PARTS.upperFadeLength * g.thigh), onArm * BODY_PARTS.armUpper);
  // Below the ankles the feet (shoes) take over from the lower garment.
  const feet = f.anklesSeen ? ramp(p.y, g.ya - BODY_PARTS.feetBand * g.shin, g.ya + BODY_PARTS.feetBand * g.shin) : 0;
  const lower = !f.hipsSeen ? 0 : ramp(p.y, g.yh - BODY_PARTS.lowerFrom * g.t, g.yh + BODY_PARTS.lowerTo * g.t) * (1 - BODY_PARTS.feetOverLower * feet) * (1 - BODY_PARTS.armOverLower * onArm);
  const dAnkle = Math.min(...f.ankles.map((a) => dist(p, a)));
  const shoes = !f.anklesSeen ? 0 : ramp(p.y, g.ya - BODY_PARTS.shoesFrom * g.shin, g.ya) * (dAnkle < BODY_PARTS.ankleReach * g.shin ? 1 : BODY_PARTS.offAnkleShoes);
  const inBag = bags.some((b) => p.x >= b.box.x0 && p.x <= b.box.x0 + b.box.w && p.y >= b.box.y0 && p.y <= b.box.y0 + b.box.h);
  const far = Math.min(dArm, dLeg, Math.abs(p.x - g.cx) > g.sw * BODY_PARTS.bagBesideBody ? Infinity : 0) > g.sw * BODY_PARTS.bagOffLines;
  const bag = inBag ? (far ? BODY_PARTS.bagInBoxOff : BODY_PARTS.bagInBoxOn) : far ? BODY_PARTS.bagOff : BODY_PARTS.bagOn;
  return [upper, lower, shoes, bag];
}

export interface PartAssignment { part: Int8Array; scores: Float32Array[] }

/** Assigns each clothing region (clothing[r] = 1) a part index (0..3); -1 for the rest. */
export function assignParts(s: Scene, clothing: Uint8Array, f: BodyFrame, objects: DetectedObject[]): PartAssignment {
  const g = geometry(f);
  const bags = objects.filter((o) => BAG_LABELS.has(o.label) && o.score >= BODY_PARTS.bagScore);
  const R = s.regions.length;
  const ids = [...Array(R).keys()].filter((r) => clothing[r]);
  const pri = new Map(ids.map((r) => [r, prior(g, f, s.regions[r], bags)]));
  // First seeds: regions each prior is sure of.
  let seeds: number[][] = PARTS.map((_, k) => ids.filter((r) => pri.get(r)![k] >= BODY_PARTS.seedPrior && pri.get(r)!.every((v, j) => j === k || v < BODY_PARTS.seedPrior)));
  const part = new Int8Array(R).fill(-1);
  const colours = regionColours(s);
  let post = new Map<number, number[]>();
  for (let it = 0; it < BODY_PARTS.iterations; it++) {
    post = new Map(ids.map((r) => {
      const p = pri.get(r)!;
      return [r, p.map((v, k) => v * (likelihood(colours, r, seeds[k]) + BODY_PARTS.likelihoodFloor))];
    }));
    for (const r of ids) part[r] = argmax(post.get(r)!);
    seeds = PARTS.map((_, k) => ids.filter((r) => part[r] === k));
  }
  // Smoothing: each region's scores mixed with its similar-coloured clothing neighbours'.
  for (let pass = 0; pass < BODY_PARTS.smoothPasses; pass++) {
    const next = new Map<number, number[]>();
    for (const r of ids) {
      const own = normalise(post.get(r)!);
      const acc = own.map((v) => v);
      let wsum = 1;
      for (const q of s.neighbours[r]) {
        const pq = post.get(q);
        if (!pq) continue;
        const w = BODY_PARTS.smoothShare * Math.exp(-labDistanceSquared(s.regions[r].lab, s.regions[q].lab) / (2 * BODY_PARTS.smoothColour ** 2));
        const nq = normalise(pq);
        for (let k = 0; k < acc.length; k++) acc[k] += w * nq[k];
        wsum += w;
      }
      next.set(r, acc.map((v) => v / wsum));
    }
    post = next;
  }
  for (const r of ids) part[r] = argmax(post.get(r)!);
  const scores = PARTS.map((_, k) => { const a = new Float32Array(R); for (const r of ids) a[r] = normalise(post.get(r)!)[k]; return a; });
  return { part, scores };
}

/** Each region's Lab (3 per region) and pixel count as flat arrays: the likelihood's loop reads them ~10^6 times a photo. */
function regionColours(s: Scene) {
  const R = s.regions.length, lab = new Float64Array(3 * R), n = new Float64Array(R);
  for (let r = 0; r < R; r++) {
    const g = s.regions[r];
    lab[3 * r] = g.lab[0]; lab[3 * r + 1] = g.lab[1]; lab[3 * r + 2] = g.lab[2]; n[r] = g.n;
  }
  return { lab, n };
}

/** The seeds' colour kernel at region r, weighted by their sizes (the same sums, in the same order, as over s.regions). */
function likelihood({ lab, n }: ReturnType<typeof regionColours>, r: number, seeds: number[]): number {
  if (seeds.length === 0) return 0;
  let num = 0, den = 0;
  const c0 = lab[3 * r], c1 = lab[3 * r + 1], c2 = lab[3 * r + 2];
  const spread = 2 * BODY_PARTS.colourSigma * BODY_PARTS.colourSigma;
  for (let i = 0; i < seeds.length; i++) {
    const q = seeds[i], w = n[q];
    const dl = c0 - lab[3 * q], da = c1 - lab[3 * q + 1], db = c2 - lab[3 * q + 2];
    num += w * Math.exp(-(dl * dl + da * da + db * db) / spread);
    den += w;
  }
  return num / den;
}

const argmax = (v: number[]) => v.reduce((b, x, i) => (x > v[b] ? i : b), 0);
const normalise = (v: number[]) => { const t = v.reduce((a, b) => a + b, 0) || 1; return v.map((x) => x / t); };
