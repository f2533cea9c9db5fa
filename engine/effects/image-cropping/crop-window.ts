/**
 * Crop geometry, pure: the largest window of the target aspect ratio that fits in the image, placed so that
 * it keeps the subject. The window's size follows from the image and the target alone, so placing it is a
 * one-dimensional problem along the one axis where the image is longer than the window.
 *
 * The subject is the faces and the salient object (a person's whole figure, a product) together. Faces
 * decide what must stay whole: the window keeps the heaviest set of faces it can, with room for hair and
 * chin. Among the positions that do, it keeps the most subject mass; only where that leaves a choice (the
 * whole subject fits either way) does composition decide, eyes on the upper third.
 */
import type { Mask } from '../../image/mask.ts';
import type { Rect } from '../../image/rect.ts';

import { CHIN, CORE, CROWN, EYES, GAP, HAIR, HEAD_ROW, MAX_HEADROOM, NEAR_MOST, PRINCIPAL, SIDE, SLACK, TAIL, TALL, TOP_AIR } from './tuning.ts';

export interface Size { width: number; height: number }

/** Which side of the picture the top of a head points to (a face turned by 90 or 180 degrees). */
export type Up = 'top' | 'right' | 'bottom' | 'left';
/**
 * A face box; `eye` is the midpoint between the eyes when known (else it is guessed from the box); `crown`:
 * how far the head (hair, hat) reaches beyond the box's top edge, in pixels, when a matte has shown it.
 */
export interface SubjectFace { box: Rect; up?: Up; eye?: { x: number; y: number }; crown?: number }

/** Subject mass (e.g. a salient-object matte) summed per column and per row of the image. */
export interface Mass { columns: ArrayLike<number>; rows: ArrayLike<number> }

export type Subject =
  /** Faces, with the mass of the subject they belong to when it is known. */
  | { kind: 'faces'; faces: SubjectFace[]; mass?: Mass }
  | ({ kind: 'mass' } & Mass)
  | { kind: 'none' };

/** An interval that should be kept, with a wider one that would be nicer to keep (hair, ears, air). */
interface Span {
  lo: number; hi: number; padLo: number; padHi: number; weight: number;
  /** Eye line, when the head's up direction lies on this axis; headFirst: the head's top is at the lo end. */
  eye?: number; headFirst?: boolean;
}

export function windowSize(image: Size, target: Size): Size {
  const aspect = target.width / target.height;
  if (image.width / image.height > aspect) {
    return { width: clamp(Math.round(image.height * aspect), 1, image.width), height: image.height };
  }
  return { width: image.width, height: clamp(Math.round(image.width / aspect), 1, image.height) };
}

export function cropWindow(image: Size, target: Size, subject: Subject): Rect {
  const size = windowSize(image, target);
  const horizontal = size.width < image.width;
  const len = horizontal ? image.width : image.height;
  const win = horizontal ? size.width : size.height;
  let start = (len - win) / 2;
  if (win < len) {
    if (subject.kind === 'faces' && subject.faces.length) {
      // The mass and the crowns come from a matte, which is only worth computing where massMatters; they
      // are left out elsewhere here too, so the window is the same whether it was computed or not.
      const matte = subject.mass && massMatters(image, target, subject.faces) ? subject.mass : undefined;
      const faces = matte ? subject.faces : subject.faces.map(({ crown: _, ...f }) => f);
      start = placeFaces(faces, horizontal, len, win, matte && (horizontal ? matte.columns : matte.rows));
    }
    else if (subject.kind === 'mass') start = placeMass(horizontal ? subject.columns : subject.rows, win, horizontal ? 'centre' : 'top');
  }
  const s = clamp(Math.round(start), 0, len - win);
  return horizontal ? { x0: s, y0: 0, w: size.width, h: size.height } : { x0: 0, y0: s, w: size.width, h: size.height };
}

