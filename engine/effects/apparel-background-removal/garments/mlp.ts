/**
 * A small multi-layer perceptron over the garment parse's region features (scripts/train/mlp.ts trains it):
 * each feature clipped to the fit half's [lo, hi], centred and scaled (scale 0: not used); a feature that
 * can be MISSING gets 0 there and an extra input that says so; hidden layers (ReLU or tanh), softmax out.
 */
import { softmax } from './boosted-trees.ts';
import { MISSING } from './scene.ts';

export interface MlpLayer {
  inputs: number; outputs: number;
  /** inputs × outputs, input-major: weight of input i to output o at i * outputs + o. */
  weights: ArrayLike<number>;
  bias: ArrayLike<number>;
}

export interface Mlp {
  features: string[];
  classes: string[];
  activation: 'relu' | 'tanh';
  /** Per feature: clip range, centre and scale of its standardised input. */
  lo: number[]; hi: number[]; mean: number[]; scale: number[];
  /** Features whose MISSING is told by an extra input (1 when missing), in this order after the features. */
  missing: number[];
  layers: MlpLayer[];
}

/** The network's input rows (count × (features + missing indicators)) from region feature rows. */
export function mlpInputs(m: Mlp, data: ArrayLike<number>, rows: number): Float32Array {
  const F = m.features.length, D = F + m.missing.length;
  if (data.length !== rows * F) throw new Error(`mlp: ${data.length} numbers for ${rows} rows of ${F} features`);
  const out = new Float32Array(rows * D);
  for (let r = 0; r < rows; r++) {
    for (let j = 0; j < F; j++) {
      const x = data[r * F + j];
      out[r * D + j] = x === MISSING || m.scale[j] === 0 ? 0 : (Math.min(m.hi[j], Math.max(m.lo[j], x)) - m.mean[j]) * m.scale[j];
    }
    m.missing.forEach((j, t) => { out[r * D + F + t] = data[r * F + j] === MISSING ? 1 : 0; });
  }
  return out;
}

/** One layer on `rows` input rows: out = in · weights + bias (then the activation, unless last). */
export function layerForward(l: MlpLayer, input: ArrayLike<number>, rows: number, out: Float32Array | Float64Array, activation: Mlp['activation'] | null) {
  const I = l.inputs, O = l.outputs, w = l.weights;
  for (let r = 0; r < rows; r++) {
    const at = r * O;
    for (let o = 0; o < O; o++) out[at + o] = l.bias[o];
    for (let i = 0; i < I; i++) {
      const v = input[r * I + i];
      if (v === 0) continue;
      const wi = i * O;
      for (let o = 0; o < O; o++) out[at + o] += v * w[wi + o];
    }
    if (activation === 'relu') for (let o = 0; o < O; o++) { if (out[at + o] < 0) out[at + o] = 0; }
    else if (activation === 'tanh') for (let o = 0; o < O; o++) out[at + o] = Math.tanh(out[at + o]);
  }
}

/** Class probabilities (rows × classes) of region feature rows. */
export function predictMlp(m: Mlp, data: ArrayLike<number>, rows: number): Float32Array {
  let cur: Float32Array = mlpInputs(m, data, rows);
  m.layers.forEach((l, n) => {
    const out = new Float32Array(rows * l.outputs);
    layerForward(l, cur, rows, out, n < m.layers.length - 1 ? m.activation : null);
    cur = out;
  });
  const K = m.classes.length, p = new Float32Array(rows * K);
  for (let r = 0; r < rows; r++) softmax(cur.subarray(r * K, r * K + K), p, r * K);
  return p;
}

/** Checks the shape of a network read from JSON (layers chained from the inputs to the classes) and holds its weights as floats. */
export function readMlp(m: Mlp): Mlp {
  const F = m.features?.length ?? 0;
  if (!F || !m.classes?.length || !Array.isArray(m.layers) || !m.layers.length) throw new Error('mlp: features, classes and layers expected');
  if (m.activation !== 'relu' && m.activation !== 'tanh') throw new Error(`mlp: activation ${String(m.activation)}`);
  for (const v of [m.lo, m.hi, m.mean, m.scale]) if (v?.length !== F) throw new Error('mlp: lo, hi, mean and scale per feature expected');
  if (!Array.isArray(m.missing) || m.missing.some((j) => !(j >= 0 && j < F))) throw new Error('mlp: missing indicators must name features');
  let inputs = F + m.missing.length;
  for (const l of m.layers) {
    if (l.inputs !== inputs || l.weights?.length !== l.inputs * l.outputs || l.bias?.length !== l.outputs) throw new Error(`mlp: a layer of ${inputs} inputs with inputs × outputs weights expected`);
    inputs = l.outputs;
  }
  if (inputs !== m.classes.length) throw new Error('mlp: the last layer must give one output per class');
  return { ...m, layers: m.layers.map((l) => ({ ...l, weights: Float32Array.from(l.weights), bias: Float32Array.from(l.bias) })) };
}
