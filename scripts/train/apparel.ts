/**
 * Trains the learned garment parse (engine/effects/apparel-background-removal/garments/learned.ts) on the fit half of the labelled
 * street photos (scripts/datasets/apparel-split.ts) and writes engine/effects/apparel-background-removal/garments/apparel-model.json.
 *   npx tsx scripts/train/apparel.ts [--folds N] [--stages 1|2] [--rounds N] [--depth D] [--rate R] [--min-hessian H]
 *     [--feature-share S] [--class-power p] [--rounds2 N ...] [--seed S] [--drop f,g] [--calibrate]
 *     [--class-boost c=x,...] [--seeds N] [--vote | --no-vote] [--smooth-grid] [--check] [--dry] [--features-only] [--cached-only] [--lower-failures]
 *     [--fold-model N] [--augment flip,shift,flipshift] [--augment-weight w] [--no-mlp] [--mlp-hidden 64] [--mlp-epochs N]
 *     [--mlp-rate r] [--mlp-decay d] [--mlp-dropout p] [--mlp-activation relu|tanh] [--mlp-hard] [--mlp-seeds N] [--mix m]
 *     [--mixes m,...] [--confusion] [--bag] [name-filter ...]
 * 1. Per photo: the model outputs (from the quality cache, APPAREL_CACHE, or run now and cached), the
 *    rules' parse, the feature row of each candidate region, and per region the ground-truth pixel counts
 *    per class; kept in FEATURE_CACHE so later runs only train.
 * 2. Gradient-boosted trees (seeded) on the fit half's regions: label = the region's majority class,
 *    weight = its labelled pixels × (most common class's rows / its class's rows) ^ class power; regions
 *    mostly of ignored labels (dresses, tights) are left out. Each stage is trained once per photo-level fold of the fit half
 *    (--folds, default 4) and once on all of it: the folds give every fit photo probabilities from a model
 *    that never saw it, and so figures to choose settings by without the check half. --stages 2 adds the
 *    context stage (context.ts) over the first stage's held-out probabilities (not in the committed model). The
 *    first stage's folds are kept in STAGE_CACHE.
 * 2b. A small perceptron (mlp.ts) on the same rows, labels (soft: each region's labelled pixels' shares) and
 *    weights, held out by the same folds (its probabilities and model kept in MLP_CACHE); its class probabilities
 *    are mixed with the trees' as a geometric mean, --mix its share (learned.ts mixProba), before the smoothing.
 * 3. With --calibrate, per-class offsets to the log probabilities, fitted to the mean and all-clothing IoU
 *    of the fit half's held-out probabilities (and themselves checked fold by fold). Not in the committed model.
 * 4. Figures at work size, with or without the lower-garment vote (learned.ts LOWER_VOTE; --vote /
 *    --no-vote): per-class IoU of the labelled pixels on the matte, the mean over the seven classes,
 *    all-clothing IoU, on the fit half's folds for the rules, the best any classing of the same
 *    regions could do, and each step; with --check also on the check half, and its confusions (each --check
 *    run is one look at the check half: README counts them).
 * --dry trains and prints without writing the model.
 * --augment adds training rows from other views of each fit photo (same photo, so in its fold): `flip` the photo
 *    and every cached model output mirrored (keypoints' left and right swapped), `shift` the photo cut by half a
 *    superpixel at the top left so that SLIC's grid falls elsewhere on the same garments, `flipshift` both; the
 *    rules and features recomputed on the view (cached in FEATURE_CACHE), its rows weighted --augment-weight
 *    (default 1). Figures stay on the photos themselves.
 * --bag writes the trees trained on the whole fit half averaged with those trained without each fold (and scores
 *    each fold by the trees without it and without it and each other fold). Not in the committed model.
 * 5. To look at failures held out: --confusion prints the fit half's held-out confusions (pixels by true and
 *    model class); --lower-failures lists the fit photos whose skirt and trousers pixels the folds' models
 *    swapped most, with their fold; --fold-model N writes the model trained without fold N, so
 *    that quality:apparel --half fit --render shows those photos as a model that never saw them parses them
 *    (git checkout the committed model afterwards).
 * What each setting scored, kept or left out: docs/experiments/apparel-background-removal.md.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type ApparelModel, averageProba, type BoostedTrees, classesOf, CONTEXT_STAGE_FEATURES, contextRows, FEATURES,
  garmentClasses, LOWER_VOTE, meanProba, mixProba, type Mlp, MODEL_CLASSES, predictMlp, predictRegions,
  readApparelModel, readMlp, readModel, SMOOTHING, smoothRegionProba as smooth, withContext
} from '../../engine/for-scripts.ts';
import { APPAREL_CACHE, loadCached } from '../datasets/apparel-cache.ts';
import { apparelPhotos, testdata, type Half } from '../datasets/apparel-split.ts';
import {
  FEATURE_CACHE, figures, key, labelled, type PhotoRows, regionOracle, rowsOf, SLOTS, usable, version
} from './apparel-rows.ts';
import { confusion, lowerFailures, type Run } from './apparel-failures.ts';
import { VIEWS } from './apparel-views.ts';
import { trainBoostedTrees } from './boosted-trees.ts';
import { trainMlp } from './mlp.ts';

const args = process.argv.slice(2);
const opt = (name: string, d: number) => { const i = args.indexOf(name); return i >= 0 ? Number(args[i + 1]) : d; };
const strOpt = (name: string, d: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : d);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MODEL_FILE = path.join(repoRoot, 'engine/effects/apparel-background-removal/garments/apparel-model.json');
/** First-stage models and their held-out probabilities (crossFitCached). */
const STAGE_CACHE = '/tmp/apparel-stage1';
/** The perceptron's held-out probabilities and model (crossFitNet). */
const MLP_CACHE = '/tmp/mlp/apparel-mlp';