/** The faces' extent along one axis; `eye` is set when the head's up direction lies on that axis. */
export function faceSpan(face: SubjectFace, horizontal: boolean): Span {
  const { x0: x, y0: y, w: width, h: height } = face.box;
  const up = face.up ?? 'top';
  const [lo, size] = horizontal ? [x, width] : [y, height];
  const hi = lo + size;
  const weight = width * height;
  const alongUp = (up === 'top' || up === 'bottom') !== horizontal;
  if (!alongUp) return { lo, hi, padLo: lo - SIDE * size, padHi: hi + SIDE * size, weight };
  const eye = face.eye && (horizontal ? face.eye.x : face.eye.y);
  const hair = hairRoom(face.crown, size);
  // The head's top is at lo for 'top'/'left', at hi for 'bottom'/'right'.
  return up === 'top' || up === 'left'
    ? { lo, hi, padLo: lo - hair, padHi: hi + CHIN * size, weight, eye: eye ?? lo + EYES * size, headFirst: true }
    : { lo, hi, padLo: lo - CHIN * size, padHi: hi + hair, weight, eye: eye ?? hi - EYES * size, headFirst: false };
}

/** Room for the hair beyond a face box of this size (along the up direction): the crown when known, else a guess. */
const hairRoom = (crown: number | undefined, size: number) =>
  crown === undefined ? HAIR * size : clamp(crown + CROWN.air * size, CROWN.min * size, CROWN.max * size);

/** Where faces allow the window to start: the hard range keeps the kept faces whole, the soft one their hair and chins too. */
interface FacePlan { spans: Span[]; kept: Span[]; hard: [number, number]; soft: [number, number] | null }

function planFaces(faces: SubjectFace[], horizontal: boolean, len: number, win: number): FacePlan {
  const spans = faces.map((f) => faceSpan(f, horizontal)).map((s) => ({ ...s, lo: Math.max(0, s.lo), hi: Math.min(len, s.hi) }));
  const kept = keptSpans(spans, len, win);
  if (!kept.length) return { spans, kept, hard: [0, len - win], soft: null };
  const hard = range(kept.map((s) => [s.lo, s.hi]), len, win)!;
  const soft = intersect(range(kept.map((s) => [s.padLo, s.padHi]), len, win), hard);
  return { spans, kept, hard, soft };
}

/**
 * Whether the subject's mass can change where the window goes for these faces: only when the window is
 * shorter than the image along the free axis and the faces, with their hair and chins, leave it room to
 * move, even with the least room for hair that a matte could show. Elsewhere the matte need not be computed
 * (cropWindow leaves it out there).
 */
export function massMatters(image: Size, target: Size, faces: SubjectFace[]): boolean {
  if (!faces.length) return true;
  const size = windowSize(image, target);
  const horizontal = size.width < image.width;
  const [len, win] = horizontal ? [image.width, size.width] : [image.height, size.height];
  if (win >= len) return false;
  // The crown can only narrow the hair allowance down to CROWN.min, which leaves the window the most room.
  const least = faces.map((f) => ({ ...f, crown: 0 }));
  const { soft } = planFaces(least, horizontal, len, win);
  return !!soft && soft[1] - soft[0] >= 1;
}

function placeFaces(faces: SubjectFace[], horizontal: boolean, len: number, win: number, mass?: ArrayLike<number>): number {
  const { spans, kept, hard, soft } = planFaces(faces, horizontal, len, win);
  if (!kept.length) {
    // Not even one face fits whole (a close-up into a narrow frame): centre the largest.
    const big = spans.reduce((a, b) => (b.weight > a.weight ? b : a));
    return (big.lo + big.hi - win) / 2;
  }
  const ideal = soft ? clamp(compose(kept, win), soft[0], soft[1]) : tight(kept, win, hard);
  // Among positions as good for the kept faces, prefer one that does not cut through the others.
  const others = spans.filter((s) => !kept.includes(s));
  const cut = (s: number) => others.reduce((sum, o) => sum + (o.lo < s + win && o.hi > s && (o.lo < s || o.hi > s + win) ? o.weight : 0), 0);
  // Round inside the range, so a fractional face edge does not end up a pixel outside.
  const [lo, hi] = [Math.ceil(hard[0]), Math.floor(hard[1])];
  const inRange = (s: number) => (lo <= hi ? clamp(Math.round(s), lo, hi) : s);
  if (mass && soft && soft[1] - soft[0] >= 1) {
    const best = fullest(mass, win, [Math.ceil(soft[0]), Math.floor(soft[1])], cut, ideal);
    if (best !== undefined) return inRange(best);
  }
  const [from, to] = soft ?? hard;
  const candidates = [ideal, ...others.flatMap((o) => [o.hi, o.lo - win])].filter((s) => s >= from && s <= to);
  const best = candidates.reduce((best, s) => {
    const d = cut(s) - cut(best);
    return d < 0 || (d === 0 && Math.abs(s - ideal) < Math.abs(best - ideal)) ? s : best;
  });
  return inRange(best);
}

