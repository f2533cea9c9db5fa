/**
 * Gender and emotion combinations of the shipped attribute nets, chosen by cross-validation on fit data only:
 * the shared chips' fit half, the fit half of the shared portraits whose faces share one gender label
 * (labels.json), and extra chips of the same kind read from folders outside the repository
 * (scripts/datasets/face-attributes-extra.ts: UTKFace and FER-2013; without them only the shared fit half is
 * fit data, and the script says so). The check half of the shared chips is scored once, for the chosen
 * combination and the shipped one, after the choice; it is never used to choose.
 *
 *   npx tsx scripts/quality/face-attributes-combine.ts [--utk DIR] [--fer DIR] [--cache FILE] [--choose-only] [--check]
 *
 * --choose-only: no model runs, the choice from what the cache holds. --check: the check half's figures too (leave
 * it off while choosing).
 * --cache (default /tmp/face-attributes/combine.json): every net's raw outputs per chip, kept and resumed, so the
 * choice reruns in seconds. ATELIER_EXTRA_UTK / ATELIER_EXTRA_FER name the folders too.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  AGE_CAP, ATTRIBUTE_MODELS, type Border, decodeAge, decodeImage, detectFaces, faceAttributes, faceRoi, type HumanLike,
  imageAttributes, ModelRegistry, type RawAttributes, registryNets, runAttributeModelViews, wholeRoi
} from '../../engine/for-scripts.ts';
import { findChipFace } from '../datasets/face-attributes-chip.ts';
import { ferExtras, utkExtras } from '../datasets/face-attributes-extra.ts';
import { half as portraitHalf } from '../datasets/face-parts-data.ts';
import { EMOTION_NAMES, splitItems } from '../datasets/face-attributes-split.ts';
import { testdata } from './face-attributes-raw.ts';

const args = process.argv.slice(2);
const arg = (name: string) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const utkDir = arg('--utk') ?? process.env.ATELIER_EXTRA_UTK;
const ferDir = arg('--fer') ?? process.env.ATELIER_EXTRA_FER;
const cachePath = arg('--cache') ?? '/tmp/face-attributes/combine.json';
/** The check half is scored only when asked, once the choice is made (--check). */
const showCheck = args.includes('--check');

type Source = 'shared' | 'portrait' | 'utk' | 'fer';
interface Views { plain: RawAttributes; mirror: RawAttributes }
interface Chip {
  source: Source; half: 'fit' | 'check'; set: 'age_gender' | 'emotion'; age?: number; gender?: 0 | 1; emotion?: number;
  /** The shipped PIPELINE's answer: age in years, P(male) as shifted, the seven emotion scores. */
  shipped: { years?: number; male?: number; emotion?: number[] };
  raw: Record<string, Views>;
}

/** The nets' runs kept per chip: model, square (side over the face's extent), border. */
// (Kept small: about 3-5 s a chip on the shared 2-core machine; the earlier leave-one-out round on the shared
// chips alone, branch h-gender2, had found none of the other nets or crops ahead.)
const GENDER_RUNS: [string, number, Border][] = [
  ['faceapi-age-gender', 1.0, 'black'], ['faceapi-age-gender', 1.2, 'edge'], ['faceres-deep', 1.6, 'black'],
  ['faceres-deep-caffe', 1.6, 'black'], ['oarriaga-gender', 1.4, 'black'], ['ssrnet-gender', 1.4, 'black'],
];
const EMOTION_RUNS: [string, number, Border][] = [
  ['emotion', 1.0, 'edge'], ['emotion', 1.2, 'edge'], ['faceapi-expression', 1.0, 'black'], ['faceapi-expression', 1.2, 'black'],
];
const runKey = ([m, s, b]: [string, number, Border]) => `${m}@${s.toFixed(1)}${b === 'edge' ? 'e' : ''}`;

// ---------------------------------------------------------------------------------------------------
// Measuring (resumable)

const labels = JSON.parse(readFileSync(path.join(testdata, 'labels.json'), 'utf8')) as { files: Record<string, Record<string, unknown>> };
const cache: Record<string, Chip> = existsSync(cachePath) ? JSON.parse(readFileSync(cachePath, 'utf8')) : {};
const registry = new ModelRegistry();
let human: HumanLike | undefined;
const nets = registryNets(registry);
const load = (file: string) => decodeImage(readFileSync(file), file.endsWith('.png') ? 'png' : 'jpeg', 50e6);

