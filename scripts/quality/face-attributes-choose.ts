/**
 * Chooses age, gender and emotion configurations from the raw-output cache (scripts/quality/face-attributes-cache.ts)
 * in seconds: single models and fixed-size ensembles (probabilities averaged), per input preparation, crop
 * and view (plain or mirror-averaged). Ranked on the fit half only (errors, then log loss); the check half
 * is printed beside each, never used to rank. Counts are given: a half holds about 30 or 18 chips.
 *
 *   tsx scripts/quality/face-attributes-choose.ts [/tmp/faces8-attr-cache.json] [--top 15]
 */
import { readFileSync } from 'node:fs';
import { AGE_CAP, type AgeDecode, decodeAge, type RawAttributes, shiftMale } from '../../engine/for-scripts.ts';
import type { ChipRaw } from './face-attributes-cache.ts';
import { EMOTION_NAMES, type Half } from '../datasets/face-attributes-split.ts';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a)) ?? '/tmp/faces8-attr-cache.json';
const top = Number(args[args.indexOf('--top') + 1]) || 15;
const cache = JSON.parse(readFileSync(file, 'utf8')) as Record<string, ChipRaw>;
const chips = Object.values(cache);
const ag = chips.filter((c) => c.item.set === 'age_gender'), em = chips.filter((c) => c.item.set === 'emotion');
console.log(`cache: ${ag.length} age/gender chips (fit ${ag.filter((c) => c.item.half === 'fit').length}), ${em.length} emotion crops (fit ${em.filter((c) => c.item.half === 'fit').length})`);

type View = 'plain' | 'mirror' | 'flip';
const view = (c: ChipRaw, key: string, v: View): RawAttributes | undefined => {
  const r = c.raw[key];
  if (!r) return undefined;
  if (v === 'plain') return r.plain;
  if (v === 'mirror') return r.mirror;
  const a = r.plain, b = r.mirror, o: RawAttributes = {};
  if (a.male !== undefined) o.male = (a.male + b.male!) / 2;
  if (a.age !== undefined) o.age = (a.age + b.age!) / 2;
  if (a.ageDist) o.ageDist = a.ageDist.map((x, i) => (x + b.ageDist![i]) / 2);
  if (a.emotion) o.emotion = a.emotion.map((x, i) => (x + b.emotion![i]) / 2);
  return o;
};
const clampP = (p: number) => Math.min(1 - 1e-6, Math.max(1e-6, p));
const keysOf = (list: ChipRaw[]) => Object.keys(list[0]?.raw ?? {}).filter((k) => list.every((c) => c.raw[k]));
const parts = (k: string) => { const [spec, prep, crop] = k.split('|'); return { spec, prep, crop }; };
const halves: Half[] = ['fit', 'check'];
const pct = (k: number, n: number) => `${((100 * k) / n).toFixed(1)}% (${k}/${n})`;

// ---- gender
interface GCfg { members: string[]; view: View; maleAt: number }
function gender(cfg: GCfg, half: Half) {
  const list = ag.filter((c) => c.item.half === half);
  let ok = 0, nll = 0;
  const wrong: string[] = [];
  for (const c of list) {
    const ps = cfg.members.map((m) => view(c, m, cfg.view)!.male!);
    const pm = shiftMale(ps.reduce((a, b) => a + b, 0) / ps.length, cfg.maleAt);
    if ((pm >= 0.5 ? 0 : 1) === c.item.gender) ok++; else wrong.push(`${c.item.gender ? 'F' : 'M'}${c.item.age}`);
    nll -= Math.log(clampP(c.item.gender === 0 ? pm : 1 - pm));
  }
  return { ok, n: list.length, nll: nll / list.length, wrong };
}
const gKeys = keysOf(ag).filter((k) => !parts(k).spec.startsWith('ssrnet-age'));
const gBase: GCfg = { members: ['faceres-deep|none|x1.6'], view: 'flip', maleAt: 0.6 };
const gCands: GCfg[] = [];
const byPrepCrop = new Map<string, string[]>();
for (const k of gKeys) { const p = parts(k); byPrepCrop.set(`${p.prep}|${p.crop}`, [...(byPrepCrop.get(`${p.prep}|${p.crop}`) ?? []), k]); }
for (const ks of byPrepCrop.values()) {
  const sets: string[][] = ks.map((k) => [k]);
  for (let i = 0; i < ks.length; i++) for (let j = i + 1; j < ks.length; j++) {
    sets.push([ks[i], ks[j]]);
    for (let l = j + 1; l < ks.length; l++) sets.push([ks[i], ks[j], ks[l]]);
  }
  for (const members of sets) for (const v of ['plain', 'flip'] as View[]) for (const maleAt of [0.5, 0.6]) gCands.push({ members, view: v, maleAt });
}
const gName = (c: GCfg) => `${c.members.join(' + ')} ${c.view} male>=${c.maleAt}`;
const rank = <C, S extends { ok: number; nll: number; n: number }>(cands: C[], f: (c: C, h: Half) => S) =>
  cands.map((c) => ({ c, fit: f(c, 'fit') })).sort((a, b) => b.fit.ok - a.fit.ok || a.fit.nll - b.fit.nll);
{
  console.log(`\n== gender: ${gCands.length} configurations, ranked on fit (check beside) ==`);
  const b = { fit: gender(gBase, 'fit'), check: gender(gBase, 'check') };
  console.log(`now: ${gName(gBase)}: fit ${pct(b.fit.ok, b.fit.n)}, check ${pct(b.check.ok, b.check.n)}; misses fit ${b.fit.wrong.join(' ')} | check ${b.check.wrong.join(' ')}`);
  for (const r of rank(gCands, gender).slice(0, top)) {
    const ch = gender(r.c, 'check');
    console.log(`  fit ${pct(r.fit.ok, r.fit.n).padEnd(16)} nll ${r.fit.nll.toFixed(3)}  check ${pct(ch.ok, ch.n).padEnd(16)} nll ${ch.nll.toFixed(3)}  ${gName(r.c)}  [check misses ${ch.wrong.join(' ')}]`);
  }
  // Singles only, the best of each model (the family view).
  console.log('  best single configuration per model (fit-ranked):');
  const seen = new Set<string>();
  for (const r of rank(gCands.filter((c) => c.members.length === 1), gender)) {
    const s = parts(r.c.members[0]).spec;
    if (seen.has(s)) continue;
    seen.add(s);
    const ch = gender(r.c, 'check');
    console.log(`    ${s.padEnd(20)} fit ${pct(r.fit.ok, r.fit.n).padEnd(16)} check ${pct(ch.ok, ch.n).padEnd(16)} ${gName(r.c)}`);
  }
}

