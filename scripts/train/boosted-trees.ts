/**
 * Training of the multi-class gradient-boosted trees that engine/effects/apparel-background-removal/garments/boosted-trees.ts runs:
 * softmax loss, one tree per class per round fitted to the gradient and hessian (Newton leaves, L2 on
 * leaf values), histogram splits over at most `bins` quantile bins per feature, complete trees of fixed
 * depth, seeded row and feature sampling per round. Deterministic for a given seed.
 */
import { type BoostedTrees, seededRandom, softmax, type Tree } from '../../engine/for-scripts.ts';

export interface TrainOptions {
  data: Float32Array; rows: number; features: string[]; classes: string[];
  /** Class index per row. */
  labels: Uint8Array;
  /** Weight per row. */
  weights: Float32Array;
  rounds: number; depth: number; rate: number;
  /** L2 penalty on leaf values. */
  lambda: number;
  /** Least hessian sum on each side of a split. */
  minHessian: number;
  rowShare: number; featureShare: number; seed: number; bins: number;
  /** Called after each round with the model so far (for curves on held-out photos). */
  onRound?: (round: number, model: BoostedTrees) => void;
}

/** Cut points per feature at quantiles of (a sample of) its values; bin b holds values <= cuts[b]. */
function cutPoints(o: TrainOptions, random: () => number): Float32Array[] {
  const F = o.features.length;
  const sample: number[] = [];
  for (let r = 0; r < o.rows; r++) if (o.rows <= 50_000 || random() < 50_000 / o.rows) sample.push(r);
  return Array.from({ length: F }, (_, j) => {
    const v = Float32Array.from(sample, (r) => o.data[r * F + j]).sort();
    const cuts: number[] = [];
    for (let b = 1; b < o.bins; b++) {
      const x = v[Math.min(v.length - 1, Math.floor((b * v.length) / o.bins))];
      if (x !== cuts[cuts.length - 1] && x < v[v.length - 1]) cuts.push(x);
    }
    return Float32Array.from(cuts);
  });
}