async function measure(key: string, file: string, meta: Omit<Chip, 'shipped' | 'raw'>, faceIndex?: number): Promise<void> {
  if (cache[key]) return;
  human ??= await registry.get<HumanLike>('human');
  const image = await load(file);
  const face = faceIndex === undefined ? (await findChipFace(human, image)).face : (await detectFaces(human, image))[faceIndex];
  const roi = (s: number) => (face ? faceRoi(face, s) : wholeRoi(image));
  const a = face ? (await faceAttributes(human, image, [face], nets))[0] : await imageAttributes(human, image, nets);
  const chip: Chip = { ...meta, shipped: {}, raw: {} };
  if (meta.set === 'age_gender') {
    const male = a.gender.value === 0 ? a.gender.probability : 1 - a.gender.probability;
    chip.shipped = { years: a.age.years, male };
  } else chip.shipped = { emotion: a.emotion.scores };
  for (const run of meta.set === 'age_gender' ? GENDER_RUNS : EMOTION_RUNS) {
    const { plain, mirrored } = await runAttributeModelViews(human, ATTRIBUTE_MODELS[run[0]], image, [roi(run[1])], run[2], nets);
    chip.raw[runKey(run)] = { plain: plain[0], mirror: mirrored[0] };
  }
  cache[key] = chip;
}

const shared = splitItems(testdata, labels);
const utk = utkExtras(utkDir, testdata);
const fer = ferExtras(ferDir, testdata);
console.log(`fit data: shared fit half (${shared.filter((i) => i.half === 'fit').length} chips), UTKFace extras ${utk.length}${utkDir ? ` (${utkDir})` : ' (none: --utk)'}, FER-2013 extras ${fer.length}${ferDir ? ` (${ferDir})` : ' (none: --fer)'}`);

// Portraits with gender labels: every labelled face of one photo the same gender, the largest faces found taken.
const portraits = Object.entries(labels.files).filter(([rel, l]) => rel.startsWith('portraits/') && Array.isArray(l.faces)
  && (l.faces as { gender?: string }[]).length > 0 && new Set((l.faces as { gender?: string }[]).map((f) => f.gender)).size === 1
  && (l.faces as { gender?: string }[])[0].gender !== undefined);

let done = 0;
const t0 = performance.now();
// --choose-only: no model runs; choose from what the cache holds.
const measureIfAsked: typeof measure = args.includes('--choose-only') ? async () => {} : measure;
const save = () => { mkdirSync(path.dirname(cachePath), { recursive: true }); writeFileSync(cachePath, JSON.stringify(cache)); };
const tick = () => { if (++done % 20 === 0) { save(); console.error(`  ${done} measured, ${((performance.now() - t0) / 1000).toFixed(0)} s`); } };
for (const i of shared) { await measureIfAsked(i.rel, path.join(testdata, i.rel), { source: 'shared', half: i.half, set: i.set, age: i.age, gender: i.gender, emotion: i.emotion }); tick(); }
for (const [rel, l] of args.includes('--choose-only') ? [] : portraits) {
  human ??= await registry.get<HumanLike>('human');
  const want = (l.faces as { gender: string }[]);
  const n = Math.min(want.length, (await detectFaces(human, await load(path.join(testdata, rel)))).length);
  for (let k = 0; k < n; k++) { await measureIfAsked(`${rel}#${k}`, path.join(testdata, rel), { source: 'portrait', half: portraitHalf(rel), set: 'age_gender', gender: want[0].gender === 'male' ? 0 : 1 }, k); tick(); }
}
// --reverse: the extras from the end (a second process on another cache file, merged after).
for (const x of args.includes('--reverse') ? [...fer, ...utk].reverse() : [...fer, ...utk]) {
  await measureIfAsked(x.file, x.file, { source: x.set === 'age_gender' ? 'utk' : 'fer', half: 'fit', set: x.set, age: x.age, gender: x.gender, emotion: x.emotion });
  tick();
}
if (!args.includes('--choose-only')) save();
console.log(`cache: ${Object.keys(cache).length} chips (${cachePath})`);

