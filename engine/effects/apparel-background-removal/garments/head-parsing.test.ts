/**
 * The face parser's classes at the garment parse's work size: the work pixels' centres in image pixels,
 * and the planes of the largest faces only.
 */
import { describe, expect, it } from 'vitest';
import { workLattice } from './head-parsing.ts';

describe('head parsing at work size', () => {
  it('samples each work pixel at its centre in image pixels, inside the image', () => {
    const at = workLattice({ width: 1000, height: 500 }, 512, 256);
    expect(at.cols.length).toBe(512);
    expect(at.rows.length).toBe(256);
    expect(at.cols[0]).toBe(0);
    expect(at.cols[1]).toBe(2);
    expect(at.cols[511]).toBe(999);
    expect(at.rows[128]).toBe(250); // centre 128.5 x 500/256 = 250.98: the image pixel holding it
    for (let i = 1; i < at.cols.length; i++) expect(at.cols[i]).toBeGreaterThanOrEqual(at.cols[i - 1]);
  });

  it('keeps a small image at its own size', () => {
    const at = workLattice({ width: 300, height: 200 }, 300, 200);
    expect([...at.cols]).toEqual([...Array(300).keys()]);
    expect([...at.rows]).toEqual([...Array(200).keys()]);
  });
});
