/** The perceptron's trainer and forward pass on a drawn problem: three classes by position, a noise feature, a feature often MISSING. */
import { describe, expect, it } from 'vitest';
import {
  FEATURE_MISSING as MISSING, type Mlp, mlpInputs, predictMlp, readMlp, seededRandom
} from '../../engine/for-scripts.ts';
import { trainMlp } from './mlp.ts';

/**
 * Points in the square: class 0 inside the circle of radius 0.3 round the centre (not a split on one axis), class 1
 * outside it on the left, class 2 outside on the right. `flag` is MISSING for half the points outside the circle and
 * 5 elsewhere: its missingness alone says "not class 0" for those.
 */
function problem(rows: number, seed: number) {
  const random = seededRandom(seed);
  const data = new Float32Array(rows * 4), labels = new Uint8Array(rows);
  for (let r = 0; r < rows; r++) {
    const x = random(), y = random();
    labels[r] = Math.hypot(x - 0.5, y - 0.5) < 0.3 ? 0 : x < 0.5 ? 1 : 2;
    data.set([x * 100, y, random(), labels[r] > 0 && random() < 0.5 ? MISSING : 5], r * 4);
  }
  return { data, labels, rows };
}

const train = (seed: number, o: Partial<Parameters<typeof trainMlp>[0]> = {}) => {
  const p = problem(3000, 1);
  return trainMlp({
    ...p, features: ['x', 'y', 'noise', 'flag'], classes: ['middle', 'left', 'right'], weights: new Float32Array(p.rows).fill(1),
    hidden: [16], activation: 'relu', epochs: 60, batch: 64, rate: 0.01, decay: 1e-4, dropout: 0, seed, ...o,
  });
};

function accuracy(m: Mlp) {
  const test = problem(1000, 2);
  const p = predictMlp(readMlp(JSON.parse(JSON.stringify(m)) as Mlp), test.data, test.rows);
  let right = 0;
  for (let r = 0; r < test.rows; r++) {
    const row = [...p.subarray(r * 3, r * 3 + 3)];
    expect(row.reduce((t, v) => t + v, 0)).toBeCloseTo(1, 5);
    if (row.indexOf(Math.max(...row)) === test.labels[r]) right++;
  }
  return right / test.rows;
}

describe('perceptron', () => {
  it('learns a curved boundary and predicts held-out points, with ReLU or tanh, dropout or soft targets', () => {
    expect(accuracy(train(7))).toBeGreaterThan(0.95);
    expect(accuracy(train(7, { activation: 'tanh', dropout: 0.1 }))).toBeGreaterThan(0.93);
    const p = problem(3000, 1), targets = new Float32Array(p.rows * 3);
    for (let r = 0; r < p.rows; r++) { targets[r * 3 + p.labels[r]] = 0.8; targets[r * 3 + ((p.labels[r] + 1) % 3)] = 0.2; }
    expect(accuracy(train(7, { targets }))).toBeGreaterThan(0.93);
  });

  it('is reproducible: one seed gives one network, another seed another', () => {
    const o = { epochs: 3 };
    expect(JSON.stringify(train(7, o))).toBe(JSON.stringify(train(7, o)));
    expect(JSON.stringify(train(8, o))).not.toBe(JSON.stringify(train(7, o)));
  });

  it('standardises clipped inputs and tells MISSING apart by an indicator', () => {
    const m = train(7, { epochs: 1 });
    expect(m.missing).toEqual([3]);
    expect(m.scale[3]).toBe(0); // 5 wherever present: nothing to scale
    expect(m.hi[0]).toBeGreaterThan(98);
    const x = mlpInputs(m, [1e6, 0.5, 0.5, MISSING], 1);
    expect(x[0]).toBeCloseTo((m.hi[0] - m.mean[0]) * m.scale[0], 5);
    expect([x[3], x[4]]).toEqual([0, 1]);
    expect(mlpInputs(m, [50, 0.5, 0.5, 5], 1)[4]).toBe(0);
  });

  it('refuses a network of the wrong shape and rows of the wrong width', () => {
    const m = train(7, { epochs: 1 });
    expect(() => readMlp({ ...m, scale: [1] })).toThrow(/per feature/);
    expect(() => readMlp({ ...m, layers: [m.layers[1]] })).toThrow(/inputs/);
    expect(() => readMlp({ ...m, layers: [m.layers[0]] })).toThrow(/one output per class/);
    expect(() => predictMlp(readMlp(m), new Float32Array(5), 2)).toThrow(/5 numbers for 2 rows of 4 features/);
  });
});
