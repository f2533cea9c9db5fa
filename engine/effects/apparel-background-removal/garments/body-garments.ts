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

const K = PARTS.length;

/**
 * Assigns each clothing region (clothing[r] = 1) a part index (0..3); -1 for the rest. The clothing
 * regions' priors, posteriors and colour kernel are flat arrays by their place in `ids`: the same sums in
 * the same order as over maps of arrays, which cost a portrait's parse about a fifth of its time.
 */
export function assignParts(s: Scene, clothing: Uint8Array, f: BodyFrame, objects: DetectedObject[]): PartAssignment {
  const g = geometry(f);
  const bags = objects.filter((o) => BAG_LABELS.has(o.label) && o.score >= BODY_PARTS.bagScore);
  const R = s.regions.length;
  const ids = [...Array(R).keys()].filter((r) => clothing[r]);
  const N = ids.length;
  const pri = new Float64Array(N * K);
  for (let i = 0; i < N; i++) pri.set(prior(g, f, s.regions[ids[i]], bags), i * K);
  // First seeds: regions each prior is sure of.
  let seeds = PARTS.map((_, k) => {
    const out: number[] = [];
    for (let i = 0; i < N; i++) {
      let sure = pri[i * K + k] >= BODY_PARTS.seedPrior;
      for (let j = 0; j < K && sure; j++) if (j !== k && pri[i * K + j] >= BODY_PARTS.seedPrior) sure = false;
      if (sure) out.push(i);
    }
    return out;
  });
  const part = new Int8Array(R).fill(-1);
  const size = new Float64Array(N);
  for (let i = 0; i < N; i++) size[i] = s.regions[ids[i]].n;
  const kernel = colourKernel(s, ids);
  let post = new Float64Array(N * K);
  for (let it = 0; it < BODY_PARTS.iterations; it++) {
    const like = seeds.map((sd) => likelihoods(kernel, size, sd, N));
    for (let i = 0; i < N; i++) {
      for (let k = 0; k < K; k++) post[i * K + k] = pri[i * K + k] * (like[k][i] + BODY_PARTS.likelihoodFloor);
      part[ids[i]] = argmax(post, i * K);
    }
    seeds = PARTS.map((_, k) => { const out: number[] = []; for (let i = 0; i < N; i++) if (part[ids[i]] === k) out.push(i); return out; });
  }
  // Smoothing: each region's scores mixed with its similar-coloured clothing neighbours'.
  const at = new Int32Array(R).fill(-1);
  for (let i = 0; i < N; i++) at[ids[i]] = i;
  const own = new Float64Array(K), acc = new Float64Array(K), nq = new Float64Array(K);
  for (let pass = 0; pass < BODY_PARTS.smoothPasses; pass++) {
    const next = new Float64Array(N * K);
    for (let i = 0; i < N; i++) {
      const r = ids[i];
      normalise(post, i * K, own);
      acc.set(own);
      let wsum = 1;
      for (const q of s.neighbours[r]) {
        const j = at[q];
        if (j < 0) continue;
        const w = BODY_PARTS.smoothShare * Math.exp(-labDistanceSquared(s.regions[r].lab, s.regions[q].lab) / (2 * BODY_PARTS.smoothColour ** 2));
        normalise(post, j * K, nq);
        for (let k = 0; k < K; k++) acc[k] += w * nq[k];
        wsum += w;
      }
      for (let k = 0; k < K; k++) next[i * K + k] = acc[k] / wsum;
    }
    post = next;
  }
  for (let i = 0; i < N; i++) part[ids[i]] = argmax(post, i * K);
  const scores = PARTS.map(() => new Float32Array(R));
  for (let i = 0; i < N; i++) {
    normalise(post, i * K, own);
    for (let k = 0; k < K; k++) scores[k][ids[i]] = own[k];
  }
  return { part, scores };
}

/**
 * The colour kernel exp(-ΔE² / 2σ²) between every two of the regions `ids`, by their places in it, packed
 * (row i holds columns 0..i; the kernel is symmetric): each pair's exponential once, where the iterations
 * computed it up to three times.
 */
function colourKernel(s: Scene, ids: number[]): Float64Array {
  const N = ids.length, lab = new Float64Array(3 * N);
  for (let i = 0; i < N; i++) { const c = s.regions[ids[i]].lab; lab[3 * i] = c[0]; lab[3 * i + 1] = c[1]; lab[3 * i + 2] = c[2]; }
  const spread = 2 * BODY_PARTS.colourSigma * BODY_PARTS.colourSigma;
  const out = new Float64Array((N * (N + 1)) / 2);
  for (let i = 0, e = 0; i < N; i++) {
    const c0 = lab[3 * i], c1 = lab[3 * i + 1], c2 = lab[3 * i + 2];
    for (let q = 0; q <= i; q++, e++) {
      const dl = c0 - lab[3 * q], da = c1 - lab[3 * q + 1], db = c2 - lab[3 * q + 2];
      out[e] = Math.exp(-(dl * dl + da * da + db * db) / spread);
    }
  }
  return out;
}

/** The seeds' colour kernel at each region, weighted by their sizes: 0 everywhere without seeds. */
function likelihoods(kernel: Float64Array, size: Float64Array, seeds: number[], N: number): Float64Array {
  const out = new Float64Array(N);
  if (seeds.length === 0) return out;
  let den = 0;
  for (let k = 0; k < seeds.length; k++) den += size[seeds[k]];
  for (let i = 0; i < N; i++) {
    let num = 0;
    const row = (i * (i + 1)) / 2;
    for (let k = 0; k < seeds.length; k++) {
      const q = seeds[k];
      num += size[q] * kernel[q <= i ? row + q : (q * (q + 1)) / 2 + i];
    }
    out[i] = num / den;
  }
  return out;
}

/** The first index of the largest of the K values from `o`. */
function argmax(v: Float64Array, o: number): number {
  let b = 0;
  for (let k = 1; k < K; k++) if (v[o + k] > v[o + b]) b = k;
  return b;
}

/** The K values from `o` over their sum (1 when they sum to 0), into `out`. */
function normalise(v: Float64Array, o: number, out: Float64Array) {
  let t = 0;
  for (let k = 0; k < K; k++) t += v[o + k];
  t ||= 1;
  for (let k = 0; k < K; k++) out[k] = v[o + k] / t;
}
