/**
 * Auto-context rows: each group averages the first model's probabilities over the right regions (below,
 * above, across the body, the whole person), by area; a photo without a body frame has only the groups
 * that need none.
 */
import { describe, expect, it } from 'vitest';
import { FEATURES } from './apparel-features.ts';
import { MISSING } from './scene.ts';
import { CONTEXT_GROUPS, contextFeatureNames, contextRows } from './context.ts';

const K = 2;
const j = (name: string) => FEATURES.indexOf(name);

/** Feature rows with only the columns the context reads: colour, place on the body, area, foreground. */
function rows(regions: { along: number; across: number; area: number; L?: number }[], framed = true) {
  const out = new Float32Array(regions.length * FEATURES.length);
  regions.forEach((r, i) => {
    const at = i * FEATURES.length;
    out[at + j('L')] = r.L ?? 50;
    out[at + j('along')] = framed ? r.along : MISSING;
    out[at + j('across')] = framed ? r.across : MISSING;
    out[at + j('area')] = r.area;
    out[at + j('mainForeground')] = 1;
  });
  return out;
}

const group = (out: Float32Array, i: number, g: (typeof CONTEXT_GROUPS)[number]) => {
  const at = i * CONTEXT_GROUPS.length * K + CONTEXT_GROUPS.indexOf(g) * K;
  return [...out.subarray(at, at + K)];
};

describe('context rows', () => {
  // A torso region (0), the left leg below it (1), the right leg (2): class 0 likely up top, class 1 on the legs.
  const regions = [{ along: 0.5, across: 0, area: 2 }, { along: 0.9, across: 0.3, area: 1 }, { along: 0.9, across: -0.3, area: 1 }];
  const p = Float32Array.from([0.9, 0.1, 0.2, 0.8, 0.4, 0.6]);
  const neighbours = [[1, 2], [0, 2], [0, 1]];

  it('names a feature per group and class', () => {
    expect(contextFeatureNames(['a', 'b'])).toEqual(CONTEXT_GROUPS.flatMap((g) => [`${g}:a`, `${g}:b`]));
  });

  it('averages what lies below, above, across and over the whole person', () => {
    const out = contextRows(rows(regions), 3, neighbours, p, K);
    expect(group(out, 0, 'self')).toEqual([expect.closeTo(0.9, 5), expect.closeTo(0.1, 5)]);
    // Below the torso: both legs, equal areas.
    expect(group(out, 0, 'below')).toEqual([expect.closeTo(0.3, 5), expect.closeTo(0.7, 5)]);
    expect(group(out, 0, 'above')).toEqual([MISSING, MISSING]);
    expect(group(out, 1, 'above')).toEqual([expect.closeTo(0.9, 5), expect.closeTo(0.1, 5)]);
    // The other leg.
    expect(group(out, 1, 'mirror')).toEqual([expect.closeTo(0.4, 5), expect.closeTo(0.6, 5)]);
    expect(group(out, 2, 'mirror')).toEqual([expect.closeTo(0.2, 5), expect.closeTo(0.8, 5)]);
    // The person, by area: (2 × 0.9 + 0.2 + 0.4) / 4.
    expect(group(out, 1, 'person')[0]).toBeCloseTo(0.6, 5);
    // Neighbours of like colour (all the same here): the mean of the other two.
    expect(group(out, 0, 'like')[0]).toBeCloseTo(0.3, 5);
  });

  it('without a body frame keeps only self, like and person', () => {
    const out = contextRows(rows(regions, false), 3, neighbours, p, K);
    expect(group(out, 0, 'person')[0]).toBeCloseTo(0.6, 5);
    for (const g of ['band', 'above', 'below', 'mirror'] as const) expect(group(out, 0, g)).toEqual([MISSING, MISSING]);
  });
});
