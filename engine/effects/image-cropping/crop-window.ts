/**
 * Crop geometry, pure: the largest window of the target aspect ratio that fits in the image, placed so that
 * it keeps the subject. The window's size follows from the image and the target alone, so placing it is a
 * one-dimensional problem along the one axis where the image is longer than the window.
 */

export interface Box { x: number; y: number; width: number; height: number }
export interface Size { width: number; height: number }

/** Which side of the picture the top of a head points to (a face turned by 90 or 180 degrees). */
export type Up = 'top' | 'right' | 'bottom' | 'left';
/** A face box; `eye` is the midpoint between the eyes when known (else it is guessed from the box). */
export interface SubjectFace { box: Box; up?: Up; eye?: { x: number; y: number } }

export type Subject =
  | { kind: 'faces'; faces: SubjectFace[] }
  /** Subject mass (e.g. a salient-object matte) summed per column and per row of the image. */
  | { kind: 'mass'; columns: ArrayLike<number>; rows: ArrayLike<number> }
  | { kind: 'none' };

/** An interval that should be kept, with a wider one that would be nicer to keep (hair, ears, air). */
interface Span {
  lo: number; hi: number; padLo: number; padHi: number; weight: number;
  /** Eye line, when the head's up direction lies on this axis; headFirst: the head's top is at the lo end. */
  eye?: number; headFirst?: boolean;
}

// Face proportions, as fractions of the face box: hair and a little air above it, chin and some neck below,
// ears beside it. The eye line sits a little under 0.4 of the box from its top.
const HAIR = 0.5, CHIN = 0.2, SIDE = 0.25, EYES = 0.4;
// Most room above the hair allowance, as a share of the window. A face small in the window (a full-length
// figure) would sit far down with its eyes on the third; it goes up to leave about a tenth of air instead.
const MAX_HEADROOM = 0.05;
// Faces smaller than this share of the largest kept face's area hold the window but do not steer it.
const PRINCIPAL = 0.25;
// Mass below this share at either end of the subject counts as stray specks, not as part of it.
const TAIL = 0.002;
// A subject more than TALL times the window's height keeps its top, if that costs at most a tenth of the
// mass the fullest window would hold; a little air (a share of the window) is left above it.
const TALL = 1.25, NEAR_MOST = 0.9, TOP_AIR = 0.03;

export function windowSize(image: Size, target: Size): Size {
  const aspect = target.width / target.height;
  if (image.width / image.height > aspect) {
    return { width: clamp(Math.round(image.height * aspect), 1, image.width), height: image.height };
  }
  return { width: image.width, height: clamp(Math.round(image.width / aspect), 1, image.height) };
}

export function cropWindow(image: Size, target: Size, subject: Subject): Box {
  const size = windowSize(image, target);
  const horizontal = size.width < image.width;
  const len = horizontal ? image.width : image.height;
  const win = horizontal ? size.width : size.height;
  let start = (len - win) / 2;
  if (win < len) {
    if (subject.kind === 'faces' && subject.faces.length) start = placeFaces(subject.faces, horizontal, len, win);
    else if (subject.kind === 'mass') start = placeMass(horizontal ? subject.columns : subject.rows, win, horizontal ? 'centre' : 'top');
  }
  const s = clamp(Math.round(start), 0, len - win);
  return horizontal ? { x: s, y: 0, ...size } : { x: 0, y: s, ...size };
}

/** The faces' extent along one axis; `eye` is set when the head's up direction lies on that axis. */
export function faceSpan(face: SubjectFace, horizontal: boolean): Span {
  const { x, y, width, height } = face.box;
  const up = face.up ?? 'top';
  const [lo, size] = horizontal ? [x, width] : [y, height];
  const hi = lo + size;
  const weight = width * height;
  const alongUp = (up === 'top' || up === 'bottom') !== horizontal;
  if (!alongUp) return { lo, hi, padLo: lo - SIDE * size, padHi: hi + SIDE * size, weight };
  const eye = face.eye && (horizontal ? face.eye.x : face.eye.y);
  // The head's top is at lo for 'top'/'left', at hi for 'bottom'/'right'.
  return up === 'top' || up === 'left'
    ? { lo, hi, padLo: lo - HAIR * size, padHi: hi + CHIN * size, weight, eye: eye ?? lo + EYES * size, headFirst: true }
    : { lo, hi, padLo: lo - CHIN * size, padHi: hi + HAIR * size, weight, eye: eye ?? hi - EYES * size, headFirst: false };
}

function placeFaces(faces: SubjectFace[], horizontal: boolean, len: number, win: number): number {
  const spans = faces.map((f) => faceSpan(f, horizontal)).map((s) => ({ ...s, lo: Math.max(0, s.lo), hi: Math.min(len, s.hi) }));
  const kept = keptSpans(spans, len, win);
  if (!kept.length) {
    // Not even one face fits whole (a close-up into a narrow frame): centre the largest.
    const big = spans.reduce((a, b) => (b.weight > a.weight ? b : a));
    return (big.lo + big.hi - win) / 2;
  }
  const hard = range(kept.map((s) => [s.lo, s.hi]), len, win)!;
  const soft = intersect(range(kept.map((s) => [s.padLo, s.padHi]), len, win), hard);
  const ideal = soft ? clamp(compose(kept, win), soft[0], soft[1]) : tight(kept, win, hard);
  // Among positions as good for the kept faces, prefer one that does not cut through the others.
  const others = spans.filter((s) => !kept.includes(s));
  const [from, to] = soft ?? hard;
  const candidates = [ideal, ...others.flatMap((o) => [o.hi, o.lo - win])].filter((s) => s >= from && s <= to);
  const cut = (s: number) => others.reduce((sum, o) => sum + (o.lo < s + win && o.hi > s && (o.lo < s || o.hi > s + win) ? o.weight : 0), 0);
  const best = candidates.reduce((best, s) => {
    const d = cut(s) - cut(best);
    return d < 0 || (d === 0 && Math.abs(s - ideal) < Math.abs(best - ideal)) ? s : best;
  });
  // Round inside the range, so a fractional face edge does not end up a pixel outside.
  const [lo, hi] = [Math.ceil(hard[0]), Math.floor(hard[1])];
  return lo <= hi ? clamp(Math.round(best), lo, hi) : best;
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
