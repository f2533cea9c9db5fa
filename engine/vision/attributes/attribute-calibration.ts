/**
 * What the attribute probabilities mean, shared by faceAttributes and the quality script that measures them.
 *
 * Gender and emotion: the model's probability of the class it reports (softmax / sigmoid), optionally
 * temperature-scaled. Age: the probability, under the model's age distribution, that the true age lies
 * within AGE_WINDOW years of the reported value (for the capped value AGE_CAP: that it is at least
 * AGE_CAP - AGE_WINDOW).
 */
import type { RawAttributes } from './attribute-specs.ts';

/** The API reports ages as integers up to this value, which means "this age or older". */
export const AGE_CAP = 65;
/** Half-width (years) of the age window whose probability is reported. */
export const AGE_WINDOW = 5;

/** p_i^(1/T), renormalised: T > 1 softens an overconfident distribution, T < 1 sharpens it. */
export function temperatureScale(p: readonly number[], T: number): number[] {
  const logs = p.map((v) => Math.log(Math.max(v, 1e-12)) / T);
  const max = Math.max(...logs);
  const e = logs.map((v) => Math.exp(v - max));
  const sum = e.reduce((s, v) => s + v, 0);
  return e.map((v) => v / sum);
}

/** P(male) with the decision point moved from 0.5 to `at` (a shift of the logit), so that 0.5 is the boundary again. */
export function shiftMale(p: number, at: number): number {
  if (at === 0.5) return p;
  const q = Math.min(1 - 1e-6, Math.max(1e-6, p));
  return 1 / (1 + Math.exp(-(Math.log(q / (1 - q)) - Math.log(at / (1 - at)))));
}

/** Gear's seven age ranges as [from, to) years. */
const GEAR_RANGES: [number, number][] = [[0, 21], [21, 26], [26, 31], [31, 41], [41, 51], [51, 61], [61, 100]];

/**
 * Probability that the true age is within AGE_WINDOW of `value` (or at least AGE_CAP - AGE_WINDOW when
 * value is AGE_CAP), from the model's age distribution scaled by temperature T. `offset`: the age of
 * bin 0 for one-year bins (faceres: 0 as human reads it, 1 as HSE's own code does). Undefined for a
 * model that gives no distribution.
 */
export function ageProbability(raw: RawAttributes, value: number, offset = 0, T = 1): number | undefined {
  if (!raw.ageDist) return undefined;
  const p = temperatureScale(raw.ageDist, T);
  const lo = value >= AGE_CAP ? AGE_CAP - AGE_WINDOW : value - AGE_WINDOW;
  const hi = value >= AGE_CAP ? Infinity : value + AGE_WINDOW;
  if (p.length === GEAR_RANGES.length) {
    // Spread each range's mass evenly over its years.
    return p.reduce((s, v, i) => {
      const [a, b] = GEAR_RANGES[i];
      const overlap = Math.max(0, Math.min(b, hi + 1) - Math.max(a, lo));
      return s + (v * overlap) / (b - a);
    }, 0);
  }
  return p.reduce((s, v, i) => (i + offset >= lo && i + offset <= hi ? s + v : s), 0);
}
