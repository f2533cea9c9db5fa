/**
 * Gradient-boosted decision trees for multi-class prediction (softmax over summed tree outputs), as
 * trained by scripts/train/apparel.ts. Every tree is complete to `depth`: internal node i has children
 * 2i+1 and 2i+2; a row goes left when its feature is <= the threshold (or always, where the node has no
 * split: feature -1); leaf values follow the 2^depth - 1 internal nodes.
 */

export interface Tree { feature: ArrayLike<number>; threshold: ArrayLike<number>; value: ArrayLike<number> }

export interface BoostedTrees {
  features: string[];
  classes: string[];
  depth: number;
  /** Starting score per class. */
  base: number[];
  /** rounds × classes. */
  trees: Tree[][];
}

/** Summed tree output of one tree for a row. */
export function treeValue(t: Tree, depth: number, row: ArrayLike<number>, offset = 0): number {
  let i = 0;
  for (let d = 0; d < depth; d++) {
    const f = t.feature[i];
    i = f < 0 || row[offset + f] <= t.threshold[i] ? 2 * i + 1 : 2 * i + 2;
  }
  return t.value[i - (2 ** depth - 1)];
}

/** Class probabilities for `rows` rows of `m.features.length` numbers each: rows × classes. */
export function predictProba(m: BoostedTrees, data: Float32Array, rows: number): Float32Array {
  const F = m.features.length, K = m.classes.length;
  if (data.length !== rows * F) throw new Error(`boosted trees: ${data.length} numbers for ${rows} rows of ${F} features`);
  const out = new Float32Array(rows * K);
  const score = new Float64Array(K);
  // The trees in summing order (round by round, class by class), read out of their objects once: the
  // walk below is treeValue's, inlined (it ran ~10^7 times a photo).
  const trees = m.trees.flat(), T = trees.length, depth = m.depth, inner = 2 ** depth - 1;
  const feature = trees.map((t) => t.feature), threshold = trees.map((t) => t.threshold), value = trees.map((t) => t.value);
  for (let r = 0; r < rows; r++) {
    const offset = r * F;
    for (let k = 0; k < K; k++) score[k] = m.base[k];
    for (let j = 0; j < T; j++) {
      const f = feature[j], th = threshold[j];
      let i = 0;
      for (let d = 0; d < depth; d++) {
        const fi = f[i];
        i = fi < 0 || data[offset + fi] <= th[i] ? 2 * i + 1 : 2 * i + 2;
      }
      score[j % K] += value[j][i - inner];
    }
    softmax(score, out, r * K);
  }
  return out;
}

export function softmax(score: ArrayLike<number>, out: Float32Array | Float64Array, offset: number) {
  const K = score.length;
  let max = -Infinity, total = 0;
  for (let k = 0; k < K; k++) max = Math.max(max, score[k]);
  for (let k = 0; k < K; k++) { const e = Math.exp(score[k] - max); out[offset + k] = e; total += e; }
  for (let k = 0; k < K; k++) out[offset + k] /= total;
}

/**
 * Checks the shape of a model read from JSON and holds its thresholds as float32, as the rows they are
 * compared with (the cut points were float32 values in training).
 */
export function readModel(m: BoostedTrees): BoostedTrees {
  const inner = 2 ** m.depth - 1;
  if (!m.features?.length || !m.classes?.length || m.base?.length !== m.classes.length || !Array.isArray(m.trees)) throw new Error('boosted trees: features, classes, base and trees expected');
  for (const round of m.trees) {
    if (round.length !== m.classes.length) throw new Error('boosted trees: one tree per class per round expected');
    for (const t of round) if (t.feature.length !== inner || t.threshold.length !== inner || t.value.length !== inner + 1) throw new Error(`boosted trees: trees complete to depth ${m.depth} expected`);
  }
  return { ...m, trees: m.trees.map((round) => round.map((t) => ({ feature: Int16Array.from(t.feature), threshold: Float32Array.from(t.threshold), value: Float64Array.from(t.value) }))) };
}
