/**
 * The learned garment parse: gradient-boosted trees (apparel-model.json, trained by
 * scripts/train/apparel.ts on the fit half of the shared street photos) name each superpixel of the
 * person none or one of the seven garment classes, from apparel-features.ts: colour, texture, matte,
 * place on the body and against the face, colour against the person's skin, torso and legs, the face
 * parser's hat, hair and cloth around the largest faces (head-parsing.ts), the lower garment's shape
 * against the legs (legs.ts), its surroundings at the garment's scale (surroundings.ts), and the rules' own
 * label for it. A small perceptron over the same features (mlp.ts) is mixed in: a different learner's errors
 * differ from the trees'. A model may hold a second stage (context.ts: what the first thinks of the region's
 * surroundings); the committed one does not (it did worse on held-out photos:
 * docs/experiments/apparel-background-removal.md#tried-on-the-fit-folds-and-left-out).
 * The rules' skin, hair and face stay where the model sees no garment.
 */
import { readFileSync } from 'node:fs';
import { garmentClasses } from '../../../../contract/endpoints/apparel-background-removal.ts';
import { FEATURES, regionFeatures } from './apparel-features.ts';
import { predictProba, readModel, type BoostedTrees } from './boosted-trees.ts';
import { predictMlp, readMlp, type Mlp } from './mlp.ts';
import { contextFeatureNames, contextRows, withContext } from './context.ts';
import type { ParseInput, RuleParse } from './rules.ts';
import { groups } from './regions.ts';
import { areaOf, L } from './scene.ts';
import { LEAST_HAT, LOWER_VOTE, SMOOTHING } from './learned-tuning.ts';

/** Model classes: nothing to wear, then the seven garment classes. */
export const MODEL_CLASSES = ['none', ...garmentClasses] as const;
const GARMENT_LABELS = new Set(garmentClasses.map((c) => L[c]));

/**
 * The two stages: trees over the region features, then (when present) trees over those and the context;
 * and per class an offset to the log probabilities before the choice (rare classes are under-called).
 * `seeds`: more first stages trained alike with other seeds, whose probabilities are averaged with the
 * first's (the trees' sampling of rows and features swings held-out figures; the average swings less).
 */
export interface ApparelModel { regions: BoostedTrees; seeds?: BoostedTrees[] | null; context: BoostedTrees | null; bias: number[] | null; mlp?: NetMix | null }

/**
 * A perceptron over the same features (mlp.ts) whose class probabilities are mixed with the trees' before
 * the smoothing: `mix` its share, as a weighted geometric mean (a different learner's errors differ from the trees').
 */
export interface NetMix { net: Mlp; mix: number }

/** Features the context stage reads: the region features, then the context groups of the first stage's classes. */
export const CONTEXT_STAGE_FEATURES: readonly string[] = [...FEATURES, ...contextFeatureNames(MODEL_CLASSES)];

/** Checks a model as stored (JSON) against these features and classes. */
export function readApparelModel(json: { regions: BoostedTrees; seeds?: BoostedTrees[] | null; context?: BoostedTrees | null; bias?: number[] | null; mlp?: NetMix | null }): ApparelModel {
  const regions = readModel(json.regions), context = json.context ? readModel(json.context) : null;
  const seeds = json.seeds?.length ? json.seeds.map(readModel) : null;
  const same = (m: { features: string[]; classes: string[] }, features: readonly string[]) => m.features.join() === features.join() && m.classes.join() === MODEL_CLASSES.join();
  if (!same(regions, FEATURES) || seeds?.some((m) => !same(m, FEATURES)) || (context && !same(context, CONTEXT_STAGE_FEATURES))) throw new Error('apparel-model.json was trained on other features or classes: run npm run train:apparel');
  if (json.bias && json.bias.length !== MODEL_CLASSES.length) throw new Error('apparel-model.json: one offset per class expected');
  let mlp: NetMix | null = null;
  if (json.mlp) {
    const net = readMlp(json.mlp.net);
    if (!same(net, FEATURES)) throw new Error('apparel-model.json: the perceptron was trained on other features or classes: run npm run train:apparel');
    if (!(json.mlp.mix >= 0 && json.mlp.mix <= 1)) throw new Error('apparel-model.json: the perceptron\'s mix must lie in [0, 1]');
    mlp = { net, mix: json.mlp.mix };
  }
  return { regions, seeds, context, bias: json.bias ?? null, mlp };
}