/**
 * Of the whole-pixel starts in [from, to], those cutting the least weight of other faces; of those, the
 * ones holding (within SLACK) the most mass; of those, the one nearest `ideal`. Undefined without mass.
 */
function fullest(profile: ArrayLike<number>, win: number, [from, to]: [number, number], cut: (s: number) => number, ideal: number): number | undefined {
  const len = profile.length;
  const prefix = new Float64Array(len + 1);
  for (let i = 0; i < len; i++) prefix[i + 1] = prefix[i] + Math.max(0, profile[i]);
  const total = prefix[len];
  if (total <= 0) return undefined;
  const starts: { s: number; cut: number; mass: number }[] = [];
  for (let s = Math.max(0, from); s <= Math.min(to, len - win); s++) starts.push({ s, cut: cut(s), mass: prefix[s + win] - prefix[s] });
  if (!starts.length) return undefined;
  const least = Math.min(...starts.map((c) => c.cut));
  const fair = starts.filter((c) => c.cut === least);
  const most = Math.max(...fair.map((c) => c.mass));
  return fair.filter((c) => c.mass >= most - SLACK * total)
    .reduce((a, b) => (Math.abs(b.s - ideal) < Math.abs(a.s - ideal) ? b : a)).s;
}

/**
 * How far the subject reaches beyond the face box's top edge (the side its `up` points to), in image
 * pixels, looking at most CROWN.max face sizes out; undefined when the matte does not hold the face itself
 * (it missed the person, so it says nothing about their hair). `m` covers the whole image at its own
 * resolution, 255 = subject.
 */
export function crownOf(m: Mask, image: Size, face: SubjectFace): number | undefined {
  const { x0: x, y0: y, w: width, h: height } = face.box;
  const up = face.up ?? 'top';
  const vertical = up === 'top' || up === 'bottom';
  const size = vertical ? height : width;
  const sx = m.width / image.width, sy = m.height / image.height;
  // Across: the middle CORE of the face; along: outward from the top edge, one matte cell at a time.
  const [a0, a1] = vertical ? [x + ((1 - CORE) / 2) * width, x + ((1 + CORE) / 2) * width] : [y + ((1 - CORE) / 2) * height, y + ((1 + CORE) / 2) * height];
  const [across, alongScale, alongCells] = vertical ? [sx, sy, m.height] : [sy, sx, m.width];
  const i0 = Math.max(0, Math.floor(a0 * across)), i1 = Math.min(vertical ? m.width : m.height, Math.ceil(a1 * across));
  const step = 1 / alongScale;
  const edge = up === 'top' ? y : up === 'bottom' ? y + height : up === 'left' ? x : x + width;
  const sign = up === 'top' || up === 'left' ? -1 : 1;
  /** The share of subject in the matte's line at distance d from the edge (negative d: inside the face); -1 past the image. */
  const share = (d: number) => {
    const k = Math.floor((edge + sign * (d + step / 2)) * alongScale);
    if (k < 0 || k >= alongCells) return -1;
    let on = 0;
    for (let i = i0; i < i1; i++) if (m.data[vertical ? k * m.width + i : i * m.width + k] >= 128) on++;
    return i1 > i0 ? on / (i1 - i0) : 0;
  };
  // The face's own upper half must be subject for the matte to speak for its hair.
  if (share(-0.25 * size) < 0.5) return undefined;
  let reach = 0, gap = 0;
  for (let d = 0; d <= CROWN.max * size; d += step) {
    const s = share(d);
    if (s < 0) break;
    if (s >= HEAD_ROW) { reach = d + step; gap = 0; } else if ((gap += step) > GAP * size) break;
  }
  return reach;
}

/** The set of faces a window can keep whole with the most total weight (area); larger faces win ties. */
export function keptSpans<S extends Span>(spans: S[], len: number, win: number): S[] {
  let best: S[] = [], bestWeight = 0, bestTop = 0;
  const starts = spans.flatMap((s) => [s.lo, s.hi - win]).map((s) => clamp(s, 0, len - win));
  for (const start of starts) {
    const inside = spans.filter((s) => s.lo >= start && s.hi <= start + win);
    const weight = inside.reduce((sum, s) => sum + s.weight, 0);
    const top = Math.max(0, ...inside.map((s) => s.weight));
    if (weight > bestWeight || (weight === bestWeight && top > bestTop)) [best, bestWeight, bestTop] = [inside, weight, top];
  }
  return best;
}

