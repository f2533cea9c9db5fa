/**
 * Trains the learned garment parse (engine/vision/garments/learned.ts) on the fit half of the labelled
 * street photos (scripts/apparel-split.ts) and writes engine/vision/garments/apparel-model.json.
 *   npx tsx scripts/train-apparel.ts [--rounds N] [--depth D] [--rate R] [--seed S] [--dry] [--curve] [--cached-only] [--drop f,g] [--class-power p] [name-filter ...]
 * 1. Per photo: the model outputs (from the quality cache, APPAREL_CACHE, or run now and cached), the
 *    rules' parse, the feature row of each candidate region, and per region the ground-truth pixel counts
 *    per class; kept in FEATURE_CACHE so later runs only train.
 * 2. Gradient-boosted trees (seeded) on the fit half's regions: label = the region's majority class,
 *    weight = its labelled pixels; regions mostly of ignored labels (dresses, tights) are left out.
 * 3. Figures per half at work size, for the rules, for the best any classing of the same regions could do,
 *    and for the model (with --curve every 20 rounds, with and without smoothing): per-class IoU of the
 *    labelled pixels (on the matte), the mean over the seven classes and all-clothing IoU; the check
 *    half's confusions.
 * --dry trains and prints without writing the model.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import effect from '../engine/effects/apparel-background-removal/effect.ts';
import { garmentClasses } from '../engine/effects/apparel-background-removal/garment-classes.ts';
import { parseInput, type P, type State } from '../engine/effects/apparel-background-removal/steps.ts';
import { stepContext } from '../engine/pipeline/effect.ts';
import { FEATURES } from '../engine/vision/garments/apparel-features.ts';
import { readModel, type BoostedTrees } from '../engine/vision/garments/boosted-trees.ts';
import { candidateFeatures, candidateNeighbours, candidateRegions, MODEL_CLASSES, predictClasses, SMOOTHING } from '../engine/vision/garments/learned.ts';
import { parseByRules } from '../engine/vision/garments/parse.ts';
import { L } from '../engine/vision/garments/scene.ts';
import { ModelRegistry } from '../engine/vision/models/registry.ts';
import { APPAREL_CACHE, loadCached, saveCached } from './apparel-cache.ts';
import { apparelPhotos, IGNORE, testdata, truth, type ApparelPhoto, type Half } from './apparel-split.ts';
import { trainBoostedTrees } from './boosted-trees-train.ts';

const args = process.argv.slice(2);
const opt = (name: string, d: number) => { const i = args.indexOf(name); return i >= 0 ? Number(args[i + 1]) : d; };
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MODEL_FILE = path.join(repoRoot, 'engine/vision/garments/apparel-model.json');
const FEATURE_CACHE = '/tmp/apparel-features';
/** Count slots per region: MODEL_CLASSES, then ignored pixels. */
const SLOTS = MODEL_CLASSES.length + 1, IGN = MODEL_CLASSES.length;
const F = FEATURES.length;

interface PhotoRows {
  rel: string; half: Half; person: boolean; scored: string[];
  /** Candidate regions' feature rows. */
  rows: Float32Array; count: number;
  /** The rules' class (MODEL_CLASSES index) per candidate region. */
  rule: Uint8Array;
  /** Per candidate region: ground-truth pixels per slot on the matte (>= 128) and in all. */
  onMatte: Uint32Array; inAll: Uint32Array;
  /** Ground-truth pixels per slot over the whole photo. */
  totals: number[];
  neighbours: number[][];
}

const filters = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
const photos = apparelPhotos()?.filter((p) => !filters.length || filters.some((f) => p.rel.includes(f)));
if (!photos) { console.log(`No apparel ground truth at ${testdata}; nothing trained.`); process.exit(0); }
const version = createHash('sha1').update(`${FEATURES.join()} neighbours, pieces in the subject`).digest('hex').slice(0, 8);
mkdirSync(path.join(FEATURE_CACHE, version), { recursive: true });
const models = new ModelRegistry({ threads: 2 });
const kit = { models, signal: new AbortController().signal };

const data: PhotoRows[] = [];
let t0 = Date.now();
for (const photo of photos) {
  // --cached-only: only photos whose model outputs a quality run has cached (while that run goes on).
  if (args.includes('--cached-only') && !existsSync(path.join(FEATURE_CACHE, version, `${key(photo.rel)}.json`)) && !loadCached(APPAREL_CACHE, photo.rel)) continue;
  data.push(await rowsOf(photo));
}
console.log(`features of ${data.length} photos (${data.filter((d) => d.half === 'fit').length} fit, ${data.filter((d) => d.half === 'check').length} check) in ${((Date.now() - t0) / 1000).toFixed(0)} s; ${data.filter((d) => !d.person).length} without a person (rules' garment-alone path, not learned)`);

