import { describe, expect, it } from 'vitest';
import { logisticMale } from './attributes.ts';
import { PIPELINE, type GenderLogistic } from './pipeline.ts';

describe('gender as a logistic model over the nets (PIPELINE.gender.logistic)', () => {
  const lg: GenderLogistic = { intercept: -0.5, weights: [1, 0.5], child: { below: 13, intercept: 0.8, weights: [-0.2, 0.1] } };
  const logit = (p: number) => Math.log(p / (1 - p));

  it('is the sigmoid of the intercept and the weighted logits of each net', () => {
    const z = -0.5 + logit(0.7) + 0.5 * logit(0.4);
    expect(logisticMale(lg, [0.7, 0.4], 30)).toBeCloseTo(1 / (1 + Math.exp(-z)), 12);
  });

  it("adds the child's own intercept and slopes only for a face estimated under `below` years", () => {
    const adult = logisticMale(lg, [0.7, 0.4], 13), child = logisticMale(lg, [0.7, 0.4], 12.9);
    const extra = 0.8 - 0.2 * logit(0.7) + 0.1 * logit(0.4);
    expect(logit(child) - logit(adult)).toBeCloseTo(extra, 9);
    expect(logisticMale(lg, [0.7, 0.4], 40)).toBeCloseTo(adult, 12);
  });

  it('holds the nets\' certainty at the ends without infinities', () => {
    for (const p of [0, 1]) expect(Number.isFinite(logisticMale(lg, [p, p], 5))).toBe(true);
  });

  it('ships with one weight per gender part, and reads more male as face-api reads more male', () => {
    const shipped = PIPELINE.gender.logistic!;
    expect(shipped.weights).toHaveLength(PIPELINE.gender.parts.length);
    expect(shipped.child.weights).toHaveLength(PIPELINE.gender.parts.length);
    for (const years of [5, 40]) {
      const ps = [0.1, 0.3, 0.5, 0.7, 0.9].map((p) => logisticMale(shipped, [p, 0.5], years));
      for (let i = 1; i < ps.length; i++) expect(ps[i]).toBeGreaterThan(ps[i - 1]);
    }
  });
});
