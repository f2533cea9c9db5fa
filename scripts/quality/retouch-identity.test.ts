/** The before / after face matching of the identity measure (retouch-identity.ts). */
import { describe, expect, it } from 'vitest';
import { compareFaces, matchFaces, type EngineDescribed } from './retouch-identity.ts';

const left = [100, 100, 200, 220], right = [600, 120, 180, 200];
/** The same box moved a few pixels, as a detector finds a face again after a retouch. */
const nudged = (b: number[], d = 6) => [b[0] + d, b[1] - d, b[2] + d, b[3]];
const face = (box: number[], gender: 'male' | 'female', male: number, embedding: number[]): EngineDescribed =>
  ({ box: box as EngineDescribed['box'], gender, male, embedding });
const cosine = (x: number[], y: number[]) => x.reduce((s, v, i) => s + v * y[i], 0) / (Math.hypot(...x) * Math.hypot(...y));

describe('matchFaces', () => {
  it('matches two faces listed in the other order after', () => {
    expect(matchFaces([left, right], [nudged(right), nudged(left)])).toEqual([1, 0]);
  });

  it('counts a face missing after as lost (-1), and one that moved too far too', () => {
    expect(matchFaces([left, right], [nudged(right)])).toEqual([-1, 0]);
    expect(matchFaces([left], [[left[0] + 150, left[1], left[2], left[3]]])).toEqual([-1]);
  });

  it('gives each face after to one face before only: the better overlap', () => {
    const a = [100, 100, 200, 200], b = [140, 100, 200, 200];
    expect(matchFaces([a, b], [nudged(b, 2)])).toEqual([-1, 0]);
  });
});

describe('compareFaces', () => {
  it('pairs swapped faces by box, not by order, and reports a gender change with its p(male)', () => {
    const before = [face(left, 'male', 0.62, [1, 0, 0]), face(right, 'female', 0.1, [0, 1, 0])];
    const after = [face(nudged(right), 'female', 0.12, [0, 1, 0]), face(nudged(left), 'female', 0.57, [1, 0.1, 0])];
    const id = compareFaces(before, after, cosine);
    expect(id).toMatchObject({ found: 2, total: 2, gender: 1 });
    expect(id.changes).toEqual([{ box: left, maleBefore: 0.62, maleAfter: 0.57 }]);
    expect(id.sims[0]).toBeCloseTo(cosine([1, 0, 0], [1, 0.1, 0]), 6);
    expect(id.sims[1]).toBe(1);
  });

  it('counts a face missing after as lost, with no similarity for it', () => {
    const before = [face(left, 'male', 0.9, [1, 0, 0]), face(right, 'female', 0.1, [0, 1, 0])];
    const id = compareFaces(before, [face(nudged(right), 'female', 0.1, [0, 0.9, 0.1])], cosine);
    expect(id).toMatchObject({ found: 1, total: 2, gender: 1 });
    expect(id.sims).toHaveLength(1);
    expect(id.minSim).toBeCloseTo(cosine([0, 1, 0], [0, 0.9, 0.1]), 6);
  });
});
