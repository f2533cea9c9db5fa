/**
 * Training of the small multi-layer perceptron that engine/effects/apparel-background-removal/garments/mlp.ts runs: inputs standardised
 * from the training rows (clipped to their 0.5 and 99.5 % quantiles, MISSING told apart by indicator inputs),
 * weighted softmax cross-entropy against hard labels or soft targets, Adam with decoupled weight decay,
 * inverted dropout on the hidden units, cosine learning-rate decay, seeded initialisation, shuffling and
 * dropout. Deterministic for a given seed.
 */
import {
  FEATURE_MISSING as MISSING, layerForward, type Mlp, mlpInputs, seededRandom, softmax
} from '../../engine/for-scripts.ts';

export interface MlpTrainOptions {
  data: Float32Array; rows: number; features: string[]; classes: string[];
  /** Class index per row. */
  labels: Uint8Array;
  /** Soft targets (rows × classes, each row summing to 1) instead of the labels, when given. */
  targets?: Float32Array;
  /** Weight per row (scaled to mean 1 here). */
  weights: Float32Array;
  hidden: number[]; activation: Mlp['activation'];
  epochs: number; batch: number; rate: number;
  /** Decoupled weight decay per step, times the rate (AdamW). */
  decay: number;
  /** Share of hidden units dropped per row in training. */
  dropout: number;
  seed: number;
}

/** Clip range, centre and scale per feature from the rows' non-missing values; which features need a missing indicator. */
export function standardiser(data: Float32Array, rows: number, F: number, random: () => number) {
  const lo: number[] = [], hi: number[] = [], mean: number[] = [], scale: number[] = [], missing: number[] = [];
  const sample: number[] = [];
  for (let r = 0; r < rows; r++) if (rows <= 50_000 || random() < 50_000 / rows) sample.push(r);
  for (let j = 0; j < F; j++) {
    const v = Float32Array.from(sample.map((r) => data[r * F + j]).filter((x) => x !== MISSING)).sort();
    if (v.length < sample.length) missing.push(j);
    const q = (s: number) => (v.length ? v[Math.min(v.length - 1, Math.floor(s * v.length))] : 0);
    const a = q(0.005), b = q(0.995);
    let sum = 0, sq = 0;
    for (const x of v) { const c = Math.min(b, Math.max(a, x)); sum += c; sq += c * c; }
    const m = v.length ? sum / v.length : 0, sd = v.length ? Math.sqrt(Math.max(0, sq / v.length - m * m)) : 0;
    lo.push(a); hi.push(b); mean.push(round(m)); scale.push(sd > 1e-6 * Math.max(1, Math.abs(m)) ? round(1 / sd) : 0);
  }
  return { lo, hi, mean, scale, missing };
}

