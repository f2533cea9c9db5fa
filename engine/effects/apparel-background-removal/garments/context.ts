/**
 * Auto-context (Tu & Bai 2010) for the learned garment parse: what the first model thinks of a region's
 * surroundings, as features for a second model. A skirt and a pair of trousers look alike superpixel by
 * superpixel; what tells them apart is whether the same cloth parts into two legs further down, and the
 * first model's view of the regions below, beside and across the body says that. Per region, the first
 * model's class probabilities averaged (by area) over:
 *   self: the region itself;   like: its neighbours, weighted by likeness of colour;
 *   person: the whole subject;   band: the subject at the same height along the body (±0.2 torso);
 *   above, below: the regions 0.15 to 0.6 torso up or down the body, within half a torso across;
 *   mirror: the regions at the mirrored place across the body's axis (the other leg, the other sleeve).
 * Places are the first model's own features (along, across the body in torso lengths), so the context
 * needs nothing the features did not already compute.
 */
import { FEATURES } from './apparel-features.ts';
import { MISSING } from './scene.ts';
import { CONTEXT } from './learned-tuning.ts';

export const CONTEXT_GROUPS = ['self', 'like', 'person', 'band', 'above', 'below', 'mirror'] as const;

/** Names of the context features for classes `classes`: group:class. */
export const contextFeatureNames = (classes: readonly string[]) => CONTEXT_GROUPS.flatMap((g) => classes.map((c) => `${g}:${c}`));

const col = (name: string) => { const j = FEATURES.indexOf(name); if (j < 0) throw new Error(`context: no feature ${name}`); return j; };
const ALONG = col('along'), ACROSS = col('across'), AREA = col('area'), MAIN = col('mainForeground');

/** Grid over the body, in torso lengths (CONTEXT: along from a0 to a1, across from c0 to c1, in cells). */
const CELL = CONTEXT.cell, A0 = CONTEXT.a0, A1 = CONTEXT.a1, C0 = CONTEXT.c0, C1 = CONTEXT.c1;
const NA = Math.round((A1 - A0) / CELL), NC = Math.round((C1 - C0) / CELL);
const cellA = (a: number) => Math.min(NA - 1, Math.max(0, Math.floor((a - A0) / CELL)));
const cellC = (c: number) => Math.min(NC - 1, Math.max(0, Math.floor((c - C0) / CELL)));

/**
 * The first model's probabilities `p` (count × K) of regions with feature rows `rows` (FEATURES wide) and
 * candidate `neighbours`, as context rows: CONTEXT_GROUPS.length × K numbers per region (MISSING where a
 * group is empty or the body's frame is unknown).
 */
export function contextRows(rows: Float32Array, count: number, neighbours: number[][], p: Float32Array, K: number): Float32Array {
  const F = FEATURES.length, G = CONTEXT_GROUPS.length, W = G * K;
  const out = new Float32Array(count * W).fill(MISSING);
  // Summed-area table over the body grid of area-weighted probabilities (K channels, then the area).
  const framed = count > 0 && rows[ALONG] !== MISSING;
  const S = K + 1, stride = (NC + 1) * S;
  const sat = framed ? new Float64Array((NA + 1) * stride) : null;
  const person = new Float64Array(S);
  for (let i = 0; i < count; i++) {
    if (!rows[i * F + MAIN]) continue;
    const w = Math.max(rows[i * F + AREA], 1e-6);
    for (let k = 0; k < K; k++) person[k] += w * p[i * K + k];
    person[K] += w;
    if (sat) {
      const at = (cellA(rows[i * F + ALONG]) + 1) * stride + (cellC(rows[i * F + ACROSS]) + 1) * S;
      for (let k = 0; k < K; k++) sat[at + k] += w * p[i * K + k];
      sat[at + K] += w;
    }
  }
  if (sat) for (let a = 1; a <= NA; a++) for (let c = 1; c <= NC; c++) {
    const at = a * stride + c * S;
    for (let k = 0; k < S; k++) sat[at + k] += sat[at - stride + k] + sat[at - S + k] - sat[at - stride - S + k];
  }
  const box = new Float64Array(S);
  /** Sums over along in [a0, a1), across in [c0, c1) (torso lengths) into `box`; false when empty. */
  const query = (a0: number, a1: number, c0: number, c1: number) => {
    const ia0 = cellA(a0), ia1 = cellA(a1) + 1, ic0 = cellC(c0), ic1 = cellC(c1) + 1;
    for (let k = 0; k < S; k++) box[k] = sat![ia1 * stride + ic1 * S + k] - sat![ia0 * stride + ic1 * S + k] - sat![ia1 * stride + ic0 * S + k] + sat![ia0 * stride + ic0 * S + k];
    return box[K] > 1e-9;
  };
  for (let i = 0; i < count; i++) {
    const row = i * W;
    const put = (g: number, v: ArrayLike<number>, scale: number) => { for (let k = 0; k < K; k++) out[row + g * K + k] = v[k] * scale; };
    put(0, p.subarray(i * K, i * K + K), 1);
    let wsum = 0;
    const like = new Float64Array(K);
    for (const q of neighbours[i]) {
      const d = Math.hypot(rows[i * F] - rows[q * F], rows[i * F + 1] - rows[q * F + 1], rows[i * F + 2] - rows[q * F + 2]);
      const w = Math.exp(-((d / CONTEXT.likeDE) ** 2));
      wsum += w;
      for (let k = 0; k < K; k++) like[k] += w * p[q * K + k];
    }
    if (wsum > 1e-6) put(1, like, 1 / wsum);
    if (person[K] > 0) put(2, person, 1 / person[K]);
    if (!sat) continue;
    const a = rows[i * F + ALONG], c = rows[i * F + ACROSS];
    if (query(a - CONTEXT.band, a + CONTEXT.band, C0, C1)) put(3, box, 1 / box[K]);
    if (query(a - CONTEXT.far, a - CONTEXT.near, c - CONTEXT.across, c + CONTEXT.across)) put(4, box, 1 / box[K]);
    if (query(a + CONTEXT.near, a + CONTEXT.far, c - CONTEXT.across, c + CONTEXT.across)) put(5, box, 1 / box[K]);
    if (query(a - CONTEXT.mirrorAlong, a + CONTEXT.mirrorAlong, -c - CONTEXT.mirrorAcross, -c + CONTEXT.mirrorAcross)) put(6, box, 1 / box[K]);
  }
  return out;
}

/** Each region's feature row followed by its context row. */
export function withContext(rows: Float32Array, context: Float32Array, count: number): Float32Array {
  const F = FEATURES.length, W = context.length / Math.max(1, count), out = new Float32Array(count * (F + W));
  for (let i = 0; i < count; i++) {
    out.set(rows.subarray(i * F, i * F + F), i * (F + W));
    out.set(context.subarray(i * W, i * W + W), i * (F + W) + F);
  }
  return out;
}
