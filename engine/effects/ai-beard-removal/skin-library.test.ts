/**
 * The clean-shaven skin library as stored (skin/, built by scripts/skin-library.ts): every exemplar decodes
 * at its frame size, holds a sizeable area of sure skin, and its band there is in units of its own spread
 * (median |band| about 1/1.4826), its stubble-dark tail clipped; the pick follows the face's size.
 */
import { describe, expect, it } from 'vitest';
import { loadSkinLibrary, pickSkin, skinFrameSize } from './skin-library.ts';

describe('skin library', () => {
  it('loads every exemplar with sure skin and a unit band', async () => {
    const lib = await loadSkinLibrary();
    expect(lib.length).toBeGreaterThanOrEqual(3);
    for (const ex of lib) {
      expect([ex.w, ex.h]).toEqual(Object.values(skinFrameSize(ex.res)));
      const v: number[] = [];
      let min = 0;
      for (let i = 0; i < ex.w * ex.h; i++) if (ex.sure[i] >= 1) { v.push(Math.abs(ex.band[0][i])); min = Math.min(min, ex.band[0][i]); }
      // The chin, jaw and neck: a good part of the frame.
      expect(v.length / (ex.w * ex.h)).toBeGreaterThan(0.1);
      v.sort((a, b) => a - b);
      expect(v[v.length >> 1] * 1.4826).toBeCloseTo(1, 1);
      expect(min).toBeGreaterThanOrEqual(-1.5);
    }
  });

  it('picks the least sharp exemplar at least as sharp as the face, else the sharpest', async () => {
    const lib = await loadSkinLibrary();
    const res = lib.map((e) => e.res).sort((a, b) => a - b);
    expect(pickSkin(lib, res[0] - 10).res).toBe(res[0]);
    expect(pickSkin(lib, res[0] + 1).res).toBe(res[1]);
    expect(pickSkin(lib, res[res.length - 1] * 2).res).toBe(res[res.length - 1]);
  });
});
