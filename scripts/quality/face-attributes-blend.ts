/**
 * face-api's age-gender and expression nets against, and blended with, the shipped Human-model choice
 * (FaceRes-deep for age and gender, the mini-Xception for emotion) on the shared chips' fixed split
 * (face-attributes-raw.ts prints it). Every blend weight, threshold and correction is chosen on the fit half
 * only; both halves are printed, with the age MAE per decade (ages capped at 65, as the API reports them).
 *
 *   npx tsx scripts/quality/face-attributes-blend.ts [--cache /tmp/face-blend.json]
 *
 * --cache: the models' outputs are read from (or, when missing, written to) this file.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import {
  AGE_CAP, ATTRIBUTE_MODELS, ATTRIBUTE_PIPELINE as PIPELINE, type Border, decodeAge, faceAttributes, faceRoi, imageAttributes,
  runAttributeModel, wholeRoi
} from '../../engine/for-scripts.ts';

/** The Human models' own best (face-attributes.ts's choice on the same fit half), what shipped before face-api. */
const HUMAN = {
  age: { model: 'faceres-deep-caffe', scale: 1.6, border: 'black' as Border, decode: 'human' as const },
  gender: { model: 'faceres-deep', scale: 1.6, border: 'black' as Border, maleAt: 0.6 },
  emotion: { model: 'emotion', scale: 1.2, border: 'edge' as Border },
};
import { findChipFace } from '../datasets/face-attributes-chip.ts';
import { EMOTION_NAMES, type Half, type Item } from '../datasets/face-attributes-split.ts';
import { getHuman, items, load, nets } from './face-attributes-raw.ts';

const args = process.argv.slice(2);
const cachePath = ((i) => (i >= 0 ? args[i + 1] : undefined))(args.indexOf('--cache'));

const SCALES = [1.0, 1.2, 1.4, 1.6];
const BORDERS: Border[] = ['black', 'edge'];
const variants = SCALES.flatMap((s) => BORDERS.map((b) => `x${s.toFixed(1)} ${b}`));

interface Raw { age?: number; male?: number; emotion?: number[] }
/** Per chip: Human's choice as shipped (age decoded, P(male), emotion scores) and face-api's per variant. */
interface Chip { human: Raw; faceApi: Record<string, Raw> }

async function measure(): Promise<Record<string, Chip>> {
  const h = await getHuman();
  const out: Record<string, Chip> = {};
  for (const item of items) {
    const image = await load(item.rel);
    const { face } = await findChipFace(h, image);
    const roi = (s: number) => (face ? faceRoi(face, s) : wholeRoi(image));
    const human: Raw = {};
    const faceApi: Record<string, Raw> = {};
    if (item.set === 'age_gender') {
      const [a] = await runAttributeModel(h, ATTRIBUTE_MODELS[HUMAN.age.model], image, [roi(HUMAN.age.scale)], true, nets, HUMAN.age.border);
      const [g] = await runAttributeModel(h, ATTRIBUTE_MODELS[HUMAN.gender.model], image, [roi(HUMAN.gender.scale)], true, nets, HUMAN.gender.border);
      human.age = decodeAge(a, HUMAN.age.decode);
      human.male = g.male;
    } else {
      const [e] = await runAttributeModel(h, ATTRIBUTE_MODELS[HUMAN.emotion.model], image, [roi(HUMAN.emotion.scale)], true, nets, HUMAN.emotion.border);
      human.emotion = e.emotion;
    }
    const spec = ATTRIBUTE_MODELS[item.set === 'age_gender' ? 'faceapi-age-gender' : 'faceapi-expression'];
    for (const border of BORDERS) {
      const r = await runAttributeModel(h, spec, image, SCALES.map(roi), true, nets, border);
      SCALES.forEach((s, i) => { faceApi[`x${s.toFixed(1)} ${border}`] = r[i]; });
    }
    out[item.rel] = { human, faceApi };
  }
  return out;
}

const chips: Record<string, Chip> = cachePath && existsSync(cachePath) ? JSON.parse(readFileSync(cachePath, 'utf8')) : await measure();
if (cachePath && !existsSync(cachePath)) writeFileSync(cachePath, JSON.stringify(chips));

const half = (set: Item['set'], h: Half) => items.filter((i) => i.set === set && i.half === h);
const api = (years: number) => Math.max(0, Math.min(AGE_CAP, Math.round(years)));
const truthAge = (i: Item) => Math.min(AGE_CAP, i.age!);
const pct = (k: number, n: number) => `${((100 * k) / n).toFixed(1)}% (${k}/${n})`;