let loaded: ApparelModel | undefined;
/** The committed model (read once per thread). */
export function apparelModel(): ApparelModel {
  loaded ??= readApparelModel(JSON.parse(readFileSync(new URL('./apparel-model.json', import.meta.url), 'utf8')));
  return loaded;
}

/** Regions the model decides: the main subject's, and any the rules made a garment (a bag off the matte). */
export function candidateRegions(r: RuleParse): number[] {
  const out: number[] = [];
  for (let i = 0; i < r.fg.length; i++) if (r.fg[i] || GARMENT_LABELS.has(r.s.label[i])) out.push(i);
  return out;
}

/** Feature rows of the candidate regions, in candidateRegions order. */
export function candidateFeatures(r: RuleParse, input: ParseInput, regions: number[]): Float32Array {
  return regionFeatures({ s: r.s, fg: r.fg, person: r.person, frame: r.frame, face: r.face, hair: input.hair, heads: input.heads, objects: input.objects }, regions);
}

/** Neighbours among the candidate regions, as candidate indices. */
export function candidateNeighbours(r: RuleParse, regions: number[]): number[][] {
  const index = new Map(regions.map((reg, i) => [reg, i]));
  return regions.map((reg) => r.s.neighbours[reg].filter((q) => index.has(q)).map((q) => index.get(q)!));
}

/**
 * Spreads class probabilities between neighbouring regions of like colour (a garment is one piece of
 * cloth; a lone region of another class inside it is mostly a mistake): each pass mixes a region's
 * probabilities with the colour-weighted mean of its neighbours'.
 */
export function smooth(p: Float32Array, K: number, rows: Float32Array, F: number, neighbours: number[][], o = SMOOTHING): Float32Array {
  // Each neighbour's colour weight, worked out once for every pass (flat, in the neighbours' order).
  const start = new Int32Array(neighbours.length + 1);
  for (let i = 0; i < neighbours.length; i++) start[i + 1] = start[i] + neighbours[i].length;
  const weight = new Float64Array(start[neighbours.length]), wsums = new Float64Array(neighbours.length);
  for (let i = 0; i < neighbours.length; i++) {
    let wsum = 0, e = start[i];
    for (const q of neighbours[i]) {
      const d = Math.hypot(rows[i * F] - rows[q * F], rows[i * F + 1] - rows[q * F + 1], rows[i * F + 2] - rows[q * F + 2]);
      const w = Math.exp(-((d / o.colour) ** 2));
      weight[e++] = w;
      wsum += w;
    }
    wsums[i] = wsum;
  }
  let cur = p;
  const acc = new Float64Array(K);
  for (let pass = 0; pass < o.passes; pass++) {
    const next = new Float32Array(cur.length);
    for (let i = 0; i < neighbours.length; i++) {
      const wsum = wsums[i], list = neighbours[i];
      acc.fill(0);
      for (let j = 0, e = start[i]; j < list.length; j++, e++) {
        const w = weight[e], q = list[j];
        for (let k = 0; k < K; k++) acc[k] += w * cur[q * K + k];
      }
      const share = wsum > 0 ? o.share : 0;
      for (let k = 0; k < K; k++) next[i * K + k] = (1 - share) * cur[i * K + k] + (wsum > 0 ? (share * acc[k]) / wsum : 0);
    }
    cur = next;
  }
  return cur;
}

/** Class probabilities (count × MODEL_CLASSES) of the candidate regions: the first stage, then the context stage. */
export function predictRegions(model: ApparelModel, rows: Float32Array, count: number, neighbours: number[][]): Float32Array {
  let p = averageProba([model.regions, ...(model.seeds ?? [])], rows, count);
  if (model.mlp) p = mixProba(p, predictMlp(model.mlp.net, rows, count), model.mlp.mix);
  if (!model.context) return p;
  return predictProba(model.context, withContext(rows, contextRows(rows, count, neighbours, p, MODEL_CLASSES.length), count), count);
}

/** Weighted geometric mean of two sets of class probabilities (rows × MODEL_CLASSES), `mix` the second's weight, each row normalised. */
export function mixProba(p: Float32Array, q: Float32Array, mix: number): Float32Array {
  const K = MODEL_CLASSES.length, out = new Float32Array(p.length);
  for (let r = 0; r < p.length; r += K) {
    let t = 0;
    for (let k = 0; k < K; k++) { out[r + k] = Math.exp((1 - mix) * Math.log(Math.max(p[r + k], 1e-9)) + mix * Math.log(Math.max(q[r + k], 1e-9))); t += out[r + k]; }
    for (let k = 0; k < K; k++) out[r + k] /= t;
  }
  return out;
}