const filters = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
const photos = apparelPhotos()?.filter((p) => !filters.length || filters.some((f) => p.rel.includes(f)));
if (!photos) { console.log(`No apparel ground truth at ${testdata}; nothing trained.`); process.exit(0); }
mkdirSync(path.join(FEATURE_CACHE, version), { recursive: true });

const data: PhotoRows[] = [];
let t0 = Date.now();
for (const photo of photos) {
  // --cached-only: only photos whose model outputs a quality run has cached (while that run goes on).
  if (args.includes('--cached-only') && !existsSync(path.join(FEATURE_CACHE, version, `${key(photo.rel)}.json`)) && !loadCached(APPAREL_CACHE, photo.rel)) continue;
  data.push(await rowsOf(photo));
}
console.log(`features of ${data.length} photos (${data.filter((d) => d.half === 'fit').length} fit, ${data.filter((d) => d.half === 'check').length} check) in ${((Date.now() - t0) / 1000).toFixed(0)} s; ${data.filter((d) => !d.person).length} without a person (rules' garment-alone path, not learned)`);
// --augment: training-only views of the fit photos with a person (figures stay on the photos themselves).
const augment = strOpt('--augment', '').split(',').filter(Boolean);
for (const a of augment) if (!VIEWS[a]) throw new Error(`--augment: no view ${a} (${Object.keys(VIEWS).join(', ')})`);
const augmentWeight = opt('--augment-weight', 1);
const viewsOf = new Map<PhotoRows, PhotoRows[]>();
if (augment.length) {
  t0 = Date.now();
  for (const d of data) {
    if (d.half !== 'fit' || !d.person) continue;
    const photo = photos.find((p) => p.rel === d.rel)!;
    const vs: PhotoRows[] = [];
    for (const a of augment) { const v = await rowsOf(photo, VIEWS[a]); if (v.person) vs.push(v); }
    viewsOf.set(d, vs);
  }
  console.log(`augmented: ${augment.join(', ')} x${augmentWeight}, ${[...viewsOf.values()].reduce((t, v) => t + v.length, 0)} views in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  // A view is the same photo: the rules and the regions' bound should score on it about as on the photos.
  const line = (ds: PhotoRows[], classify: (d: PhotoRows) => Uint8Array) => { const f = figures(ds, classify); return `${f.per.map((v) => v.toFixed(2)).join(' ')} | ${f.mean.toFixed(3)} | ${f.all.toFixed(3)}`; };
  for (const a of ['', ...augment]) {
    const ds = a ? [...viewsOf.values()].flat().filter((v) => v.view === a) : [...viewsOf.keys()];
    console.log(`  ${(a || 'photos').padEnd(10)} rules ${line(ds, (d) => d.rule)}   region oracle ${line(ds, regionOracle)}`);
  }
}

// --features-only: fill the feature cache (and the views') and stop.
if (args.includes('--features-only')) process.exit(0);
const people = data.filter((d) => d.person);
const fitPeople = people.filter((d) => d.half === 'fit');
// Photo-level folds of the fit half (by sorted path): each fold's first-stage probabilities come from a model
// that never saw it, as the check half's do, so the context stage learns from honest neighbours; the same
// folds give cross-validated figures on the fit half to choose settings by without looking at the check half.
const folds = opt('--folds', 4);
const foldOf = new Map(fitPeople.map((d, i) => [d, i % folds]));
const showCheck = args.includes('--check');
// --vote / --no-vote: connected lower garments voted skirt or trousers as wholes (learned.ts voteLower) or not,
// whatever LOWER_VOTE says (figures only: the engine follows LOWER_VOTE). Whole pieces named by small trees
// over their shape against the legs did worse on the fit folds (skirt .26 -> .17).
const vote = args.includes('--vote') ? true : args.includes('--no-vote') ? false : LOWER_VOTE;
const run: Run = { data, fitPeople, foldOf, vote };
const dropped = strOpt('--drop', 'L,a,b,chroma,imageX,imageY').split(',').filter((f) => f && f !== 'none');
for (const f of dropped) if (!FEATURES.includes(f)) throw new Error(`--drop: no feature ${f}`);
if (dropped.length) console.log(`dropped: ${dropped.join(', ')}`);
// Defaults: the settings chosen on the fit half's folds (README, apparel parsing); deeper trees, more rounds and
// smaller leaves fitted the fit half better and held-out photos worse. --rounds2 etc. set the context stage.
const settingsFor = (suffix: string, d: Record<string, number>) => ({
  rounds: opt(`--rounds${suffix}`, d.rounds), depth: opt(`--depth${suffix}`, d.depth), rate: opt(`--rate${suffix}`, d.rate), seed: opt('--seed', 13),
  minHessian: opt(`--min-hessian${suffix}`, d.minHessian), lambda: opt('--lambda', 1), rowShare: opt('--row-share', 0.7), featureShare: opt(`--feature-share${suffix}`, d.featureShare),
  classPower: opt(`--class-power${suffix}`, d.classPower),
});
const stage1 = settingsFor('', { rounds: 60, depth: 3, rate: 0.1, minHessian: 50, featureShare: 0.5, classPower: 1 });
const stage2 = settingsFor('2', { rounds: 60, depth: 3, rate: 0.1, minHessian: 50, featureShare: 0.5, classPower: 0.5 });
const K = MODEL_CLASSES.length;
// The perceptron (mlp.ts; off with --no-mlp) on the same rows, labels and weights as the trees, held out by
// the same folds; figures alone and mixed with the trees (--mix: its share in the model, --mixes: shares to
// print). Defaults chosen on the fit folds with seeds 13 and 14 (README): 64 ReLU units, dropout 0.5, weight
// decay 1, 10 epochs, soft targets (--mlp-hard: majority labels), a geometric mix of 0.2.
const mlpOn = !args.includes('--no-mlp');
const mlpSettings = {
  hidden: strOpt('--mlp-hidden', '64').split(',').map(Number), activation: strOpt('--mlp-activation', 'relu') as Mlp['activation'],
  epochs: opt('--mlp-epochs', 10), batch: opt('--mlp-batch', 256), rate: opt('--mlp-rate', 0.003), decay: opt('--mlp-decay', 1),
  dropout: opt('--mlp-dropout', 0.5), seed: opt('--seed', 13), soft: !args.includes('--mlp-hard'), nets: opt('--mlp-seeds', 1),
};
const mix = opt('--mix', 0.2);
const mixes = strOpt('--mixes', String(mix)).split(',').map(Number);
// --class-boost skirt=1.5,coat=1.2: those classes' weights times that on top of the class power.
const boost = new Map(strOpt('--class-boost', '').split(',').filter(Boolean).map((e) => {
  const [c, v] = e.split('=');
  if (!(MODEL_CLASSES as readonly string[]).includes(c) || !(Number(v) > 0)) throw new Error(`--class-boost: ${e}`);
  return [c, Number(v)] as const;
}));
// --seeds N: the first stage trained N times with seeds seed, seed + 1, ..., its probabilities averaged.
const seeds = opt('--seeds', 1);
// --bag: the written model averages the trees trained on the whole fit half and on it less each fold.
const bag = args.includes('--bag');
if (boost.size) console.log(`class boost: ${[...boost].map(([c, v]) => `${c} x${v}`).join(', ')}`);

report('rules', (d) => d.rule);
report('region oracle', regionOracle);

t0 = Date.now();
const first = crossFitCached('regions', [...FEATURES], (d) => d.rows, stage1);
// --smooth-grid: the first stage's held-out probabilities spread between like neighbours in other ways.
if (args.includes('--smooth-grid')) {
  for (const passes of [1, 2, 4, 8]) for (const share of [0.5, 0.7, 0.85]) for (const colour of [8, 12, 18]) {
    report(`  smooth ${passes}x${share} dE${colour}`, (d) => classesOf(first.probabilities.get(d)!, d.rows, d.count, d.neighbours, { passes, share, colour }, null, vote), { fitLabel: `fit ${folds}-fold` });
  }
}
// --lower-failures: the fit photos whose held-out skirt and trousers pixels went most to the other (to render).
if (args.includes('--lower-failures')) lowerFailures(run, first.probabilities);
if (args.includes('--confusion')) confusion(run, `fit ${folds}-fold`, first.probabilities);
const net = mlpOn ? crossFitNet() : null;
if (net) {
  report('mlp', (d) => classesOf(net.probabilities.get(d)!, d.rows, d.count, d.neighbours, SMOOTHING, null, vote), { fitLabel: `fit ${folds}-fold` });
  // `+` the arithmetic mean (for comparison), `*` the geometric one the engine takes (learned.ts mixProba).
  for (const m of mixes) report(`trees + mlp ${m}`, (d) => classesOf(mixed(first.probabilities.get(d)!, net.probabilities.get(d)!, m), d.rows, d.count, d.neighbours, SMOOTHING, null, vote), { fitLabel: `fit ${folds}-fold` });
  for (const m of mixes) report(`trees * mlp ${m}`, (d) => classesOf(mixProba(first.probabilities.get(d)!, net.probabilities.get(d)!, m), d.rows, d.count, d.neighbours, SMOOTHING, null, vote), { fitLabel: `fit ${folds}-fold` });
}
let final: ApparelModel = { regions: first.models[0], seeds: first.models.length > 1 ? first.models.slice(1) : null, context: null, bias: null };
// The model holds the perceptron trained on the whole fit half, mixed in at --mix (geometric).
if (net?.model) {
  if (net.model.length !== 1) throw new Error('--mlp-seeds: the engine reads one perceptron');
  final = { ...final, mlp: { net: net.model[0], mix } };
}
// --fold-model N: write the first stage trained without fold N, so quality:apparel renders that fold's photos held out.
const foldModel = opt('--fold-model', -1);
if (foldModel >= 0) {
  const held = trainSeeds(fitPeople.filter((d) => foldOf.get(d) !== foldModel), [...FEATURES], (d) => d.rows, stage1);
  final = { ...final, regions: held[0], seeds: held.length > 1 ? held.slice(1) : null, mlp: mlpOn ? { net: trainNets(fitPeople.filter((d) => foldOf.get(d) !== foldModel))[0], mix } : null };
}
let last = first.probabilities;
if (opt('--stages', 1) >= 2) {
  const context = new Map(people.map((d) => [d, withContext(d.rows, contextRows(d.rows, d.count, d.neighbours, first.probabilities.get(d)!, K), d.count)]));
  const second = crossFit('context', [...CONTEXT_STAGE_FEATURES], (d) => context.get(d)!, stage2);
  final = { ...final, context: second.models[0] };
  last = second.probabilities;
}
if (args.includes('--calibrate') && folds) {
  // Held out as the stages are: offsets fitted on the other folds' probabilities, figures on each fold's.
  const held = new Map<PhotoRows, Uint8Array>();
  for (let f = 0; f < folds; f++) {
    const bias = calibrate(last, (d) => foldOf.get(d) !== f);
    for (const d of fitPeople) if (foldOf.get(d) === f) held.set(d, classesOf(last.get(d)!, d.rows, d.count, d.neighbours, SMOOTHING, bias, vote));
  }
  final = { ...final, bias: calibrate(last, () => true) };
  for (const d of people) if (d.half === 'check') held.set(d, classesOf(last.get(d)!, d.rows, d.count, d.neighbours, SMOOTHING, final.bias, vote));
  report('calibrated', (d) => held.get(d)!, { fitLabel: `fit ${folds}-fold` });
  console.log(`offsets to the log probabilities: ${MODEL_CLASSES.map((c, k) => `${c} ${final.bias![k]}`).join(', ')}`);
}
const json = JSON.stringify(final);
// The committed path (learned.ts) on the model as written: the fit half in-sample, the check half held out.
const written = readApparelModel(JSON.parse(json));
report('written model', (d) => classesOf(predictRegions(written, d.rows, d.count, d.neighbours), d.rows, d.count, d.neighbours, SMOOTHING, written.bias, vote), { fitLabel: 'fit in-sample' });
if (showCheck) confusion(run, 'check half', written);
console.log(`trained in ${((Date.now() - t0) / 1000).toFixed(0)} s (regions ${JSON.stringify(stage1)}${final.context ? `, context ${JSON.stringify(stage2)}` : ''})`);
if (!args.includes('--dry')) {
  writeFileSync(MODEL_FILE, json);
  console.log(`wrote ${path.relative(repoRoot, MODEL_FILE)} (${(json.length / 1024).toFixed(0)} KiB)`);
}

/**
 * One stage trained `folds` times on the other folds (probabilities of each fit photo from the model that did
 * not see it) and once on the whole fit half (probabilities of the check half); figures of both.
 */
function crossFit(name: string, features: string[], rowsOf: (d: PhotoRows) => Float32Array, settings: ReturnType<typeof settingsFor>) {
  const probabilities = new Map<PhotoRows, Float32Array>();
  const started = Date.now();
  const foldOut: BoostedTrees[] = [];
  for (let f = 0; f < folds; f++) {
    const out = trainSeeds(fitPeople.filter((d) => foldOf.get(d) !== f), features, rowsOf, settings);
    foldOut.push(...out);
    const ms = out.map(readModel);
    // --bag: as the written model averages the trees without each fold, fold f's photos are scored by the
    // trees without f and those without f and each other fold.
    if (bag) for (let g = 0; g < folds; g++) if (g !== f) ms.push(...trainSeeds(fitPeople.filter((d) => foldOf.get(d) !== f && foldOf.get(d) !== g), features, rowsOf, settings).map(readModel));
    for (const d of fitPeople) if (foldOf.get(d) === f) probabilities.set(d, averageProba(ms, rowsOf(d), d.count));
  }
  const models = [...trainSeeds(fitPeople, features, rowsOf, settings), ...(bag ? foldOut : [])];
  const read = models.map(readModel);
  for (const d of people) if (d.half === 'check' || !folds) probabilities.set(d, averageProba(read, rowsOf(d), d.count));
  report(name, (d) => classesOf(probabilities.get(d)!, d.rows, d.count, d.neighbours, SMOOTHING, null, vote), { fitLabel: folds ? `fit ${folds}-fold` : 'fit in-sample' });
  console.log(`  (${name}: ${folds + 1} x ${seeds} models in ${((Date.now() - started) / 1000).toFixed(0)} s)`);
  return { models, probabilities };
}

/**
 * crossFit of the first stage, kept in STAGE_CACHE by features, folds and settings: trying settings of the
 * context stage then trains only that.
 */
function crossFitCached(name: string, features: string[], rowsOf: (d: PhotoRows) => Float32Array, settings: ReturnType<typeof settingsFor>) {
  const id = createHash('sha1').update(JSON.stringify([version, features, folds, settings, dropped, [...boost], seeds, data.map((d) => d.rel), ...(augment.length ? [augment, augmentWeight] : []), ...(bag ? ['bag'] : [])])).digest('hex').slice(0, 12);
  const file = path.join(STAGE_CACHE, `${id}.json`);
  if (existsSync(file)) {
    const j = JSON.parse(readFileSync(file, 'utf8'));
    const probabilities = new Map(people.map((d) => [d, Float32Array.from(j.probabilities[d.rel])]));
    report(`${name} (cached)`, (d) => classesOf(probabilities.get(d)!, d.rows, d.count, d.neighbours, SMOOTHING, null, vote), { fitLabel: folds ? `fit ${folds}-fold` : 'fit in-sample' });
    return { models: j.models as BoostedTrees[], probabilities };
  }
  const out = crossFit(name, features, rowsOf, settings);
  mkdirSync(STAGE_CACHE, { recursive: true });
  writeFileSync(file, JSON.stringify({ models: out.models, probabilities: Object.fromEntries([...out.probabilities].map(([d, p]) => [d.rel, Array.from(p)])) }));
  return out;
}

/** `seeds` sets of trees trained alike on `ds`, seeded settings.seed, +1, ... (learned.ts averages their probabilities). */
function trainSeeds(ds: PhotoRows[], features: string[], rowsOf: (d: PhotoRows) => Float32Array, settings: ReturnType<typeof settingsFor>): BoostedTrees[] {
  return Array.from({ length: seeds }, (_, i) => train(ds, features, rowsOf, { ...settings, seed: settings.seed + i }));
}

/**
 * The usable candidate regions of `photos` (and their --augment views) as training rows: label = majority class,
 * weight = labelled pixels × class weight, soft targets = the labelled pixels' shares per class; dropped features 0.
 */
function trainingSet(photos: PhotoRows[], features: string[], rowsOf: (d: PhotoRows) => Float32Array, classPower: number) {
  const W = features.length;
  // With --augment, each photo's views (first-stage features only: a view has no context rows).
  const ds = photos.flatMap((d) => [d, ...(viewsOf.get(d) ?? [])]);
  if (viewsOf.size && rowsOf(photos[0]) !== photos[0].rows) throw new Error('--augment: first stage only');
  let rows = 0;
  for (const d of ds) for (let i = 0; i < d.count; i++) if (usable(d, i)) rows++;
  const X = new Float32Array(rows * W), y = new Uint8Array(rows), w = new Float32Array(rows), soft = new Float32Array(rows * K);
  let at = 0;
  for (const d of ds) {
    const src = rowsOf(d), dw = d.view ? augmentWeight : 1;
    for (let i = 0; i < d.count; i++) {
      if (!usable(d, i)) continue;
      X.set(src.subarray(i * W, i * W + W), at * W);
      let best = 0;
      for (let k = 1; k < K; k++) if (d.inAll[i * SLOTS + k] > d.inAll[i * SLOTS + best]) best = k;
      y[at] = best;
      const n = labelled(d, i);
      w[at] = (n / 70) * dw;
      for (let k = 0; k < K; k++) soft[at * K + k] = d.inAll[i * SLOTS + k] / n;
      at++;
    }
  }
  // Rare classes (hats) weigh more: (most common class's rows / this class's rows) ^ power.
  const counts = MODEL_CLASSES.map((_, k) => y.filter((v) => v === k).length);
  const classWeight = counts.map((c, k) => (Math.max(...counts) / Math.max(1, c)) ** classPower * (boost.get(MODEL_CLASSES[k]) ?? 1));
  for (let r = 0; r < rows; r++) w[r] *= classWeight[y[r]];
  // Dropped features are held constant (the trees cannot use them): by default the absolute colour and place
  // in the frame, which the trees learnt photos by heart with.
  for (const f of dropped) {
    const j = features.indexOf(f);
    for (let r = 0; r < rows; r++) X[r * W + j] = 0;
  }
  return { X, y, w, soft, rows };
}

/** Boosted trees on the usable candidate regions of `ds` (trainingSet). */
function train(photos: PhotoRows[], features: string[], rowsOf: (d: PhotoRows) => Float32Array, settings: ReturnType<typeof settingsFor>): BoostedTrees {
  const { X, y, w, rows } = trainingSet(photos, features, rowsOf, settings.classPower);
  return trainBoostedTrees({ data: X, rows, features, classes: [...MODEL_CLASSES], labels: y, weights: w, ...settings, bins: 64 });
}

/** The perceptron on the same rows, labels and weights as the trees (soft targets unless --mlp-hard); --mlp-seeds N: N of them, seeds seed, seed + 1, ... */
function trainNets(photos: PhotoRows[]): Mlp[] {
  const { X, y, w, soft, rows } = trainingSet(photos, [...FEATURES], (d) => d.rows, stage1.classPower);
  return Array.from({ length: mlpSettings.nets }, (_, i) => trainMlp({ data: X, rows, features: [...FEATURES], classes: [...MODEL_CLASSES], labels: y, weights: w, ...(mlpSettings.soft ? { targets: soft } : {}), ...mlpSettings, seed: mlpSettings.seed + i }));
}

/** The mean of the networks' class probabilities. */
function netsProba(nets: Mlp[], rows: Float32Array, count: number) {
  return meanProba(nets.map((m) => predictMlp(m, rows, count)));
}

/**
 * The perceptron trained `folds` times on the other folds (held-out probabilities of each fit photo) and, when
 * the check half or the model is wanted, once on the whole fit half; kept in MLP_CACHE by its settings.
 */
function crossFitNet() {
  const id = createHash('sha1').update(JSON.stringify([version, folds, mlpSettings.nets === 1 ? { ...mlpSettings, nets: undefined } : mlpSettings, stage1.classPower, dropped, [...boost], data.map((d) => d.rel), augment, augmentWeight])).digest('hex').slice(0, 12);
  const file = path.join(MLP_CACHE, `${id}.json`);
  const whole = showCheck || !args.includes('--dry');
  const started = Date.now();
  let model: Mlp[] | null = null;
  const probabilities = new Map<PhotoRows, Float32Array>();
  if (existsSync(file)) {
    const j = JSON.parse(readFileSync(file, 'utf8'));
    for (const d of people) if (j.probabilities[d.rel]) probabilities.set(d, Float32Array.from(j.probabilities[d.rel]));
    model = j.model;
  }
  if (!probabilities.size) {
    for (let f = 0; f < folds; f++) {
      const ms = trainNets(fitPeople.filter((d) => foldOf.get(d) !== f)).map(readMlp);
      for (const d of fitPeople) if (foldOf.get(d) === f) probabilities.set(d, netsProba(ms, d.rows, d.count));
      console.log(`  (mlp fold ${f} in ${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }
  }
  if (whole && !model) model = trainNets(fitPeople);
  if (model) { const ms = model.map(readMlp); for (const d of people) if (d.half === 'check') probabilities.set(d, netsProba(ms, d.rows, d.count)); }
  mkdirSync(MLP_CACHE, { recursive: true });
  writeFileSync(file, JSON.stringify({ model, probabilities: Object.fromEntries([...probabilities].filter(([d]) => d.half === 'fit').map(([d, p]) => [d.rel, Array.from(p)])) }));
  console.log(`  (mlp ${JSON.stringify(mlpSettings)}: ${folds}${model ? ' + 1' : ''} networks in ${((Date.now() - started) / 1000).toFixed(0)} s)`);
  return { model, probabilities };
}

/** Trees' and perceptron's probabilities averaged, `mix` the perceptron's share. */
function mixed(trees: Float32Array, net: Float32Array, mix: number) {
  return trees.map((v, i) => (1 - mix) * v + mix * net[i]);
}

/** Per-half IoU at work size of a classing of every photo's candidate regions (non-candidates: none). */
function report(name: string, classify: (d: PhotoRows) => Uint8Array, { fitLabel = 'fit' } = {}) {
  const line: string[] = [];
  for (const h of (showCheck ? ['fit', 'check'] : ['fit']) as Half[]) {
    const { per, mean, all } = figures(data.filter((e) => e.half === h), classify);
    line.push(`${h === 'fit' ? fitLabel : h}: ${garmentClasses.map((c, k) => `${c} ${per[k].toFixed(2)}`).join(' ')} | mean ${mean.toFixed(3)} all ${all.toFixed(3)}`);
  }
  console.log(`${name.padEnd(18)} ${line.join('   ')}`);
}

/**
 * Per-class offsets to the log probabilities that best serve the mean IoU and all-clothing IoU of the fit
 * half's held-out probabilities (coordinate ascent): the most probable class is not the IoU-best choice for
 * rare classes (skirts, hats), whose few pixels the trees under-call.
 */
function calibrate(probabilities: Map<PhotoRows, Float32Array>, use: (d: PhotoRows) => boolean): number[] {
  const ds = data.filter((d) => d.half === 'fit' && use(d));
  const smoothed = new Map(ds.filter((d) => d.person).map((d) => [d, smooth(probabilities.get(d)!, K, d.rows, FEATURES.length, d.neighbours)]));
  const bias = new Array<number>(K).fill(0);
  const score = () => { const f = figures(ds, (d) => classesOf(smoothed.get(d)!, d.rows, d.count, undefined, undefined, bias)); return f.mean + f.all; };
  let best = score();
  for (let sweep = 0; sweep < 3; sweep++) {
    for (let k = 1; k < K; k++) {
      let kept = bias[k];
      for (let step = -4; step <= 8; step++) {
        bias[k] = step / 4;
        const sc = score();
        if (sc > best + 1e-6) { best = sc; kept = bias[k]; }
      }
      bias[k] = kept;
    }
  }
  return bias;
}