export function trainBoostedTrees(o: TrainOptions): BoostedTrees {
  const { rows, depth } = o;
  const F = o.features.length, K = o.classes.length, B = o.bins;
  const random = seededRandom(o.seed);
  const cuts = cutPoints(o, random);
  // Binned data, feature-major.
  const binned = Array.from({ length: F }, (_, j) => {
    const out = new Uint8Array(rows), c = cuts[j];
    for (let r = 0; r < rows; r++) {
      const x = o.data[r * F + j];
      let lo = 0, hi = c.length;
      while (lo < hi) { const m = (lo + hi) >> 1; if (x <= c[m]) hi = m; else lo = m + 1; }
      out[r] = lo;
    }
    return out;
  });
  // Prior: the weighted class shares.
  const prior = new Float64Array(K);
  for (let r = 0; r < rows; r++) prior[o.labels[r]] += o.weights[r];
  const total = prior.reduce((t, v) => t + v, 0);
  const base = Array.from(prior, (v) => Math.log(Math.max(v / total, 1e-6)));
  const model: BoostedTrees = { features: [...o.features], classes: [...o.classes], depth, base, trees: [] };
  const score = new Float64Array(rows * K);
  for (let r = 0; r < rows; r++) for (let k = 0; k < K; k++) score[r * K + k] = base[k];
  const p = new Float64Array(rows * K), g = new Float64Array(rows), h = new Float64Array(rows);
  const inner = 2 ** depth - 1;
  const node = new Int32Array(rows);
  // Histograms of gradient and hessian per node, feature and bin, for this depth and the one above: of two
  // siblings only the one with fewer rows is summed, the other is its parent's less it (half the work).
  const level = 2 ** (depth - 1) * F * B;
  let hg = new Float64Array(level), hh = new Float64Array(level), hgUp = new Float64Array(level), hhUp = new Float64Array(level);
  const order = new Int32Array(rows), start = new Int32Array(2 ** (depth - 1) + 1);
  for (let round = 0; round < o.rounds; round++) {
    for (let r = 0; r < rows; r++) softmax(score.subarray(r * K, r * K + K), p, r * K);
    const picked: number[] = [];
    for (let r = 0; r < rows; r++) if (random() < o.rowShare) picked.push(r);
    const chosen = Int32Array.from(picked);
    const feats = [...Array(F).keys()].filter(() => random() < o.featureShare);
    const trees: Tree[] = [];
    for (let k = 0; k < K; k++) {
      for (let r = 0; r < rows; r++) {
        const q = p[r * K + k], w = o.weights[r];
        g[r] = (q - (o.labels[r] === k ? 1 : 0)) * w;
        h[r] = Math.max(q * (1 - q), 1e-6) * w;
      }
      const feature = new Array<number>(inner).fill(-1), threshold = new Array<number>(inner).fill(0);
      const splitBin = new Array<number>(inner).fill(B);
      node.fill(0);
      for (let d = 0; d < depth; d++) {
        const first = 2 ** d - 1, count = 2 ** d;
        [hg, hgUp] = [hgUp, hg]; [hh, hhUp] = [hhUp, hh];
        const G = new Float64Array(count), H = new Float64Array(count), n = new Int32Array(count);
        for (const r of chosen) { const nd = node[r] - first; G[nd] += g[r]; H[nd] += h[r]; n[nd]++; }
        // The chosen rows grouped by node.
        start[0] = 0;
        for (let nd = 0; nd < count; nd++) start[nd + 1] = start[nd] + n[nd];
        const fill = start.slice(0, count);
        for (const r of chosen) order[fill[node[r] - first]++] = r;
        const sum = (nd: number) => {
          for (const j of feats) {
            const bj = binned[j], at = (nd * F + j) * B;
            hg.fill(0, at, at + B); hh.fill(0, at, at + B);
            for (let q = start[nd]; q < start[nd + 1]; q++) { const r = order[q]; hg[at + bj[r]] += g[r]; hh[at + bj[r]] += h[r]; }
          }
        };
        const rest = (nd: number, sibling: number, parent: number) => {
          for (const j of feats) {
            const at = (nd * F + j) * B, sat = (sibling * F + j) * B, pat = (parent * F + j) * B;
            for (let b = 0; b < B; b++) { hg[at + b] = hgUp[pat + b] - hg[sat + b]; hh[at + b] = hhUp[pat + b] - hh[sat + b]; }
          }
        };
        // A node with too little hessian to split needs no histogram (nor do its children: they have less).
        const needed = (nd: number) => H[nd] >= 2 * o.minHessian;
        if (d === 0) { if (needed(0)) sum(0); } else {
          for (let nd = 0; nd < count; nd += 2) {
            if (!needed(nd) && !needed(nd + 1)) continue;
            const [small, big] = n[nd] <= n[nd + 1] ? [nd, nd + 1] : [nd + 1, nd];
            sum(small);
            if (needed(big)) rest(big, small, nd >> 1);
          }
        }
        for (let nd = 0; nd < count; nd++) {
          if (H[nd] < 2 * o.minHessian) continue;
          const parent = (G[nd] * G[nd]) / (H[nd] + o.lambda);
          let best = 0, bf = -1, bb = 0;
          for (const j of feats) {
            let gl = 0, hl = 0;
            const at = (nd * F + j) * B;
            for (let b = 0; b < cuts[j].length; b++) {
              gl += hg[at + b]; hl += hh[at + b];
              const hr = H[nd] - hl, gr = G[nd] - gl;
              if (hl < o.minHessian || hr < o.minHessian) continue;
              const gain = (gl * gl) / (hl + o.lambda) + (gr * gr) / (hr + o.lambda) - parent;
              if (gain > best) { best = gain; bf = j; bb = b; }
            }
          }
          if (bf >= 0) { feature[first + nd] = bf; threshold[first + nd] = cuts[bf][bb]; splitBin[first + nd] = bb; }
        }
        for (let r = 0; r < rows; r++) {
          const i = node[r];
          node[r] = feature[i] < 0 || binned[feature[i]][r] <= splitBin[i] ? 2 * i + 1 : 2 * i + 2;
        }
      }
      const LG = new Float64Array(inner + 1), LH = new Float64Array(inner + 1);
      for (const r of chosen) { LG[node[r] - inner] += g[r]; LH[node[r] - inner] += h[r]; }
      // (K - 1) / K: the usual multi-class Newton step scale.
      const value = Array.from(LG, (v, i) => round4((-v / (LH[i] + o.lambda)) * o.rate * ((K - 1) / K)));
      for (let r = 0; r < rows; r++) score[r * K + k] += value[node[r] - inner];
      trees.push({ feature, threshold: threshold.map(round6), value });
    }
    model.trees.push(trees);
    o.onRound?.(round + 1, model);
  }
  return model;
}

const round4 = (v: number) => Math.round(v * 1e4) / 1e4;
// Nine digits give back the float32 cut exactly (boosted-trees.ts reads thresholds as float32), so a row on
// a cut point goes the same way as in training.
const round6 = (v: number) => Number(v.toPrecision(9));
