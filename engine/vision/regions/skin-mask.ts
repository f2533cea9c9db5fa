/**
 * The masks a skin retouch works through, for one face, over a window around it (0..1 planes):
 *   skin  the parsing's skin and nose, without the mesh's eyes, brows, lips and nostrils (each with a
 *         guard band, so lashes, lid lines and the lip line stay crisp) and without hair, glasses and hats;
 *   tone  skin plus neck and ears (whitening the face alone would leave a darker neck below it);
 *   sharp the features a sharpening brings out: eyes with their lashes, brows, lips, and the hair.
 * Parsing draws the skin's outline along the photo's edges; the mesh is surer about the features.
 */
import type { Rect } from '../../image/rect.ts';
import type { Face } from '../faces/detect.ts';
import { LEFT_BROW, LEFT_EYE, LIPS_LOWER_OUTER, LIPS_UPPER_OUTER, RIGHT_BROW, RIGHT_EYE } from '../faces/landmarks.ts';
import type { FaceParsing, ParsingClass } from '../parsing/face-parsing.ts';
import { faceRegionPlanes } from './face-regions.ts';
import { feather, grow, minus, union } from '../../image/feather.ts';
import { fillPolygon, type Pt } from '../../image/polygon.ts';

/**
 * Mesh points around each nostril and the alar base beside it (canonical uv just below the nose tip),
 * the columella's foot (2) shared; the hull of each set is what smoothing keeps its hands off.
 */
export const RIGHT_NOSTRIL = [79, 239, 238, 241, 242, 20, 60, 75, 240, 98, 99, 97, 2];
export const LEFT_NOSTRIL = [309, 459, 458, 461, 462, 250, 290, 305, 460, 327, 328, 326, 2];

export interface RetouchMasks { win: Rect; faceWidth: number; skin: Float32Array; tone: Float32Array; sharp: Float32Array }

/** Face width in pixels: cheek to cheek across the mesh. */
export const meshFaceWidth = (mesh: readonly (readonly number[])[]) => Math.hypot(mesh[454][0] - mesh[234][0], mesh[454][1] - mesh[234][1]);

/**
 * The mesh's box grown by `grow` face widths on each side (top, bottom, left and right alike for `side`),
 * clipped to the image; null without a full mesh or when nothing is left.
 */
export function meshWindow(face: Face, size: { width: number; height: number }, grow: { side: number; top: number; bottom: number }): Rect | null {
  const m = face.mesh;
  if (!m || m.length < 478) return null;
  const fw = meshFaceWidth(m);
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of m) { if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y; }
  const a = Math.max(0, Math.floor(x0 - grow.side * fw)), b = Math.max(0, Math.floor(y0 - grow.top * fw));
  const c = Math.min(size.width, Math.ceil(x1 + grow.side * fw)), d = Math.min(size.height, Math.ceil(y1 + grow.bottom * fw));
  return c > a && d > b ? { x0: a, y0: b, w: c - a, h: d - b } : null;
}

/** The window a retouch of this face works in: the mesh's box grown by half a face width (neck, hair). */
export const retouchWindow = (face: Face, size: { width: number; height: number }): Rect | null =>
  meshWindow(face, size, { side: 0.5, top: 0.5, bottom: 0.5 });

/** The sum (clipped to 1) of parsing classes, resampled onto `win` (zero where the parsing has no pixels). */
export function parsingPlane(parsing: FaceParsing, classes: readonly ParsingClass[], win: Rect): Float32Array {
  const out = new Float32Array(win.w * win.h);
  const pw = parsing.win;
  const planes = classes.map((c) => parsing.classes[c]).filter((p): p is Uint8Array => !!p);
  if (planes.length === 0) return out;
  const xa = Math.max(win.x0, pw.x0), xb = Math.min(win.x0 + win.w, pw.x0 + pw.w);
  const ya = Math.max(win.y0, pw.y0), yb = Math.min(win.y0 + win.h, pw.y0 + pw.h);
  if (xb <= xa || yb <= ya) return out;
  // Plane by plane, row by row (a loop over the planes inside the pixel loop cost more than the sums).
  const sum = planes.length === 1 ? null : new Uint16Array(out.length);
  for (const p of planes) {
    for (let y = ya; y < yb; y++) {
      const s = (y - pw.y0) * pw.w - pw.x0, o = (y - win.y0) * win.w - win.x0;
      if (sum) for (let x = xa; x < xb; x++) sum[o + x] += p[s + x];
      else for (let x = xa; x < xb; x++) out[o + x] = p[s + x] / 255;
    }
  }
  if (sum) for (let i = 0; i < out.length; i++) out[i] = sum[i] >= 255 ? 1 : sum[i] / 255;
  return out;
}