// Training rows: the fit half's candidate regions of people, mostly labelled.
const fit = data.filter((d) => d.half === 'fit' && d.person);
let rows = 0;
for (const d of fit) for (let i = 0; i < d.count; i++) if (usable(d, i)) rows++;
const X = new Float32Array(rows * F), y = new Uint8Array(rows), w = new Float32Array(rows);
let at = 0;
for (const d of fit) for (let i = 0; i < d.count; i++) {
  if (!usable(d, i)) continue;
  X.set(d.rows.subarray(i * F, i * F + F), at * F);
  let best = 0;
  for (let k = 1; k < MODEL_CLASSES.length; k++) if (d.inAll[i * SLOTS + k] > d.inAll[i * SLOTS + best]) best = k;
  y[at] = best;
  w[at] = labelled(d, i) / 70;
  at++;
}
const counts = MODEL_CLASSES.map((_, k) => y.filter((v) => v === k).length);
// Rare classes (hats) weigh more: (most common class's rows / this class's rows) ^ power.
const classPower = opt('--class-power', 0.5);
const classWeight = counts.map((c) => (Math.max(...counts) / Math.max(1, c)) ** classPower);
for (let r = 0; r < rows; r++) w[r] *= classWeight[y[r]];
// --drop a,b,...: features held constant (the trees cannot use them). By default the absolute colour and
// place in the frame: without them the check half did better (the trees learnt photos' colours by heart).
const dropped = (args.includes('--drop') ? args[args.indexOf('--drop') + 1] : 'L,a,b,chroma,imageX,imageY').split(',').filter((f) => f && f !== 'none');
for (const f of dropped) {
  const j = FEATURES.indexOf(f);
  if (j < 0) throw new Error(`--drop: no feature ${f}`);
  for (let r = 0; r < rows; r++) X[r * F + j] = 0;
}
if (dropped.length) console.log(`dropped: ${dropped.join(', ')}`);
console.log(`training rows: ${rows} (${MODEL_CLASSES.map((c, k) => `${c} ${counts[k]}`).join(', ')})`);

report('rules', (d) => d.rule);
// The best any classing of these regions could do (each its majority class): the matte and superpixels' bound.
report('region oracle', (d) => Uint8Array.from({ length: d.count }, (_, i) => {
  let best = 0;
  for (let k = 1; k < IGN; k++) if (d.inAll[i * SLOTS + k] > d.inAll[i * SLOTS + best]) best = k;
  return best;
}));
// Defaults: the settings chosen on the check half (README, apparel parsing); deeper trees, more rounds and
// smaller leaves fitted the fit half better and the check half worse.
const settings = {
  rounds: opt('--rounds', 60), depth: opt('--depth', 3), rate: opt('--rate', 0.1), seed: opt('--seed', 13),
  minHessian: opt('--min-hessian', 50), lambda: opt('--lambda', 1), rowShare: opt('--row-share', 0.7), featureShare: opt('--feature-share', 0.5),
};
t0 = Date.now();
const model = trainBoostedTrees({
  data: X, rows, features: [...FEATURES], classes: [...MODEL_CLASSES], labels: y, weights: w,
  ...settings, bins: 64,
  onRound: (round, m) => {
    if (!args.includes('--curve') || round % 20 !== 0) return;
    report(`model, ${round} rounds`, (d) => predictClasses(m, d.rows, d.count));
    for (const share of [0.3, 0.5, 0.7]) report(`  smoothed ${share}`, (d) => predictClasses(m, d.rows, d.count, d.neighbours, { ...SMOOTHING, share }));
  },
});
report(`model, ${settings.rounds} rounds`, (d) => predictClasses(readModel(model), d.rows, d.count, d.neighbours));
confusion(model);
console.log(`trained in ${((Date.now() - t0) / 1000).toFixed(0)} s (${JSON.stringify(settings)})`);
if (!args.includes('--dry')) {
  writeFileSync(MODEL_FILE, JSON.stringify(model));
  console.log(`wrote ${path.relative(repoRoot, MODEL_FILE)} (${(JSON.stringify(model).length / 1024).toFixed(0)} KiB)`);
}

/** Check-half pixels on the matte by true class (rows) and the model's class (columns), in thousands. */
function confusion(m: BoostedTrees) {
  const K = MODEL_CLASSES.length, c = new Float64Array(K * K);
  for (const d of data.filter((e) => e.half === 'check' && e.person)) {
    const cls = predictClasses(m, d.rows, d.count, d.neighbours);
    for (let i = 0; i < d.count; i++) for (let t = 0; t < K; t++) c[t * K + cls[i]] += d.onMatte[i * SLOTS + t];
  }
  console.log(`check half, true \\ model (k pixels): ${MODEL_CLASSES.map((n) => n.padStart(6)).join('')}`);
  MODEL_CLASSES.forEach((n, t) => console.log(`${n.padStart(34)} ${MODEL_CLASSES.map((_, k) => (c[t * K + k] / 1000).toFixed(0).padStart(6)).join('')}`));
}

function key(rel: string) { return rel.replace(/[^\w.-]/g, '_'); }
function labelled(d: PhotoRows, i: number) { let n = 0; for (let k = 0; k < IGN; k++) n += d.inAll[i * SLOTS + k]; return n; }
function usable(d: PhotoRows, i: number) { return labelled(d, i) > d.inAll[i * SLOTS + IGN]; }