/** The mean of the class probabilities of trees trained alike (ApparelModel.seeds). */
export function averageProba(models: BoostedTrees[], rows: Float32Array, count: number): Float32Array {
  return meanProba(models.map((m) => predictProba(m, rows, count)));
}

/** The element-wise mean of class probabilities from several models (the first array is reused). */
export function meanProba(ps: Float32Array[]): Float32Array {
  const p = ps[0];
  for (let m = 1; m < ps.length; m++) for (let i = 0; i < p.length; i++) p[i] += ps[m][i];
  if (ps.length > 1) for (let i = 0; i < p.length; i++) p[i] /= ps.length;
  return p;
}

/**
 * Class index (MODEL_CLASSES) per candidate region from its probabilities, spread between like neighbours
 * first when given: the class of the highest log probability plus its offset in `bias`.
 */
export function classesOf(probabilities: Float32Array, rows: Float32Array, count: number, neighbours?: number[][], o = SMOOTHING, bias?: number[] | null, vote = LOWER_VOTE): Uint8Array {
  const K = MODEL_CLASSES.length, out = new Uint8Array(count);
  let p = probabilities;
  if (neighbours) p = smooth(p, K, rows, FEATURES.length, neighbours, o);
  const score = (i: number, k: number) => Math.log(Math.max(p[i * K + k], 1e-9)) + (bias ? bias[k] : 0);
  for (let i = 0; i < count; i++) {
    let best = 0, top = score(i, 0);
    for (let k = 1; k < K; k++) { const v = score(i, k); if (v > top) { top = v; best = k; } }
    out[i] = best;
  }
  if (vote && neighbours) voteLower(out, p, rows, neighbours);
  return out;
}

/**
 * A connected piece of lower garment is one skirt or one pair of trousers: its regions named either are all
 * given the class of the larger area-weighted probability over the piece (a long skirt's lower half
 * otherwise reads as trouser legs, region by region).
 */
export function voteLower(cls: Uint8Array, p: Float32Array, rows: Float32Array, neighbours: number[][]) {
  const K = MODEL_CLASSES.length, F = FEATURES.length, S = MODEL_CLASSES.indexOf('skirt'), P = MODEL_CLASSES.indexOf('pants'), A = FEATURES.indexOf('area');
  const lower = (i: number) => cls[i] === S || cls[i] === P;
  const seen = new Uint8Array(cls.length);
  for (let i = 0; i < cls.length; i++) {
    if (seen[i] || !lower(i)) continue;
    const piece = [i];
    seen[i] = 1;
    let sum = 0;
    for (let at = 0; at < piece.length; at++) {
      const q = piece[at];
      sum += rows[q * F + A] * (p[q * K + S] - p[q * K + P]);
      for (const t of neighbours[q]) if (!seen[t] && lower(t)) { seen[t] = 1; piece.push(t); }
    }
    for (const q of piece) cls[q] = sum > 0 ? S : P;
  }
}

/** Relabels the rules' parse of a person with the model's classes. */
export function relabel(r: RuleParse, input: ParseInput, model = apparelModel()) {
  const regions = candidateRegions(r), rows = candidateFeatures(r, input, regions), neighbours = candidateNeighbours(r, regions);
  const cls = classesOf(predictRegions(model, rows, regions.length, neighbours), rows, regions.length, neighbours, SMOOTHING, model.bias);
  regions.forEach((reg, i) => {
    if (cls[i] > 0) r.s.label[reg] = L[MODEL_CLASSES[cls[i]] as keyof typeof L];
    else if (GARMENT_LABELS.has(r.s.label[reg])) r.s.label[reg] = L.background;
  });
  // A hat covers a good part of a head: a speck of hat smaller than a quarter of the face is a mistake
  // (a few superpixels of short dark hair on the official portrait).
  if (r.face) {
    const least = LEAST_HAT * r.face.box.w * r.face.box.h;
    for (const piece of groups(r.s, regions.filter((reg) => r.s.label[reg] === L.hat))) if (areaOf(r.s, piece) < least) for (const q of piece) r.s.label[q] = L.background;
  }
}