export function trainMlp(o: MlpTrainOptions): Mlp {
  const F = o.features.length, K = o.classes.length, random = seededRandom(o.seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const m: Mlp = { features: [...o.features], classes: [...o.classes], activation: o.activation, ...standardiser(o.data, o.rows, F, random), layers: [] };
  const X = mlpInputs(m, o.data, o.rows), D = F + m.missing.length;
  const sizes = [D, ...o.hidden, K];
  // He (ReLU) or Glorot (tanh) initialisation.
  const W = sizes.slice(1).map((O, n) => {
    const I = sizes[n], sd = o.activation === 'relu' && n < sizes.length - 2 ? Math.sqrt(2 / I) : Math.sqrt(1 / I);
    return Float64Array.from({ length: I * O }, () => normal() * sd);
  });
  const Bs = sizes.slice(1).map((O) => new Float64Array(O));
  const params = [...W, ...Bs];
  const m1 = params.map((p) => new Float64Array(p.length)), m2 = params.map((p) => new Float64Array(p.length));
  const grads = params.map((p) => new Float64Array(p.length));
  let wsum = 0;
  for (let r = 0; r < o.rows; r++) wsum += o.weights[r];
  const wscale = o.rows / wsum;
  const B = o.batch, L = sizes.length - 1;
  const acts = sizes.map((s) => new Float64Array(B * s)), deltas = sizes.map((s) => new Float64Array(B * s));
  const masks = sizes.map((s) => new Float64Array(B * s));
  const order = Int32Array.from({ length: o.rows }, (_, i) => i);
  const steps = o.epochs * Math.ceil(o.rows / B);
  const prob = new Float64Array(K);
  let step = 0;
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (let i = o.rows - 1; i > 0; i--) { const j = Math.floor(random() * (i + 1)); [order[i], order[j]] = [order[j], order[i]]; }
    for (let start = 0; start < o.rows; start += B) {
      const n = Math.min(B, o.rows - start);
      for (let b = 0; b < n; b++) acts[0].set(X.subarray(order[start + b] * D, order[start + b] * D + D), b * D);
      for (let l = 0; l < L; l++) {
        const layer = { inputs: sizes[l], outputs: sizes[l + 1], weights: W[l], bias: Bs[l] };
        const hiddenLayer = l < L - 1;
        layerForward(layer, acts[l], n, acts[l + 1], hiddenLayer ? o.activation : null);
        if (hiddenLayer && o.dropout > 0) {
          const a = acts[l + 1], mk = masks[l + 1], keep = 1 - o.dropout;
          for (let t = 0; t < n * sizes[l + 1]; t++) { mk[t] = random() < keep ? 1 / keep : 0; a[t] *= mk[t]; }
        }
      }
      // Output delta: (softmax - target) × weight / batch.
      const out = acts[L], dOut = deltas[L];
      for (let b = 0; b < n; b++) {
        const r = order[start + b], w = (o.weights[r] * wscale) / n;
        softmax(out.subarray(b * K, b * K + K), prob, 0);
        for (let k = 0; k < K; k++) {
          const t = o.targets ? o.targets[r * K + k] : o.labels[r] === k ? 1 : 0;
          dOut[b * K + k] = (prob[k] - t) * w;
        }
      }
      for (let l = L - 1; l >= 0; l--) {
        const I = sizes[l], O = sizes[l + 1], a = acts[l], d = deltas[l + 1], gw = grads[l], gb = grads[L + l], w = W[l];
        gw.fill(0); gb.fill(0);
        for (let b = 0; b < n; b++) {
          for (let q = 0; q < O; q++) gb[q] += d[b * O + q];
          for (let i = 0; i < I; i++) {
            const v = a[b * I + i];
            if (v === 0) continue;
            const wi = i * O;
            for (let q = 0; q < O; q++) gw[wi + q] += v * d[b * O + q];
          }
        }
        if (l === 0) break;
        // Delta of the layer below: back through the weights, its dropout mask and its activation.
        const dIn = deltas[l];
        for (let b = 0; b < n; b++) for (let i = 0; i < I; i++) {
          const t = b * I + i, v = a[t];
          if (o.activation === 'relu' && v === 0) { dIn[t] = 0; continue; }
          let s = 0;
          const wi = i * O;
          for (let q = 0; q < O; q++) s += w[wi + q] * d[b * O + q];
          if (o.dropout > 0) s *= masks[l][t];
          // tanh: the activation kept is after dropout's scaling, so undo it for the derivative.
          if (o.activation === 'tanh') { const y = o.dropout > 0 && masks[l][t] ? v / masks[l][t] : v; s *= 1 - y * y; }
          dIn[t] = s;
        }
      }
      step++;
      const rate = o.rate * 0.5 * (1 + Math.cos((Math.PI * step) / steps));
      const c1 = 1 - 0.9 ** step, c2 = 1 - 0.999 ** step;
      params.forEach((p, pi) => {
        const g = grads[pi], a = m1[pi], v = m2[pi], decay = pi < L ? o.decay * rate : 0;
        for (let t = 0; t < p.length; t++) {
          a[t] = 0.9 * a[t] + 0.1 * g[t];
          v[t] = 0.999 * v[t] + 0.001 * g[t] * g[t];
          p[t] -= rate * (a[t] / c1) / (Math.sqrt(v[t] / c2) + 1e-8) + decay * p[t];
        }
      });
    }
  }
  m.layers = W.map((w, l) => ({ inputs: sizes[l], outputs: sizes[l + 1], weights: Array.from(w, round), bias: Array.from(Bs[l], round) }));
  return m;
}

// Seven digits: float32 holds about that, and the engine reads the weights as float32.
const round = (v: number) => Number(v.toPrecision(7));