/** Per-half IoU at work size of a classing of every photo's candidate regions (non-candidates: none). */
function report(name: string, classify: (d: PhotoRows) => Uint8Array) {
  const line: string[] = [];
  for (const h of ['fit', 'check'] as Half[]) {
    const I = new Float64Array(SLOTS), Pr = new Float64Array(SLOTS), T = new Float64Array(SLOTS);
    for (const d of data.filter((e) => e.half === h)) {
      const cls = d.person ? classify(d) : d.rule;
      const scored = (k: number) => k === 0 || d.scored.includes(MODEL_CLASSES[k]);
      for (let k = 1; k < IGN; k++) if (scored(k)) T[k] += d.totals[k];
      for (let i = 0; i < d.count; i++) {
        const k = cls[i];
        if (k === 0) continue;
        let on = 0, onGarment = 0;
        for (let j = 0; j < IGN; j++) { on += d.onMatte[i * SLOTS + j]; if (j > 0) onGarment += d.onMatte[i * SLOTS + j]; }
        if (scored(k)) { I[k] += d.onMatte[i * SLOTS + k]; Pr[k] += on; }
        I[0] += onGarment; Pr[0] += on;
      }
      for (let k = 1; k < IGN; k++) T[0] += d.totals[k];
    }
    const iou = (k: number) => (Pr[k] + T[k] - I[k] > 0 ? I[k] / (Pr[k] + T[k] - I[k]) : 0);
    const per = garmentClasses.map((_, c) => iou(c + 1));
    line.push(`${h}: ${garmentClasses.map((c, k) => `${c} ${per[k].toFixed(2)}`).join(' ')} | mean ${(per.reduce((t, v) => t + v, 0) / 7).toFixed(3)} all ${iou(0).toFixed(3)}`);
  }
  console.log(`${name.padEnd(18)} ${line.join('   ')}`);
}

async function rowsOf(photo: ApparelPhoto): Promise<PhotoRows> {
  const file = path.join(FEATURE_CACHE, version, key(photo.rel));
  if (existsSync(`${file}.json`)) {
    const j = JSON.parse(readFileSync(`${file}.json`, 'utf8'));
    const buf = readFileSync(`${file}.bin`);
    const b = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length);
    const n = j.count;
    return { ...j, half: photo.half, rows: new Float32Array(b, 0, n * F), rule: new Uint8Array(b, n * F * 4 + 2 * n * SLOTS * 4, n), onMatte: new Uint32Array(b, n * F * 4, n * SLOTS), inAll: new Uint32Array(b, n * F * 4 + n * SLOTS * 4, n * SLOTS) };
  }
  const { data: px, info } = await sharp(path.join(testdata, photo.rel)).rotate().raw().toBuffer({ resolveWithObject: true });
  const image = { data: px, width: info.width, height: info.height, channels: info.channels as 3 | 4 };
  const c = stepContext<P, State>(image, { out_mode: 0, cloth_class: [...garmentClasses], return_form: 'mask' } as P, models);
  const cached = loadCached(APPAREL_CACHE, photo.rel);
  if (cached) Object.assign(c.state, cached);
  else { for (const step of effect.steps.slice(0, 2)) await step(c, kit); saveCached(APPAREL_CACHE, photo.rel, c.state); }
  const input = await parseInput(c);
  const rules = parseByRules(input);
  const regions = candidateRegions(rules);
  const rows = candidateFeatures(rules, input, regions);
  const gt = await truth(photo);
  const small = await sharp(gt.cls, { raw: { width: gt.width, height: gt.height, channels: 1 } }).resize(input.width, input.height, { fit: 'fill', kernel: 'nearest' }).extractChannel(0).raw().toBuffer();
  const slot = (v: number) => (v === IGNORE ? IGN : v);
  const index = new Int32Array(rules.s.regions.length).fill(-1);
  regions.forEach((r, i) => { index[r] = i; });
  const n = regions.length;
  const onMatte = new Uint32Array(n * SLOTS), inAll = new Uint32Array(n * SLOTS), totals = new Array<number>(SLOTS).fill(0);
  for (let p = 0; p < small.length; p++) {
    const k = slot(small[p]);
    totals[k]++;
    const i = index[rules.s.sp[p]];
    if (i < 0) continue;
    inAll[i * SLOTS + k]++;
    if (input.matte[p] >= 128 || rules.offMatte?.[p]) onMatte[i * SLOTS + k]++;
  }
  const toClass = new Map(garmentClasses.map((g, k) => [L[g], k + 1]));
  const rule = Uint8Array.from(regions, (r) => toClass.get(rules.s.label[r]) ?? 0);
  const meta = { rel: photo.rel, person: rules.person, scored: gt.scored, count: n, totals, neighbours: candidateNeighbours(rules, regions) };
  writeFileSync(`${file}.json`, JSON.stringify(meta));
  writeFileSync(`${file}.bin`, Buffer.concat([Buffer.from(rows.buffer), Buffer.from(onMatte.buffer), Buffer.from(inAll.buffer), Buffer.from(rule.buffer)]));
  return { ...meta, half: photo.half, rows, rule, onMatte, inAll };
}
