/**
 * A small face's features drawn from its mesh. A face a few dozen pixels high, enlarged to the avatar, holds
 * no eye or mouth a cartoon's lines can follow: XDoG on it draws JPEG blocks and blur as blotches. The mesh
 * still knows where the eyelids, irises, brows, nose and lips are, so they are drawn as clean ink strokes
 * (anti-aliased, smoothed through their points) over the flattened colours, whose own lines are taken out
 * of the inner face first.
 */
import {
  LEFT_BROW, LEFT_EYE, LEFT_IRIS, LIPS_LOWER_INNER, LIPS_LOWER_OUTER, LIPS_UPPER_INNER, LIPS_UPPER_OUTER,
  RIGHT_BROW, RIGHT_EYE, RIGHT_IRIS,
} from '../../vision/faces/landmarks.ts';
import { fillDisc, fillPolygon } from '../../image/polygon.ts';
import type { Pixels } from '../../image/raster.ts';
import type { Rect } from '../../image/rect.ts';

type Point = readonly [number, number];

/** The base of the nose under the tip, between the nostrils. */
const NOSE_BASE = [98, 97, 2, 326, 327];
/** An eye (and its brow) narrower than this share of the other is on the far side of a turned head: not drawn. */
const FAR_SIDE = 0.55;

/** Chaikin's corner cutting, twice: a polyline through the mesh's points without its corners. */
export function smoothPath(points: readonly Point[], closed: boolean): Point[] {
  let p: Point[] = [...points];
  for (let k = 0; k < 2; k++) {
    const out: Point[] = [];
    const n = p.length, last = closed ? n : n - 1;
    if (!closed) out.push(p[0]);
    for (let i = 0; i < last; i++) {
      const a = p[i], b = p[(i + 1) % n];
      out.push([0.75 * a[0] + 0.25 * b[0], 0.75 * a[1] + 0.25 * b[1]], [0.25 * a[0] + 0.75 * b[0], 0.25 * a[1] + 0.75 * b[1]]);
    }
    if (!closed) out.push(p[n - 1]);
    p = out;
  }
  return p;
}

/** Coverage (0..1, anti-aliased) of a stroke `width` px wide along a polyline, max-combined into `ink`. */
export function strokePath(ink: Float32Array, w: number, h: number, path: readonly Point[], width: number, closed: boolean): void {
  const half = width / 2, segments = closed ? path.length : path.length - 1;
  for (let s = 0; s < segments; s++) {
    const [ax, ay] = path[s], [bx, by] = path[(s + 1) % path.length];
    const dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy || 1;
    const x0 = Math.max(0, Math.floor(Math.min(ax, bx) - half - 1)), x1 = Math.min(w - 1, Math.ceil(Math.max(ax, bx) + half + 1));
    const y0 = Math.max(0, Math.floor(Math.min(ay, by) - half - 1)), y1 = Math.min(h - 1, Math.ceil(Math.max(ay, by) + half + 1));
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) {
      const px = x + 0.5, py = y + 0.5;
      const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2));
      const d = Math.hypot(px - ax - t * dx, py - ay - t * dy);
      const c = Math.min(1, Math.max(0, half - d + 0.5));
      const i = y * w + x;
      if (c > ink[i]) ink[i] = c;
    }
  }
}

/** A filled polygon's or disc's coverage (image/polygon.ts) scaled by `weight`, max-combined into `ink`. */
function inkShape(ink: Float32Array, w: number, h: number, weight: number, draw: (win: Rect) => Float32Array): void {
  const cover = draw({ x0: 0, y0: 0, w, h });
  for (let i = 0; i < ink.length; i++) if (weight * cover[i] > ink[i]) ink[i] = weight * cover[i];
}

/**
 * The features' ink (0..1 per pixel) for a face whose mesh, mapped into the avatar, is `at(i)`. The strokes'
 * weight is a share of the wider eye's width, so the drawing keeps its proportions at any size.
 */
export function featureInk(at: (i: number) => Point, w: number, h: number): Float32Array {
  const ink = new Float32Array(w * h);
  const dist = (i: number, j: number) => Math.hypot(at(i)[0] - at(j)[0], at(i)[1] - at(j)[1]);
  const widths = [dist(33, 133), dist(263, 362)], widest = Math.max(...widths);
  const line = Math.max(1.5, 0.07 * widest);
  const sides = [{ eye: RIGHT_EYE, iris: RIGHT_IRIS, brow: RIGHT_BROW }, { eye: LEFT_EYE, iris: LEFT_IRIS, brow: LEFT_BROW }]
    .filter((_, k) => widths[k] >= FAR_SIDE * widest);
  for (const { eye } of sides) strokePath(ink, w, h, smoothPath(eye.map(at), true), line, true);
  for (const { iris } of sides) {
    const c = at(iris.center);
    const r = iris.ring.reduce((s, i) => s + Math.hypot(at(i)[0] - c[0], at(i)[1] - c[1]), 0) / iris.ring.length;
    inkShape(ink, w, h, 0.85, (win) => fillDisc(c[0], c[1], 0.8 * r, win));
  }
  for (const { brow } of sides) inkShape(ink, w, h, 0.75, (win) => fillPolygon(smoothPath(brow.map(at), true), win));
  strokePath(ink, w, h, smoothPath(NOSE_BASE.map(at), false), 0.7 * line, false);
  // The mouth: its opening as a line, the lips' outline fainter.
  strokePath(ink, w, h, smoothPath([...LIPS_UPPER_INNER, ...[...LIPS_LOWER_INNER].reverse().slice(1, -1)].map(at), true), line, true);
  const outer = smoothPath([...LIPS_UPPER_OUTER, ...[...LIPS_LOWER_OUTER].reverse().slice(1, -1)].map(at), true);
  const lips = new Float32Array(w * h);
  strokePath(lips, w, h, outer, 0.7 * line, true);
  for (let i = 0; i < ink.length; i++) ink[i] = Math.max(ink[i], 0.55 * lips[i]);
  return ink;
}

/** Ink laid over RGB pixels: each pixel darkened toward a deep brown-black by its coverage. */
export function applyInk(img: Pixels, ink: Float32Array): void {
  const { data, channels } = img;
  const inkColour = [28, 20, 18];
  for (let i = 0; i < ink.length; i++) {
    const c = ink[i];
    if (c <= 0) continue;
    for (let k = 0; k < 3; k++) data[i * channels + k] = Math.round(data[i * channels + k] * (1 - c) + inkColour[k] * c);
  }
}