/** Where the window would start for a good composition of the principal faces, ignoring the image's edges. */
function compose(kept: Span[], win: number): number {
  const top = Math.max(...kept.map((s) => s.weight));
  const main = kept.filter((s) => s.weight >= PRINCIPAL * top);
  const lo = Math.min(...main.map((s) => s.padLo)), hi = Math.max(...main.map((s) => s.padHi));
  const eyes = main.filter((s) => s.eye !== undefined);
  if (!eyes.length) return (lo + hi - win) / 2;
  const eye = eyes.reduce((sum, s) => sum + s.eye! * s.weight, 0) / eyes.reduce((sum, s) => sum + s.weight, 0);
  const { headFirst } = eyes.reduce((a, b) => (b.weight > a.weight ? b : a));
  // Eyes on the third nearest the head's top, unless that leaves more than MAX_HEADROOM of empty room above.
  return headFirst
    ? Math.max(eye - win / 3, lo - MAX_HEADROOM * win)
    : Math.min(eye - (2 * win) / 3, hi + MAX_HEADROOM * win - win);
}

/**
 * When the kept faces fit but their hair, chin and ear allowances do not: keep the chins and cut into the
 * hair (as a close-up does), or, side to side, leave the same margin at both ends.
 */
function tight(kept: Span[], win: number, [from, to]: [number, number]): number {
  const up = kept.filter((s) => s.eye !== undefined).reduce<Span | undefined>((a, b) => (!a || b.weight > a.weight ? b : a), undefined);
  if (!up) return (from + to) / 2;
  return clamp(up.headFirst ? Math.max(...kept.map((s) => s.padHi)) - win : Math.min(...kept.map((s) => s.padLo)), from, to);
}

/**
 * Mass along the free axis: keep all of it, centred, when it fits. Otherwise the most of it; and upright
 * subjects much taller than the window keep their top (a head, a label), if that costs little.
 */
export function placeMass(profile: ArrayLike<number>, win: number, prefer: 'centre' | 'top' = 'centre'): number {
  const len = profile.length;
  const prefix = new Float64Array(len + 1);
  for (let i = 0; i < len; i++) prefix[i + 1] = prefix[i] + Math.max(0, profile[i]);
  const total = prefix[len];
  if (total <= 0) return (len - win) / 2;
  let lo = 0, hi = len;
  while (lo < len - 1 && prefix[lo + 1] <= TAIL * total) lo++;
  while (hi > lo + 1 && total - prefix[hi - 1] <= TAIL * total) hi--;
  const centred = (lo + hi - win) / 2;
  if (hi - lo <= win) return clamp(centred, Math.max(0, hi - win), Math.min(lo, len - win));
  const mass = (s: number) => prefix[s + win] - prefix[s];
  let most = 0;
  for (let s = 0; s <= len - win; s++) most = Math.max(most, mass(s));
  // Of the windows holding (nearly) the most, the one nearest the subject's centre, or its top.
  const [floor, aim] = prefer === 'top' && hi - lo > TALL * win ? [NEAR_MOST * most, lo - TOP_AIR * win] : [0.999 * most, centred];
  let best = -1;
  for (let s = 0; s <= len - win; s++) {
    if (mass(s) >= floor && (best < 0 || Math.abs(s - aim) < Math.abs(best - aim))) best = s;
  }
  return best;
}

/** Window starts that keep every interval whole, within the image; null when there are none. */
function range(intervals: number[][], len: number, win: number): [number, number] | null {
  const from = Math.max(0, ...intervals.map(([, hi]) => hi - win));
  const to = Math.min(len - win, ...intervals.map(([lo]) => lo));
  return from <= to ? [from, to] : null;
}

const intersect = (a: [number, number] | null, b: [number, number]): [number, number] | null =>
  a && Math.max(a[0], b[0]) <= Math.min(a[1], b[1]) ? [Math.max(a[0], b[0]), Math.min(a[1], b[1])] : null;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
