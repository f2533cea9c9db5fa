/** The boosted-trees trainer and predictor on a drawn problem: three classes by position, with noise. */
import { describe, expect, it } from 'vitest';
import { type BoostedTrees, predictProba, readModel, seededRandom, treeValue } from '../../engine/for-scripts.ts';
import { trainBoostedTrees } from './boosted-trees.ts';

/** Points in the square: class 0 left of x = 0.4, class 1 right and low, class 2 right and high; a noise feature. */
function problem(rows: number, seed: number) {
  const random = seededRandom(seed);
  const data = new Float32Array(rows * 3), labels = new Uint8Array(rows);
  for (let r = 0; r < rows; r++) {
    const x = random(), y = random();
    data.set([x, y, random()], r * 3);
    labels[r] = x < 0.4 ? 0 : y < 0.5 ? 1 : 2;
  }
  return { data, labels, rows };
}

const train = (seed: number) => {
  const p = problem(3000, 1);
  return trainBoostedTrees({
    ...p, features: ['x', 'y', 'noise'], classes: ['left', 'low', 'high'], weights: new Float32Array(p.rows).fill(1),
    rounds: 30, depth: 3, rate: 0.3, lambda: 1, minHessian: 1, rowShare: 0.8, featureShare: 1, seed, bins: 32,
  });
};

describe('boosted trees', () => {
  it('learns the classes and predicts held-out points', () => {
    const m = readModel(JSON.parse(JSON.stringify(train(7))) as BoostedTrees);
    const test = problem(1000, 2);
    const p = predictProba(m, test.data, test.rows);
    let right = 0;
    for (let r = 0; r < test.rows; r++) {
      const row = [...p.subarray(r * 3, r * 3 + 3)];
      expect(row.reduce((t, v) => t + v, 0)).toBeCloseTo(1, 5);
      if (row.indexOf(Math.max(...row)) === test.labels[r]) right++;
    }
    expect(right / test.rows).toBeGreaterThan(0.97);
  });

  it('is reproducible: one seed gives one model, another seed another', () => {
    expect(JSON.stringify(train(7))).toBe(JSON.stringify(train(7)));
    expect(JSON.stringify(train(8))).not.toBe(JSON.stringify(train(7)));
  });

  it('walks a tree: <= threshold goes left, feature -1 always left', () => {
    const t = { feature: [0, -1, 1], threshold: [0.5, 0, 2], value: [1, 2, 3, 4] };
    expect(treeValue(t, 2, [0.5, 9])).toBe(1);
    expect(treeValue(t, 2, [0.6, 2])).toBe(3);
    expect(treeValue(t, 2, [0.6, 2.1])).toBe(4);
  });

  it('refuses a model of the wrong shape and rows of the wrong width', () => {
    const m = train(7);
    expect(() => readModel({ ...m, base: [0] })).toThrow(/base/);
    expect(() => readModel({ ...m, depth: 4 })).toThrow(/depth 4/);
    expect(() => predictProba(readModel(m), new Float32Array(5), 2)).toThrow(/5 numbers for 2 rows of 3 features/);
  });
});