// ---- emotion
interface ECfg { members: string[]; view: View }
function emotion(cfg: ECfg, half: Half) {
  const list = em.filter((c) => c.item.half === half);
  let ok = 0, nll = 0;
  const perClass = EMOTION_NAMES.map(() => [0, 0]);
  for (const c of list) {
    const ps = cfg.members.map((m) => view(c, m, cfg.view)!.emotion!);
    const p = ps[0].map((_, i) => ps.reduce((s, q) => s + q[i], 0) / ps.length);
    const v = p.indexOf(Math.max(...p));
    perClass[c.item.emotion!][1]++;
    if (v === c.item.emotion) { ok++; perClass[v][0]++; }
    nll -= Math.log(clampP(p[c.item.emotion!]));
  }
  return { ok, n: list.length, nll: nll / list.length, perClass };
}
const eKeys = keysOf(em);
const eBase: ECfg = { members: ['emotion|none|x1.2/edge'], view: 'flip' };
const eCands: ECfg[] = [];
for (const k of eKeys) for (const v of ['plain', 'flip'] as View[]) eCands.push({ members: [k], view: v });
// Ensembles across preparations and crops of the one model (the same network seeing the face differently).
for (let i = 0; i < eKeys.length; i++) for (let j = i + 1; j < eKeys.length; j++) eCands.push({ members: [eKeys[i], eKeys[j]], view: 'flip' });
const eName = (c: ECfg) => `${c.members.join(' + ')} ${c.view}`;
{
  console.log(`\n== emotion: ${eCands.length} configurations, ranked on fit (check beside) ==`);
  const cls = (r: ReturnType<typeof emotion>) => r.perClass.map(([k, n], i) => `${EMOTION_NAMES[i].slice(0, 3)} ${k}/${n}`).join(' ');
  const b = { fit: emotion(eBase, 'fit'), check: emotion(eBase, 'check') };
  console.log(`now: ${eName(eBase)}: fit ${pct(b.fit.ok, b.fit.n)}, check ${pct(b.check.ok, b.check.n)}  [check ${cls(b.check)}]`);
  for (const r of rank(eCands, emotion).slice(0, top)) {
    const ch = emotion(r.c, 'check');
    console.log(`  fit ${pct(r.fit.ok, r.fit.n).padEnd(16)} nll ${r.fit.nll.toFixed(3)}  check ${pct(ch.ok, ch.n).padEnd(16)} nll ${ch.nll.toFixed(3)}  ${eName(r.c)}`);
  }
}

// ---- age
interface ACfg { members: string[]; view: View; decode: AgeDecode }
function age(cfg: ACfg, half: Half) {
  const list = ag.filter((c) => c.item.half === half);
  let abs = 0;
  for (const c of list) {
    const ys = cfg.members.map((m) => decodeAge(view(c, m, cfg.view)!, cfg.decode)!);
    const y = Math.max(0, Math.min(AGE_CAP, Math.round(ys.reduce((a, b) => a + b, 0) / ys.length)));
    abs += Math.abs(y - Math.min(AGE_CAP, c.item.age!));
  }
  return { mae: abs / list.length, n: list.length };
}
{
  const aKeys = keysOf(ag).filter((k) => /faceres|gear|ssrnet-age/.test(parts(k).spec));
  const cands: ACfg[] = [];
  for (const k of aKeys) for (const v of ['plain', 'flip'] as View[]) for (const d of ['expect', 'median', 'hse', 'human'] as AgeDecode[]) cands.push({ members: [k], view: v, decode: d });
  const aName = (c: ACfg) => `${c.members.join(' + ')} ${c.view} ${c.decode}`;
  const base: ACfg = { members: ['faceres-deep-caffe|none|x1.6'], view: 'flip', decode: 'human' };
  console.log(`\n== age: ${cands.length} configurations, ranked on fit MAE ==`);
  console.log(`now: ${aName(base)}: fit ${age(base, 'fit').mae.toFixed(2)}, check ${age(base, 'check').mae.toFixed(2)}`);
  for (const r of cands.map((c) => ({ c, fit: age(c, 'fit') })).sort((a, b) => a.fit.mae - b.fit.mae).slice(0, top)) {
    console.log(`  fit ${r.fit.mae.toFixed(2)}  check ${age(r.c, 'check').mae.toFixed(2)}  ${aName(r.c)}`);
  }
}