// ---------------------------------------------------------------------------------------------------
// Fitting: logistic regressions (Newton for two classes, gradient descent for seven), small L2.

const chips = Object.values(cache).filter((c) => (c.set === 'age_gender' ? GENDER_RUNS : EMOTION_RUNS).every((r) => c.raw[runKey(r)]));
const fitAg = chips.filter((c) => c.set === 'age_gender' && c.half === 'fit');
const checkAg = chips.filter((c) => c.set === 'age_gender' && c.half === 'check' && c.source === 'shared');
const fitEm = chips.filter((c) => c.set === 'emotion' && c.half === 'fit');
const checkEm = chips.filter((c) => c.set === 'emotion' && c.half === 'check' && c.source === 'shared');
const count = (l: Chip[], s: Source) => l.filter((c) => c.source === s).length;
console.log(`\ngender fit pool ${fitAg.length} (shared ${count(fitAg, 'shared')}, portraits ${count(fitAg, 'portrait')}, UTKFace ${count(fitAg, 'utk')}); check ${checkAg.length} shared chips`);
console.log(`emotion fit pool ${fitEm.length} (shared ${count(fitEm, 'shared')}, FER-2013 ${count(fitEm, 'fer')}); check ${checkEm.length} shared crops`);

const clampP = (p: number) => Math.min(1 - 1e-6, Math.max(1e-6, p));
const logit = (p: number) => Math.log(clampP(p) / (1 - clampP(p)));
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Binary logistic regression by Newton's method: weights over [1, ...x], L2 `lambda` on all but the intercept. */
function fitBinary(X: number[][], y: number[], lambda = 1e-2): number[] {
  const d = X[0].length + 1;
  let w = new Array<number>(d).fill(0);
  for (let it = 0; it < 30; it++) {
    const g = new Array<number>(d).fill(0);
    const H = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    X.forEach((x, i) => {
      const xi = [1, ...x];
      const p = sigmoid(xi.reduce((s, v, k) => s + v * w[k], 0));
      for (let a = 0; a < d; a++) {
        g[a] += (p - y[i]) * xi[a];
        for (let b = 0; b < d; b++) H[a][b] += p * (1 - p) * xi[a] * xi[b];
      }
    });
    for (let a = 1; a < d; a++) { g[a] += lambda * X.length * w[a]; H[a][a] += lambda * X.length; }
    for (let a = 0; a < d; a++) H[a][a] += 1e-9;
    const step = solve(H, g);
    w = w.map((v, k) => v - step[k]);
    if (Math.max(...step.map(Math.abs)) < 1e-8) break;
  }
  return w;
}
function solve(A: number[][], b: number[]): number[] {
  const n = b.length, M = A.map((r, i) => [...r, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    [M[c], M[p]] = [M[p], M[c]];
    for (let r = 0; r < n; r++) if (r !== c) { const f = M[r][c] / M[c][c]; for (let k = c; k <= n; k++) M[r][k] -= f * M[c][k]; }
  }
  return M.map((r, i) => r[n] / r[i]);
}
const predictBinary = (w: number[], x: number[]) => sigmoid(w[0] + x.reduce((s, v, k) => s + v * w[k + 1], 0));

/** Fixed folds: chips sorted by key hash order, dealt round-robin (the same folds for every candidate). */
const FOLDS = 10;
const foldOf = (list: Chip[]) => { const keys = list.map((c) => JSON.stringify([c.source, c.age, c.gender, c.emotion, c.shipped])); const order = [...keys.keys()].sort((a, b) => (keys[a] < keys[b] ? -1 : 1)); const f = new Array<number>(list.length); order.forEach((i, r) => { f[i] = r % FOLDS; }); return f; };

// ---- gender
const view = (c: Chip, k: string, v: 'plain' | 'flip') => { const r = c.raw[k]; return v === 'plain' ? r.plain.male! : (r.plain.male! + r.mirror.male!) / 2; };
const G_NETS = GENDER_RUNS.map(runKey);
interface GCand { name: string; feats: (c: Chip) => number[]; fixed?: (c: Chip) => number }
const childOf = (c: Chip) => (c.shipped.years! < 13 ? 1 : 0);
const gCands: GCand[] = [{ name: 'shipped (face-api 1.0 flip, male at 0.5)', feats: () => [], fixed: (c) => c.shipped.male! }];
for (const k of G_NETS) for (const v of ['plain', 'flip'] as const) gCands.push({ name: `${k} ${v}`, feats: (c) => [logit(view(c, k, v))] });
for (let i = 0; i < G_NETS.length; i++) for (let j = i + 1; j < G_NETS.length; j++) {
  const a = G_NETS[i], b = G_NETS[j];
  gCands.push({ name: `${a} + ${b}`, feats: (c) => [logit(view(c, a, 'flip')), logit(view(c, b, 'flip'))] });
  for (let l = j + 1; l < G_NETS.length; l++) {
    const e = G_NETS[l];
    gCands.push({ name: `${a} + ${b} + ${e}`, feats: (c) => [logit(view(c, a, 'flip')), logit(view(c, b, 'flip')), logit(view(c, e, 'flip'))] });
  }
}
// Child-aware: the same nets with their own intercept and slopes where the age estimate says under 13.
for (const base of [...gCands.filter((g) => !g.fixed && g.name.endsWith('flip')), ...gCands.filter((g) => g.name.includes(' + '))]) {
  gCands.push({ name: `${base.name} | child-aware`, feats: (c) => { const x = base.feats(c), ch = childOf(c); return [...x, ch, ...x.map((v) => v * ch)]; } });
}
const gFolds = foldOf(fitAg);

const yG = (c: Chip) => (c.gender === 0 ? 1 : 0);
function cvGender(g: GCand) {
  const p = new Array<number>(fitAg.length);
  if (g.fixed) fitAg.forEach((c, i) => { p[i] = g.fixed!(c); });
  else for (let f = 0; f < FOLDS; f++) {
    const tr = fitAg.filter((_, i) => gFolds[i] !== f);
    const w = fitBinary(tr.map(g.feats), tr.map(yG));
    fitAg.forEach((c, i) => { if (gFolds[i] === f) p[i] = predictBinary(w, g.feats(c)); });
  }
  const ok = fitAg.filter((c, i) => (p[i] >= 0.5 ? 1 : 0) === yG(c)).length;
  const nll = -fitAg.reduce((s, c, i) => s + Math.log(clampP(yG(c) ? p[i] : 1 - p[i])), 0) / fitAg.length;
  return { ok, nll, p };
}
const bands: [string, number, number][] = [['0-12', 0, 12], ['13-59', 13, 59], ['60+', 60, 200]];
const bandRight = (list: Chip[], right: (c: Chip, i: number) => boolean) => bands.map(([n, lo, hi]) => {
  const idx = list.map((c, i) => i).filter((i) => list[i].age !== undefined && list[i].age! >= lo && list[i].age! <= hi);
  return `${n} ${idx.filter((i) => right(list[i], i)).length}/${idx.length}`;
}).join(', ');
console.log(`\n== gender: ${gCands.length} candidates, ${FOLDS}-fold cross-validation on the fit pool (${fitAg.length}) ==`);
const gRanked = gCands.map((g) => ({ g, cv: cvGender(g) })).sort((a, b) => b.cv.ok - a.cv.ok || a.cv.nll - b.cv.nll);
const gShipped = gRanked.find((r) => r.g.fixed)!;
/** Against the shipped answer, chip for chip: how many it gets right that shipped gets wrong, and the reverse (McNemar's pair). */
const vsShipped = (p: number[]) => { let gain = 0, loss = 0; fitAg.forEach((c, i) => { const a = (p[i] >= 0.5 ? 1 : 0) === yG(c), b = (gShipped.cv.p[i] >= 0.5 ? 1 : 0) === yG(c); if (a && !b) gain++; if (b && !a) loss++; }); return `+${gain} -${loss}`; };
const gLine = (r: typeof gRanked[number]) => `${r.cv.ok}/${fitAg.length} (${((100 * r.cv.ok) / fitAg.length).toFixed(1)}%) nll ${r.cv.nll.toFixed(3)} vs shipped ${vsShipped(r.cv.p)}  ${r.g.name}  [${bandRight(fitAg, (c, i) => (r.cv.p[i] >= 0.5 ? 1 : 0) === yG(c))}]`;
console.log(`  shipped: ${gLine(gShipped)}`);
for (const r of gRanked.slice(0, 12)) console.log(`  ${gLine(r)}`);
console.log('  each net alone (a fitted threshold), the best view:');
for (const k of G_NETS) { const r = gRanked.find((x) => x.g.name.startsWith(`${k} `) && !x.g.name.includes('+') && !x.g.name.includes('child'))!; console.log(`    ${gLine(r)}`); }
// The choice's margin against other fold deals (the same rule, folds dealt from a different starting point).
for (const shift of [1, 2, 3]) {
  const saved = [...gFolds];
  gFolds.forEach((f, i) => { gFolds[i] = (f + shift * (i % 3)) % FOLDS; });
  const top = [gRanked[0], gRanked[1], gRanked[2], gShipped].map((r) => `${cvGender(r.g).ok} ${r.g.name}`);
  console.log(`  folds dealt again (${shift}): ${top.join('; ')}`);
  saved.forEach((f, i) => { gFolds[i] = f; });
}
const gBest = gRanked[0];
{
  // The chosen one refitted on the whole fit pool, then the check half once.
  const g = gBest.g;
  const w = g.fixed ? [] : fitBinary(fitAg.map(g.feats), fitAg.map(yG));
  const pm = (c: Chip) => (g.fixed ? g.fixed(c) : predictBinary(w, g.feats(c)));
  const score = (list: Chip[], f: (c: Chip) => number) => {
    const ok = list.filter((c) => (f(c) >= 0.5 ? 1 : 0) === yG(c)).length;
    return `${ok}/${list.length} (${((100 * ok) / list.length).toFixed(1)}%) [${bandRight(list, (c) => (f(c) >= 0.5 ? 1 : 0) === yG(c))}]; misses ${list.filter((c) => (f(c) >= 0.5 ? 1 : 0) !== yG(c)).map((c) => `${c.gender ? 'F' : 'M'}${c.age}`).join(' ')}`;
  };
  console.log(`chosen: ${g.name}${w.length ? `, weights [${w.map((v) => v.toPrecision(6)).join(', ')}]` : ''}`);
  const fitShared = fitAg.filter((c) => c.source === 'shared');
  console.log(`  shared fit half: shipped ${score(fitShared, (c) => c.shipped.male!)}; chosen (in-sample) ${score(fitShared, pm)}`);
  if (showCheck) console.log(`  check half:      shipped ${score(checkAg, (c) => c.shipped.male!)}; chosen ${score(checkAg, pm)}`);
}

// ---- emotion
/** Multinomial logistic regression over [1, ...x] by gradient descent (7 classes), L2 `lambda` on all but the biases. */
function fitMulti(X: number[][], y: number[], lambda = 1e-2, iters = 400): number[][] {
  const d = X[0].length + 1, K = 7;
  const W = Array.from({ length: K }, () => new Array<number>(d).fill(0));
  const m = Array.from({ length: K }, () => new Array<number>(d).fill(0)), v = Array.from({ length: K }, () => new Array<number>(d).fill(0));
  for (let it = 1; it <= iters; it++) {
    const G = Array.from({ length: K }, () => new Array<number>(d).fill(0));
    X.forEach((x, i) => {
      const xi = [1, ...x];
      const p = softmax(W.map((w) => w.reduce((s, wv, k) => s + wv * xi[k], 0)));
      for (let k = 0; k < K; k++) { const e = p[k] - (y[i] === k ? 1 : 0); for (let a = 0; a < d; a++) G[k][a] += (e * xi[a]) / X.length; }
    });
    // Adam: the features' scales differ (log-probabilities), and a fixed step would crawl or overshoot.
    for (let k = 0; k < K; k++) for (let a = 0; a < d; a++) {
      const g = G[k][a] + (a ? lambda * W[k][a] : 0);
      m[k][a] = 0.9 * m[k][a] + 0.1 * g; v[k][a] = 0.999 * v[k][a] + 0.001 * g * g;
      W[k][a] -= (0.05 * (m[k][a] / (1 - 0.9 ** it))) / (Math.sqrt(v[k][a] / (1 - 0.999 ** it)) + 1e-8);
    }
  }
  return W;
}
function softmax(z: number[]): number[] { const mx = Math.max(...z); const e = z.map((v) => Math.exp(v - mx)); const s = e.reduce((a, b) => a + b, 0); return e.map((v) => v / s); }
const predictMulti = (W: number[][], x: number[]) => softmax(W.map((w) => w[0] + x.reduce((s, v, k) => s + v * w[k + 1], 0)));
const eView = (c: Chip, k: string) => { const r = c.raw[k]; return r.plain.emotion!.map((v, i) => (v + r.mirror.emotion![i]) / 2); };
const E_NETS = EMOTION_RUNS.map(runKey);
const logs = (p: number[]) => p.map((v) => Math.log(Math.max(v, 1e-6)));
interface ECand { name: string; probs?: (c: Chip) => number[]; feats?: (c: Chip) => number[] }
const eCands: ECand[] = [{ name: 'shipped (0.6 mini-Xception 1.2 edge + 0.4 face-api 1.2, flip)', probs: (c) => c.shipped.emotion! }];
const miniX = E_NETS.filter((k) => k.startsWith('emotion@')), faceApiE = E_NETS.filter((k) => k.startsWith('faceapi'));
for (const a of E_NETS) eCands.push({ name: `${a} flip`, probs: (c) => eView(c, a) });
for (const a of miniX) for (const b of faceApiE) {
  for (let w = 1; w <= 9; w++) {
    eCands.push({ name: `${(w / 10).toFixed(1)} ${a} + ${(1 - w / 10).toFixed(1)} ${b} (linear)`, probs: (c) => { const p = eView(c, a), q = eView(c, b); return p.map((v, i) => (w / 10) * v + (1 - w / 10) * q[i]); } });
    eCands.push({ name: `${(w / 10).toFixed(1)} ${a} + ${(1 - w / 10).toFixed(1)} ${b} (log)`, probs: (c) => softmax(logs(eView(c, a)).map((v, i) => (w / 10) * v + (1 - w / 10) * Math.log(Math.max(eView(c, b)[i], 1e-6)))) });
  }
  // Learned: class biases over the even log pool (the classes' priors as this kind of photo has them), and a full logistic fit.
  eCands.push({ name: `${a} + ${b}: log pool + class biases`, feats: (c) => [...logs(eView(c, a)), ...logs(eView(c, b))].map((v, i, all) => (i < 7 ? 0.5 * (v + all[i + 7]) : 0)).slice(0, 7) });
  eCands.push({ name: `${a} + ${b}: logistic over both`, feats: (c) => [...logs(eView(c, a)), ...logs(eView(c, b))] });
}
const eFolds = foldOf(fitEm);
/** A pool + class biases is a logistic fit whose slopes are held at 1 on the pooled log-probability of its own class. */
function cvEmotion(e: ECand) {
  const p: number[][] = new Array(fitEm.length);
  if (e.probs) fitEm.forEach((c, i) => { p[i] = e.probs!(c); });
  else for (let f = 0; f < FOLDS; f++) {
    const tr = fitEm.filter((_, i) => eFolds[i] !== f);
    const predict = trainEmotion(e, tr);
    fitEm.forEach((c, i) => { if (eFolds[i] === f) p[i] = predict(c); });
  }
  const ok = fitEm.filter((c, i) => p[i].indexOf(Math.max(...p[i])) === c.emotion).length;
  const nll = -fitEm.reduce((s, c, i) => s + Math.log(clampP(p[i][c.emotion!])), 0) / fitEm.length;
  return { ok, nll, p };
}
function trainEmotion(e: ECand, tr: Chip[]): (c: Chip) => number[] {
  if (e.probs) return e.probs;
  if (e.name.endsWith('class biases')) {
    // Biases only: fit b so that softmax(pool + b) matches the labels (Adam on 7 numbers).
    const X = tr.map(e.feats!), b = new Array<number>(7).fill(0), m = new Array<number>(7).fill(0), v = new Array<number>(7).fill(0);
    for (let it = 1; it <= 400; it++) {
      const g = new Array<number>(7).fill(0);
      X.forEach((x, i) => { const q = softmax(x.map((z, k) => z + b[k])); q.forEach((qk, k) => { g[k] += (qk - (tr[i].emotion === k ? 1 : 0)) / X.length; }); });
      for (let k = 0; k < 7; k++) { m[k] = 0.9 * m[k] + 0.1 * g[k]; v[k] = 0.999 * v[k] + 0.001 * g[k] * g[k]; b[k] -= (0.05 * m[k] / (1 - 0.9 ** it)) / (Math.sqrt(v[k] / (1 - 0.999 ** it)) + 1e-8); }
    }
    return (c) => softmax(e.feats!(c).map((z, k) => z + b[k]));
  }
  const W = fitMulti(tr.map(e.feats!), tr.map((c) => c.emotion!));
  return (c) => predictMulti(W, e.feats!(c));
}
console.log(`\n== emotion: ${eCands.length} candidates, ${FOLDS}-fold cross-validation on the fit pool (${fitEm.length}) ==`);
const perClass = (list: Chip[], pred: (c: Chip, i: number) => number) => EMOTION_NAMES.map((n, k) => {
  const idx = list.map((_, i) => i).filter((i) => list[i].emotion === k);
  return `${n.slice(0, 3)} ${idx.filter((i) => pred(list[i], i) === k).length}/${idx.length}`;
}).join(' ');
const eRanked = eCands.map((e) => ({ e, cv: cvEmotion(e) })).sort((a, b) => b.cv.ok - a.cv.ok || a.cv.nll - b.cv.nll);
const argmax = (p: number[]) => p.indexOf(Math.max(...p));
const eLine = (r: typeof eRanked[number]) => `${r.cv.ok}/${fitEm.length} (${((100 * r.cv.ok) / fitEm.length).toFixed(1)}%) nll ${r.cv.nll.toFixed(3)}  ${r.e.name}  [${perClass(fitEm, (_, i) => argmax(r.cv.p[i]))}]`;
console.log(`  shipped: ${eLine(eRanked.find((r) => r.e.name.startsWith('shipped'))!)}`);
for (const r of eRanked.slice(0, 12)) console.log(`  ${eLine(r)}`);
{
  const e = eRanked[0].e;
  const predict = trainEmotion(e, fitEm);
  const score = (list: Chip[], f: (c: Chip) => number[]) => {
    const ok = list.filter((c) => argmax(f(c)) === c.emotion).length;
    return `${ok}/${list.length} (${((100 * ok) / list.length).toFixed(1)}%) [${perClass(list, (c) => argmax(f(c)))}]`;
  };
  console.log(`chosen: ${e.name}`);
  console.log(`  shared fit half: shipped ${score(fitEm.filter((c) => c.source === 'shared'), (c) => c.shipped.emotion!)}; chosen (in-sample) ${score(fitEm.filter((c) => c.source === 'shared'), predict)}`);
  if (showCheck) console.log(`  check half:      shipped ${score(checkEm, (c) => c.shipped.emotion!)}; chosen ${score(checkEm, predict)}`);
}

// ---- age, per decade (the shipped estimate; a reference for the targets)
{
  const api = (y: number) => Math.max(0, Math.min(AGE_CAP, Math.round(y)));
  const mae = (list: Chip[]) => (list.length ? (list.reduce((s, c) => s + Math.abs(api(c.shipped.years!) - Math.min(AGE_CAP, c.age!)), 0) / list.length).toFixed(2) : '-');
  const decades = (list: Chip[]) => [0, 10, 20, 30, 40, 50].map((d) => `${d}s ${mae(list.filter((c) => c.age! >= d && c.age! < d + 10))}`).join(', ') + `, 60+ ${mae(list.filter((c) => c.age! >= 60))}`;
  const withAge = (l: Chip[]) => l.filter((c) => c.age !== undefined);
  console.log('\n== age (shipped), MAE capped at 65 ==');
  for (const [name, list] of [['shared fit', withAge(fitAg.filter((c) => c.source === 'shared'))], ['UTKFace extras', withAge(fitAg.filter((c) => c.source === 'utk'))], ['shared check', withAge(checkAg)]] as [string, Chip[]][]) {
    console.log(`  ${name.padEnd(15)} ${mae(list)} (${list.length}): ${decades(list)}`);
  }
}
process.exit(0);
