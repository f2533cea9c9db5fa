/** Reading the models' outputs: the mean of several models or views, and an age from a distribution. */
import type { RawAttributes } from './attribute-specs.ts';

const mean = (a?: number, b?: number) => (a === undefined || b === undefined ? a : (a + b) / 2);
const meanArr = (a?: number[], b?: number[]) => (a && b ? a.map((v, i) => (v + b[i]) / 2) : a);

/** The mean of several models' (or views') outputs, field by field (fields all of them have). */
export function meanAttributes(list: RawAttributes[]): RawAttributes {
  if (list.length === 1) return list[0];
  const n = list.length;
  const r: RawAttributes = {};
  const arr = (key: 'ageDist' | 'emotion') => (list.every((x) => x[key]) ? list[0][key]!.map((_, i) => list.reduce((s, x) => s + x[key]![i], 0) / n) : undefined);
  const num = (key: 'age' | 'male') => (list.every((x) => x[key] !== undefined) ? list.reduce((s, x) => s + x[key]!, 0) / n : undefined);
  const ageDist = arr('ageDist'), emotion = arr('emotion'), age = num('age'), male = num('male');
  if (ageDist) r.ageDist = ageDist;
  if (emotion) r.emotion = emotion;
  if (age !== undefined) r.age = age;
  if (male !== undefined) r.male = male;
  return r;
}

/** The mean of two views' outputs. */
export function averageViews(a: RawAttributes, b: RawAttributes): RawAttributes {
  const r: RawAttributes = {};
  if (a.ageDist) r.ageDist = meanArr(a.ageDist, b.ageDist);
  if (a.age !== undefined) r.age = mean(a.age, b.age);
  if (a.male !== undefined) r.male = mean(a.male, b.male);
  if (a.emotion) r.emotion = meanArr(a.emotion, b.emotion);
  return r;
}

/** Centres of gear's 7 age ranges (<20, 21-25, 26-30, 31-40, 41-50, 51-60, >60), human's weights. */
export const GEAR_AGES = [15, 23, 28, 35.5, 45.5, 55.5, 65];

/**
 * Ways to read an age from a distribution (or regression):
 * expect: the distribution's mean (faceres: bin i = i years; gear: GEAR_AGES);
 * median: its median;
 * hse: 1 + the top two bins weighted (HSE facial_analysis.py's own decode);
 * human: human's decode (faceres: argmax nudged toward the larger neighbour; gear: best bin pulled toward each other by weight).
 */
export type AgeDecode = 'expect' | 'median' | 'hse' | 'human';

export function decodeAge(raw: RawAttributes, how: AgeDecode): number | undefined {
  if (raw.age !== undefined) return raw.age;
  const p = raw.ageDist;
  if (!p) return undefined;
  const ages = p.length === 7 ? GEAR_AGES : p.map((_, i) => i);
  if (how === 'expect') return p.reduce((s, v, i) => s + v * ages[i], 0) / p.reduce((s, v) => s + v, 0);
  if (how === 'median') {
    const total = p.reduce((s, v) => s + v, 0);
    let acc = 0;
    for (let i = 0; i < p.length; i++) {
      if (acc + p[i] >= total / 2) return p.length === 7 ? ages[i] : i + (total / 2 - acc) / p[i] - 0.5;
      acc += p[i];
    }
    return ages[ages.length - 1];
  }
  if (how === 'hse') {
    const [a, b] = p.map((v, i) => [v, i]).sort((x, y) => y[0] - x[0]);
    return (p.length === 7 ? 0 : 1) + (ages[a[1]] * a[0] + ages[b[1]] * b[0]) / (a[0] + b[0]);
  }
  // human
  if (p.length === 7) {
    const sorted = p.map((v, i) => [ages[i], v]).sort((x, y) => y[1] - x[1]);
    let age = sorted[0][0];
    for (let i = 1; i < sorted.length; i++) age += sorted[i][1] * (sorted[i][0] - age);
    return age;
  }
  const i = p.indexOf(Math.max(...p));
  const prev = p[i - 1] ?? 0, next = p[i + 1] ?? 0;
  return (prev > next ? 10 * i - 100 * prev : 10 * i + 100 * next) / 10;
}
