import { describe, expect, it } from 'vitest';
import { lensColour, readLens, type Lens } from './lens.ts';

const lens = (name?: string, desc?: string) => readLens(name, desc) as Lens;

describe('readLens', () => {
  it('reads a natural light brown when neither field is given', () => {
    expect(lens()).toMatchObject({ from: 'natural light brown', hex: '#a0713f', strength: 0.6 });
    expect(lens('  ', '')).toMatchObject({ from: 'natural light brown' });
  });

  it('reads eye-colour words, the longest phrase first', () => {
    expect(lens('Ocean Blue').from).toBe('ocean blue');
    expect(lens('Blue').from).toBe('blue');
    expect(lens(undefined, 'subtle hazel with a dark limbal ring')).toMatchObject({ from: 'hazel', strength: 0.6, limbalRing: 0.85 });
    expect(lens('Hazel-Green').from).toBe('hazel green');
  });

  it('reads hex codes and CSS colours', () => {
    expect(lens('#3A7BD5')).toMatchObject({ hex: '#3a7bd5', from: '#3A7BD5' });
    expect(lens('custom #abc tint').hex).toBe('#aabbcc');
    expect(lens(undefined, 'rgb(20, 120, 60)').hex).toBe('#14783c');
  });

  it('falls back to the named-colour list for names that are not eye words', () => {
    expect(lensColour('Midnight Moss')).toBeDefined();
    expect(lens('Cornflower Blue').from).toBe('cornflower blue');
  });

  it('reads strength and the ring from the description', () => {
    expect(lens('green', 'vivid').strength).toBe(0.9);
    expect(lens('green').strength).toBe(0.78);
    expect(lens('grey', 'without a limbal ring').limbalRing).toBe(0);
    expect(lens('grey').limbalRing).toBe(0.35);
  });

  it('says what was wrong when no colour can be read', () => {
    const r = readLens('make it pretty');
    expect(r).toHaveProperty('error');
    expect((r as { error: string }).error).toMatch(/no lens colour found in "make it pretty".*ocean blue/);
  });
});
