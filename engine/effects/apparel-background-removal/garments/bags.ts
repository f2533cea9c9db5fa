/**
 * Bags from the object detector's boxes (handbag, backpack, suitcase): inside a box, the regions off the
 * body's lines give the bag's colour, and the bag is what has that colour there, grown from them (further
 * off the body's lines), with what its outline encloses. A confident box counts anywhere; a faint one
 * only where a bag hangs (tall, beside the body, reaching well below the hips).
 */
import { labDistance } from '../../../image/colour.ts';
import { segmentDistance, type Pt } from './body-frame.ts';
import type { Geometry } from './body-garments.ts';
import type { DetectedObject } from './human-run.ts';
import { flood, groups } from './regions.ts';
import { areaOf, L, medianLab, type Scene } from './scene.ts';
import { BAGS } from './tuning.ts';

export const BAG_LABELS = new Set(['handbag', 'backpack', 'suitcase']);

/**
 * A faint box shaped like a bag hanging from a hand or a shoulder: at least 0.8 torso tall, its centre
 * beside the body (half a shoulder width off the body's middle) and its bottom half a torso below the
 * hips. Hands, sleeves and the body's own sides give faint boxes too, but those end at the wrists or lie
 * over the body.
 */
export function hangingBag(box: DetectedObject['box'], g: Geometry): boolean {
  const { x0: x, y0: y, w, h } = box;
  return h >= g.t * BAGS.hanging.tall && Math.abs(x + w / 2 - g.cx) >= g.sw * BAGS.hanging.beside && y + h >= g.yh + g.t * BAGS.hanging.below;
}

/**
 * The detections to look for bags in: confident bag boxes, and faint ones hanging beside the body that
 * do not overlap a confident one (a second, looser box of the same bag: its strap, the coat beside it).
 */
export function bagBoxes(objects: DetectedObject[], g: Geometry | null): DetectedObject[] {
  const bags = objects.filter((o) => BAG_LABELS.has(o.label));
  const sure = bags.filter((o) => o.score >= BAGS.minScore);
  const faint = g ? bags.filter((o) => o.score < BAGS.minScore && o.score >= BAGS.hangingScore && hangingBag(o.box, g) && sure.every((b) => overlap(o.box, b.box) < BAGS.sameBag)) : [];
  return [...sure, ...faint];
}

/** Intersection of two boxes over the smaller one's area. */
export function overlap(a: DetectedObject['box'], b: DetectedObject['box']): number {
  const w = Math.min(a.x0 + a.w, b.x0 + b.w) - Math.max(a.x0, b.x0), h = Math.min(a.y0 + a.h, b.y0 + b.h) - Math.max(a.y0, b.y0);
  return w > 0 && h > 0 ? (w * h) / Math.max(1e-6, Math.min(a.w * a.h, b.w * b.h)) : 0;
}

/** Regions (among `candidates`) that make up detected bags. */
export function detectedBags(s: Scene, candidates: Set<number>, objects: DetectedObject[], g: Geometry | null): number[] {
  const out = new Set<number>();
  const lines: [Pt, Pt][] = g ? [...g.arms, ...g.legs, [{ x: g.cx, y: g.ys }, { x: g.cx, y: g.yh }]] : [];
  for (const o of bagBoxes(objects, g)) {
    const { x0: x, y0: y, w, h } = o.box;
    const inBox = (r: number) => { const p = s.regions[r]; return p.x >= x && p.x <= x + w && p.y >= y && p.y <= y + h; };
    const inside = [...candidates].filter(inBox);
    if (inside.length === 0) continue;
    const off = (r: number) => !g || Math.min(...lines.map(([a, b]) => segmentDistance(s.regions[r], a, b).d)) > g.sw * BAGS.offLines;
    const core = inside.filter((r) => off(r) && Math.abs(s.regions[r].x - (x + w / 2)) < w * BAGS.core && Math.abs(s.regions[r].y - (y + h / 2)) < h * BAGS.core);
    const seeds = core.length ? core : inside.filter(off);
    const c = medianLab(s, seeds);
    if (!c) continue;
    const bag = flood(s, seeds, (q) => candidates.has(q) && inBox(q) && labDistance(s.regions[q].lab, c) < BAGS.bagDE);
    // Leather shading, prints and sheen spread a bag's colour: off the body's lines, the bag carries on
    // through regions much further from its median colour than clothing in front of the body may.
    for (const r of flood(s, [...bag], (q) => bag.has(q) || (candidates.has(q) && inBox(q) && off(q) && labDistance(s.regions[q].lab, c) < BAGS.offDE))) bag.add(r);
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

/**
 * Bags the subject matte left out (a dark bag against a dark street, a clutch in a hand): in a bag box
 * the matte touches but whose middle it leaves out, the bag is the colour of that middle, grown through
 * the box's regions outside the matte, unless that colour is also the backdrop around the box (then
 * the box's middle is backdrop). Returns regions outside the matte.
 */
export function looseBags(s: Scene, fg: Uint8Array, boxes: DetectedObject[]): number[] {
  const out: number[] = [];
  for (const o of boxes) {
    const { x0: x, y0: y, w, h } = o.box;
    const inBox = (r: number, m = 0) => { const p = s.regions[r]; return p.x >= x - m * w && p.x <= x + w + m * w && p.y >= y - m * h && p.y <= y + h + m * h; };
    const box = [...s.regions.keys()].filter((r) => inBox(r));
    const share = (rs: number[]) => rs.reduce((t, r) => t + s.alpha[r] * s.regions[r].n, 0) / Math.max(1, areaOf(s, rs));
    const middle = box.filter((r) => Math.abs(s.regions[r].x - (x + w / 2)) < w * BAGS.middle && Math.abs(s.regions[r].y - (y + h / 2)) < h * BAGS.middle);
    if (middle.length === 0 || share(middle) >= BAGS.leftOut || share(box) < BAGS.touches) continue;
    const free = (r: number) => !fg[r] && s.alpha[r] < 0.5 && s.label[r] === L.background;
    const seeds = middle.filter(free);
    const c = medianLab(s, seeds);
    if (!c) continue;
    const like = (r: number) => labDistance(s.regions[r].lab, c) < BAGS.bagDE;
    // The backdrop: what lies around the box (a quarter of its size out) off the matte.
    const ring = [...s.regions.keys()].filter((r) => free(r) && inBox(r, BAGS.ring) && !inBox(r));
    if (areaOf(s, ring.filter(like)) > areaOf(s, ring) * BAGS.ringShare) continue;
    const core = flood(s, seeds.filter(like), (q) => free(q) && inBox(q) && like(q));
    if (areaOf(s, [...core]) < w * h * BAGS.looseArea) continue;
    // Then on through shading, straps and buckles, as a detected bag beside the body does.
    const bag = flood(s, [...core], (q) => core.has(q) || (free(q) && inBox(q) && labDistance(s.regions[q].lab, c) < BAGS.offDE));
    out.push(...bag, ...enclosedHoles(s, bag, box.filter(free), new Set(box.filter((r) => fg[r]))));
  }
  return out;
}
