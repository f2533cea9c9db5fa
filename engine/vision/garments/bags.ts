/**
 * Bags from the object detector's boxes (handbag, backpack, suitcase): inside a box, the regions off the
 * body's lines give the bag's colour, and the bag is what has that colour there, grown from them.
 */
import { segmentDistance, type Pt } from './body-frame.ts';
import type { Geometry } from './body-garments.ts';
import type { DetectedObject } from './human-run.ts';
import { deltaE } from './lab.ts';
import { flood } from './regions.ts';
import { medianLab, type Scene } from './scene.ts';

const BAG_LABELS = new Set(['handbag', 'backpack', 'suitcase']);
const MIN_SCORE = 0.15;
const BAG_DE = 16;

/** Regions (among `candidates`) that make up detected bags. */
export function detectedBags(s: Scene, candidates: Set<number>, objects: DetectedObject[], g: Geometry | null): number[] {
  const out = new Set<number>();
  const lines: [Pt, Pt][] = g ? [...g.arms, ...g.legs, [{ x: g.cx, y: g.ys }, { x: g.cx, y: g.yh }]] : [];
  for (const o of objects) {
    if (!BAG_LABELS.has(o.label) || o.score < MIN_SCORE) continue;
    const { x, y, width: w, height: h } = o.box;
    const inBox = (r: number) => { const p = s.regions[r]; return p.x >= x && p.x <= x + w && p.y >= y && p.y <= y + h; };
    const inside = [...candidates].filter(inBox);
    if (inside.length === 0) continue;
    const off = (r: number) => !g || Math.min(...lines.map(([a, b]) => segmentDistance(s.regions[r], a, b).d)) > g.sw * 0.22;
    const core = inside.filter((r) => off(r) && Math.abs(s.regions[r].x - (x + w / 2)) < w * 0.35 && Math.abs(s.regions[r].y - (y + h / 2)) < h * 0.35);
    const seeds = core.length ? core : inside.filter(off);
    const c = medianLab(s, seeds);
    if (!c) continue;
    for (const r of flood(s, seeds, (q) => candidates.has(q) && inBox(q) && deltaE(s.regions[q].lab, c) < BAG_DE)) out.add(r);
  }
  return [...out];
}