// ---- Age: a weighted mean of the two, then a stretch above a knee (seniors are pulled toward the middle).
interface AgeRule { variant: string; w: number; knee: number; stretch: number }
const ageOf = (c: Chip, r: AgeRule) => {
  const m = r.w * c.human.age! + (1 - r.w) * c.faceApi[r.variant].age!;
  return m > r.knee ? m + r.stretch * (m - r.knee) : m;
};
const ageMae = (list: Item[], r: AgeRule) => list.reduce((s, i) => s + Math.abs(api(ageOf(chips[i.rel], r)) - truthAge(i)), 0) / list.length;
const ageRules: AgeRule[] = variants.flatMap((variant) => [0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1].flatMap((w) =>
  [{ variant, w, knee: 100, stretch: 0 }, ...[35, 40, 45, 50].flatMap((knee) => [0.2, 0.4, 0.6, 0.8].map((stretch) => ({ variant, w, knee, stretch })))]));
const bestBy = <T>(list: T[], score: (x: T) => number) => list.reduce((b, x) => (score(x) < score(b) ? x : b));
const fitAg = half('age_gender', 'fit'), checkAg = half('age_gender', 'check');
const ruleName = (r: AgeRule) => `${r.w} human + ${(1 - r.w).toFixed(1)} face-api ${r.variant}${r.stretch ? `, +${r.stretch} x (age - ${r.knee}) above ${r.knee}` : ''}`;
const decades = (list: Item[], r: AgeRule) => {
  const bands = [[0, 9], [10, 19], [20, 29], [30, 39], [40, 49], [50, 59], [60, 200]];
  return bands.map(([lo, hi]) => {
    const l = list.filter((i) => i.age! >= lo && i.age! <= hi);
    return l.length ? `${lo >= 60 ? '60+' : `${lo}s`} ${ageMae(l, r).toFixed(1)} (${l.length})` : '';
  }).filter(Boolean).join(', ');
};
console.log('\n== Age (MAE in years, capped at 65; per decade: MAE (chips)) ==');
const ageCandidates: [string, AgeRule][] = [
  ['Human alone (shipped before)', { variant: variants[0], w: 1, knee: 100, stretch: 0 }],
  ['face-api alone, best variant on fit', bestBy(ageRules.filter((r) => r.w === 0 && r.stretch === 0), (r) => ageMae(fitAg, r))],
  ['mean, best weight on fit', bestBy(ageRules.filter((r) => r.stretch === 0), (r) => ageMae(fitAg, r))],
  ['mean + senior stretch, best on fit', bestBy(ageRules, (r) => ageMae(fitAg, r))],
];
for (const [name, r] of ageCandidates) {
  console.log(`  ${name}: ${ruleName(r)}`);
  for (const [h, list] of [['fit', fitAg], ['check', checkAg]] as const) console.log(`    ${h.padEnd(5)} MAE ${ageMae(list, r).toFixed(2)}; ${decades(list, r)}`);
}

// ---- Gender: the mean P(male) with a weight, male at a threshold.
interface GenderRule { variant: string; w: number; at: number }
const maleOf = (c: Chip, r: GenderRule) => r.w * c.human.male! + (1 - r.w) * c.faceApi[r.variant].male!;
const genderRight = (list: Item[], r: GenderRule) => list.filter((i) => (maleOf(chips[i.rel], r) >= r.at ? 0 : 1) === i.gender).length;
const genderRules: GenderRule[] = variants.flatMap((variant) => [0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1].flatMap((w) => [0.4, 0.5, 0.6].map((at) => ({ variant, w, at }))));
// Ties on the fit half go to the threshold nearest 0.5 and the weight nearest an even mean (fewer free choices).
const genderScore = (r: GenderRule) => -genderRight(fitAg, r) + 0.01 * Math.abs(r.at - 0.5) + 0.001 * Math.abs(r.w - 0.5);
console.log('\n== Gender (right of the chips) ==');
const genderCandidates: [string, GenderRule][] = [
  ['Human alone (shipped before)', { variant: variants[0], w: 1, at: HUMAN.gender.maleAt }],
  ['face-api alone, best on fit', bestBy(genderRules.filter((r) => r.w === 0), genderScore)],
  ['mean, best on fit', bestBy(genderRules, genderScore)],
];
for (const [name, r] of genderCandidates) {
  console.log(`  ${name}: ${r.w} human + ${(1 - r.w).toFixed(1)} face-api ${r.variant}, male at ${r.at}: fit ${pct(genderRight(fitAg, r), fitAg.length)}, check ${pct(genderRight(checkAg, r), checkAg.length)}`);
}

