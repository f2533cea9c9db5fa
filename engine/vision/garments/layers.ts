/**
 * Which garment an upper or lower part is. Upper: an outer layer (coat, jacket, blazer, cardigan) shows
 * as one colour on the arms and the torso's sides with another in a strip down the front, or as an upper
 * garment that hangs well below the hips; otherwise it is a top. Lower: trousers and shorts part into two
 * tubes at the hem, a skirt stays one piece.
 */
import { segmentDistance } from './body-frame.ts';
import type { Geometry } from './body-garments.ts';
import { deltaE } from './lab.ts';
import { areaOf, medianLab, type Scene } from './scene.ts';

const LAYER_DE = 14;

/** Splits the upper regions into coat and tops region lists. */
export function splitUpper(s: Scene, upper: number[], g: Geometry): { coat: number[]; tops: number[] } {
  if (upper.length === 0) return { coat: [], tops: [] };
  const R = (r: number) => s.regions[r];
  const centre = upper.filter((r) => Math.abs(R(r).x - g.cx) < g.sw * 0.16 && R(r).y > g.ys - 0.05 * g.t && R(r).y < g.ys + 0.5 * g.t);
  const arms = upper.filter((r) => Math.min(...g.arms.map(([a, b]) => segmentDistance(R(r), a, b).d)) < g.t * 0.12 && Math.abs(R(r).x - g.cx) > g.sw * 0.45);
  const sides = upper.filter((r) => Math.abs(R(r).x - g.cx) > g.sw * 0.3 && Math.abs(R(r).x - g.cx) < g.sw * 0.6 && R(r).y > g.ys + 0.2 * g.t && R(r).y < g.yh);
  const cin = medianLab(s, centre);
  const cout = medianLab(s, arms.length >= 2 ? arms : sides);
  const total = areaOf(s, upper);
  if (cin && cout && deltaE(cin, cout) > LAYER_DE) {
    const inner: number[] = [], outer: number[] = [];
    for (const r of upper) {
      const near = Math.abs(R(r).x - g.cx) < g.sw * 0.35 && R(r).y < g.yh + 0.2 * g.thigh ? 4 : 0;
      (deltaE(R(r).lab, cin) - near < deltaE(R(r).lab, cout) ? inner : outer).push(r);
    }
    const share = areaOf(s, inner) / total;
    const outerOnSides = areaOf(s, outer.filter((r) => Math.abs(R(r).x - g.cx) > g.sw * 0.3)) / Math.max(1, areaOf(s, outer));
    if (share > 0.04 && share < 0.6 && outerOnSides > 0.5) return { coat: outer, tops: inner };
  }
  // One garment: a coat when a good part of it hangs below the hips.
  const below = areaOf(s, upper.filter((r) => R(r).y > g.yh + 0.4 * g.thigh));
  return below / total > 0.1 ? { coat: upper, tops: [] } : { coat: [], tops: upper };
}

/** 'pants' or 'skirt' for the lower garment's pixels (mask at scene size). */
export function lowerKind(mask: Uint8Array, width: number, height: number, g: Geometry): 'pants' | 'skirt' {
  let top = -1, bottom = -1;
  for (let y = 0; y < height; y++) {
    let any = false;
    for (let x = 0; x < width; x++) if (mask[y * width + x]) { any = true; break; }
    if (any) { if (top < 0) top = y; bottom = y; }
  }
  if (top < 0) return 'pants';
  // The hem: the last fifth of the garment's height, but not above the crotch.
  const from = Math.max(Math.round(bottom - (bottom - top) * 0.2), Math.round(g.yh + 0.3 * g.thigh));
  let split = 0, rows = 0;
  const minGap = Math.max(2, Math.round(g.sw * 0.04));
  for (let y = from; y <= bottom; y++) {
    const runs: [number, number][] = [];
    let start = -1;
    for (let x = 0; x <= width; x++) {
      const on = x < width && mask[y * width + x] === 1;
      if (on && start < 0) start = x;
      if (!on && start >= 0) { if (x - start >= minGap) runs.push([start, x]); start = -1; }
    }
    if (runs.length === 0) continue;
    rows++;
    // Two tubes: two sizeable runs with a real gap between them near the body's middle.
    const big = runs.filter(([a, b]) => b - a >= g.sw * 0.08);
    if (big.length >= 2) split++;
  }
  if (rows === 0) return 'pants';
  const reachesAnkles = bottom > g.ya - 0.35 * g.shin;
  const ratio = split / rows;
  return ratio > 0.4 || (reachesAnkles && ratio > 0.15) ? 'pants' : 'skirt';
}
