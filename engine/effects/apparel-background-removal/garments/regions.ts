/** Region-graph helpers: flood fills and connected groups over superpixel neighbours. */
import type { Scene } from './scene.ts';

/** Regions reachable from `seeds` through neighbours that pass `ok` (seeds included when they pass). */
export function flood(s: Scene, seeds: number[], ok: (r: number) => boolean): Set<number> {
  const out = new Set<number>(seeds.filter(ok));
  const stack = [...out];
  while (stack.length) {
    const r = stack.pop()!;
    for (const q of s.neighbours[r]) if (!out.has(q) && ok(q)) { out.add(q); stack.push(q); }
  }
  return out;
}

/** Connected groups of a region set, largest (by area) first. */
export function groups(s: Scene, set: number[]): number[][] {
  const inSet = new Set(set), seen = new Set<number>(), out: number[][] = [];
  for (const r of set) {
    if (seen.has(r)) continue;
    const g = [...flood(s, [r], (q) => inSet.has(q))];
    for (const q of g) seen.add(q);
    out.push(g);
  }
  const area = (g: number[]) => g.reduce((t, q) => t + s.regions[q].n, 0);
  return out.sort((a, b) => area(b) - area(a));
}