// ---- Emotion: the mean of the seven scores with a weight.
interface EmotionRule { variant: string; w: number }
const emotionOf = (c: Chip, r: EmotionRule) => {
  const s = c.human.emotion!.map((h, k) => r.w * h + (1 - r.w) * c.faceApi[r.variant].emotion![k]);
  return s.indexOf(Math.max(...s));
};
const fitEm = half('emotion', 'fit'), checkEm = half('emotion', 'check');
const emotionRight = (list: Item[], r: EmotionRule) => list.filter((i) => emotionOf(chips[i.rel], r) === i.emotion).length;
const emotionRules: EmotionRule[] = variants.flatMap((variant) => [0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1].map((w) => ({ variant, w })));
const emotionScore = (r: EmotionRule) => -emotionRight(fitEm, r) + 0.001 * Math.abs(r.w - 0.5);
const confusion = (list: Item[], r: EmotionRule) => EMOTION_NAMES.map((n, c) => {
  const l = list.filter((i) => i.emotion === c);
  return `${n} ${l.filter((i) => emotionOf(chips[i.rel], r) === c).length}/${l.length}`;
}).join(', ');
console.log('\n== Emotion (right of the crops; per class right/total) ==');
const emotionCandidates: [string, EmotionRule][] = [
  ['Human alone (shipped before)', { variant: variants[0], w: 1 }],
  ['face-api alone, best on fit', bestBy(emotionRules.filter((r) => r.w === 0), emotionScore)],
  ['mean, best on fit', bestBy(emotionRules, emotionScore)],
];
for (const [name, r] of emotionCandidates) {
  console.log(`  ${name}: ${r.w} human + ${(1 - r.w).toFixed(1)} face-api ${r.variant}: fit ${pct(emotionRight(fitEm, r), fitEm.length)}, check ${pct(emotionRight(checkEm, r), checkEm.length)}`);
  for (const [h, list] of [['fit', fitEm], ['check', checkEm]] as const) console.log(`    ${h.padEnd(5)} ${confusion(list, r)}`);
}

// ---- The module as shipped now (PIPELINE), end to end: it must reproduce the chosen rows above.
const partsName = (parts: typeof PIPELINE.age.parts) => parts.map((p) => `${p.weight} ${p.models.join('+')} x${p.scale.toFixed(1)}${p.flip ? ' flip' : ''} ${p.border}`).join(' + ');
console.log(`\n== The module (vision/attributes/pipeline.ts PIPELINE: age ${partsName(PIPELINE.age.parts)}; gender ${partsName(PIPELINE.gender.parts)}, male at ${PIPELINE.gender.maleAt}; emotion ${partsName(PIPELINE.emotion.parts)}) ==`);
const h = await getHuman();
for (const hf of ['fit', 'check'] as const) {
  let ae = 0, g = 0, nAg = 0, e = 0, nEm = 0, neutral = 0, nNeutral = 0;
  const senior: number[] = [];
  for (const item of items.filter((i) => i.half === hf)) {
    const image = await load(item.rel);
    const { face } = await findChipFace(h, image);
    const a = face ? (await faceAttributes(h, image, [face], nets))[0] : await imageAttributes(h, image, nets);
    if (item.set === 'age_gender') {
      nAg++; ae += Math.abs(a.age.value - truthAge(item)); if (a.gender.value === item.gender) g++;
      if (item.age! > 60) senior.push(Math.abs(a.age.value - truthAge(item)));
    } else {
      nEm++; if (a.emotion.value === item.emotion) e++;
      if (item.emotion === 0) { nNeutral++; if (a.emotion.value === 0) neutral++; }
    }
  }
  const seniorMae = senior.reduce((s, v) => s + v, 0) / Math.max(1, senior.length);
  console.log(`  ${hf.padEnd(5)} age MAE ${(ae / nAg).toFixed(2)} (target <= 6), over 60 ${seniorMae.toFixed(2)} (${senior.length} chips; target <= 10); gender ${pct(g, nAg)} (target >= 92 %); emotion ${pct(e, nEm)} (target >= 55 %), neutral read as neutral ${neutral}/${nNeutral}`);
}
