/**
 * Bags from the object detector's boxes (handbag, backpack, suitcase): inside a box, the regions off the
 * body's lines give the bag's colour, and the bag is what has that colour there, grown from them (further
 * off the body's lines), with what its outline encloses.
 */
import { segmentDistance, type Pt } from './body-frame.ts';
import type { Geometry } from './body-garments.ts';
import type { DetectedObject } from './human-run.ts';
import { deltaE } from './lab.ts';
import { flood, groups } from './regions.ts';
import { medianLab, type Scene } from './scene.ts';

const BAG_LABELS = new Set(['handbag', 'backpack', 'suitcase']);
const MIN_SCORE = 0.15;
const BAG_DE = 16;
const BAG_DE_OFF = 32;

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
    const bag = flood(s, seeds, (q) => candidates.has(q) && inBox(q) && deltaE(s.regions[q].lab, c) < BAG_DE);
    // Leather shading, prints and sheen spread a bag's colour: off the body's lines, the bag carries on
    // through regions much further from its median colour than clothing in front of the body may.
    for (const r of flood(s, [...bag], (q) => bag.has(q) || (candidates.has(q) && inBox(q) && off(q) && deltaE(s.regions[q].lab, c) < BAG_DE_OFF))) bag.add(r);
    for (const r of enclosedHoles(s, bag, inside, candidates)) bag.add(r);
    for (const r of bag) out.add(r);
  }
  return [...out];
}

/**
 * Pieces of `within` (regions in a bag's box) that meet the bag and otherwise only the background, never
 * other clothing (highlights, a buckle, a print, a notch of the outline): the colour flood stops at them,
 * but what the bag's outline encloses is the bag.
 */
export function enclosedHoles(s: Scene, bag: Set<number>, within: number[], candidates: Set<number>): number[] {
  if (bag.size === 0) return [];
  const rest = within.filter((r) => !bag.has(r));
  const out: number[] = [];
  for (const piece of groups(s, rest)) {
    const inPiece = new Set(piece);
    let onBag = 0, clothing = 0;
    for (const r of piece) for (const q of s.neighbours[r]) {
      if (inPiece.has(q)) continue;
      if (bag.has(q)) onBag++;
      else if (candidates.has(q)) clothing++;
    }
    if (onBag > 0 && clothing === 0) out.push(...piece);
  }
  return out;
}