/** Convex hull (Andrew's monotone chain), counter-clockwise. */
export function convexHull(points: readonly Pt[]): Pt[] {
  const p = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (p.length < 3) return p;
  const cross = (o: Pt, a: Pt, b: Pt) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: Pt[] = [], upper: Pt[] = [];
  for (const q of p) { while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], q) <= 0) lower.pop(); lower.push(q); }
  for (const q of p.reverse()) { while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], q) <= 0) upper.pop(); upper.push(q); }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

/**
 * The tone (brightening) mask's edge is soft over at least this many pixels, the pixel grain the smoothing's
 * shape band starts at (smooth.ts faceShapeBand's minPx): a lift with a sharper edge is new fine contrast
 * at the face's outline, which the smoothing is then measured against and small faces are recognised by.
 */
export const TONE_EDGE_PX = 1.5;

/** The three masks of one meshed face over `win`. */
export function retouchMasks(face: Face, parsing: FaceParsing, win: Rect): RetouchMasks {
  const mesh = face.mesh!;
  const fw = meshFaceWidth(mesh);
  const pts = (idx: readonly number[]) => idx.map((i) => mesh[i] as Pt);
  const poly = (idx: readonly number[]) => fillPolygon(pts(idx), win);
  const eyes = union(poly(RIGHT_EYE), poly(LEFT_EYE));
  const brows = union(poly(RIGHT_BROW), poly(LEFT_BROW), parsingPlane(parsing, ['rightBrow', 'leftBrow'], win));
  const lips = poly([...LIPS_UPPER_OUTER, ...[...LIPS_LOWER_OUTER].reverse()]);
  const nostrils = union(fillPolygon(convexHull(pts(RIGHT_NOSTRIL)), win), fillPolygon(convexHull(pts(LEFT_NOSTRIL)), win));
  // Guard bands: the lashes and lid crease lie within ~4% of the face width of the eye opening.
  const holes = union(grow(eyes, win, 0.05 * fw), grow(brows, win, 0.02 * fw), grow(lips, win, 0.02 * fw), grow(nostrils, win, 0.01 * fw));
  const notSkin = parsingPlane(parsing, ['hair', 'glasses', 'hat', 'earring', 'necklace', 'cloth'], win);
  const soft = (p: Float32Array) => feather(p, win, 0.008 * fw);
  const skin = soft(minus(parsingPlane(parsing, ['skin', 'nose'], win), holes, notSkin));
  // The tone mask carries a lift: an edge as hard as the parsing's draws a step of its own along the skin's
  // outline, a light rim against hair or background. Below ~190 px the 0.8 % feather is under a pixel (none).
  const tone = feather(minus(parsingPlane(parsing, ['skin', 'nose', 'neck', 'rightEar', 'leftEar'], win), union(eyes, brows, lips), notSkin), win, Math.max(TONE_EDGE_PX, 0.008 * fw));
  const hair = parsingPlane(parsing, ['hair'], win);
  const sharp = soft(union(grow(eyes, win, 0.03 * fw), brows, lips, hair));
  return { win, faceWidth: fw, skin, tone, sharp };
}

/**
 * The lower face over `win`, 0..1: the canonical beard and moustache zones (face-regions.ts), i.e. the chin,
 * the jaw and the folds beside the mouth, where a jaw's and a beard's shadow and the smile lines lie.
 */
export function lowerFacePlane(face: Face, size: { width: number; height: number }, win: Rect): Float32Array {
  const out = new Float32Array(win.w * win.h);
  for (const r of Object.values(faceRegionPlanes(face, size, undefined, ['beard', 'moustache']))) {
    if (!r) continue;
    const x0 = Math.max(win.x0, r.win.x0), x1 = Math.min(win.x0 + win.w, r.win.x0 + r.win.w);
    const y0 = Math.max(win.y0, r.win.y0), y1 = Math.min(win.y0 + win.h, r.win.y0 + r.win.h);
    for (let y = y0; y < y1; y++) {
      for (let x = x0, i = (y - win.y0) * win.w + x - win.x0, j = (y - r.win.y0) * r.win.w + x - r.win.x0; x < x1; x++, i++, j++) {
        if (r.plane[j] > out[i]) out[i] = r.plane[j];
      }
    }
  }
  return out;
}

/**
 * The skin mask with the lower face (lowerFacePlane) taken down to `share` of it, in place: small faces keep
 * their chin, jaw and smile lines (see the effects' tuning). Nothing is done at share 1.
 */
export function spareLowerFace(m: RetouchMasks, face: Face, share: number): void {
  if (share >= 1) return;
  // The window's far corner as the size: the zones are only read inside the window.
  const zone = lowerFacePlane(face, { width: m.win.x0 + m.win.w, height: m.win.y0 + m.win.h }, m.win);
  for (let i = 0; i < zone.length; i++) m.skin[i] *= 1 - (1 - share) * zone[i];
}
