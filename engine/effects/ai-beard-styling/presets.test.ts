/** The preset shapes on the canonical face: every contract name defined once, each a real area, no two alike. */
import { describe, expect, it } from 'vitest';
import { beardPresets } from '../../../contract/endpoints/ai-beard-styling.ts';
import { atlas } from '../../vision/regions/atlas.ts';
import { ATLAS } from '../../vision/regions/uv-map.ts';
import { BEARD_PRESETS } from './presets.ts';
import { canonicalFlow, presetAtlas } from './shape.ts';

/** Atlas pixels per canonical unit squared: an area in face widths squared. */
const UNIT2 = (ATLAS / 1.5) ** 2;
const area = (a: Float32Array) => a.reduce((s, v) => s + v, 0) / UNIT2;
function iou(a: Float32Array, b: Float32Array) {
  let i = 0, u = 0;
  for (let k = 0; k < a.length; k++) { i += Math.min(a[k], b[k]); u += Math.max(a[k], b[k]); }
  return i / u;
}

describe('beard presets', () => {
  it('defines exactly the contract\'s 24 presets', () => {
    expect(BEARD_PRESETS.map((p) => p.name).sort()).toEqual([...beardPresets].sort());
    expect(BEARD_PRESETS).toHaveLength(24);
  });

  const atlases = new Map(BEARD_PRESETS.map((p) => [p.name, presetAtlas(p)]));

  it('gives every preset an area that fits its kind', () => {
    for (const p of BEARD_PRESETS) {
      const a = area(atlases.get(p.name)!);
      const [lo, hi] = { beard: [0.015, 0.5], moustache: [0.008, 0.06], sides: [0.05, 0.25], patch: [0.001, 0.01] }[p.kind];
      expect(a, p.name).toBeGreaterThan(lo);
      expect(a, p.name).toBeLessThan(hi);
    }
  });

  it('draws no two presets alike: shapes overlap less than 90 %, or the hair differs', () => {
    const names = BEARD_PRESETS.map((p) => p.name);
    for (let i = 0; i < names.length; i++) {
      for (let j = i + 1; j < names.length; j++) {
        const o = iou(atlases.get(names[i])!, atlases.get(names[j])!);
        if (o < 0.9) continue;
        const [a, b] = [BEARD_PRESETS[i], BEARD_PRESETS[j]];
        const hair = (p: typeof a) => p.parts.map((q) => `${q.flow}:${q.length}:${q.layers}`).join();
        expect(hair(a), `${a.name} vs ${b.name} (IoU ${o.toFixed(2)})`).not.toBe(hair(b));
      }
    }
  });

  // 40 % on the canonical face: a turned or laughing face loses part of its chin to the silhouette and to the
  // lips, and a tuft that covered a third of it there covered less than the 30 % quality:beard-styling asks.
  it('covers at least 40 % of the chin for beard styles, and leaves it bare for moustaches and mutton chops', () => {
    const chin = atlas('chin'), chinArea = chin.reduce((s, v) => s + v, 0);
    for (const p of BEARD_PRESETS) {
      const a = atlases.get(p.name)!;
      let on = 0;
      for (let k = 0; k < a.length; k++) on += Math.min(a[k], chin[k]);
      const share = on / chinArea;
      if (p.kind === 'beard') expect(share, p.name).toBeGreaterThan(0.4);
      else expect(share, p.name).toBeLessThan(0.3);
    }
  });

  it('grows hair down on the chin, outward and down on the cheeks, sideways on the moustache', () => {
    const [cu, cv] = canonicalFlow('beard', 0.5, 0.9);
    expect(Math.abs(cu)).toBeLessThan(1e-9); expect(cv).toBeGreaterThan(0);
    const right = canonicalFlow('beard', 0.15, 0.75), left = canonicalFlow('beard', 0.85, 0.75);
    expect(right[0]).toBeLessThan(0); expect(left[0]).toBeGreaterThan(0); expect(right[1]).toBeGreaterThan(0);
    const m = canonicalFlow('moustache', 0.42, 0.64);
    expect(m[0]).toBeLessThan(0); expect(Math.abs(m[0])).toBeGreaterThan(0.5 * m[1]);
    expect(canonicalFlow('handlebar', 0.28, 0.64)[1]).toBeLessThan(0); // the tips turn up
  });
});
