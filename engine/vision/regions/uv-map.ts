/**
 * Where each pixel of a face lies on the canonical face. The mesh's triangles (plus a skirt of triangles
 * around the face outline, so regions may reach past it: beard, jaw) are rasterised with their canonical
 * (u, v) coordinates, nearest surface first; a region drawn once on the canonical face ("atlas") then
 * follows any face's shape, pose and expression by sampling it through this field.
 */
import type { MaskPlane } from '../../image/mask.ts';
import type { Rect } from '../../image/rect.ts';
import { faceMeshTables } from '../models/human.ts';
import { FACE_OVAL } from '../faces/landmarks.ts';

export type P3 = readonly [number, number, number];

/** Atlas resolution and the canonical area it covers: u and v in [LO, LO + SPAN]. */
export const ATLAS = 384;
export const LO = -0.25;
export const SPAN = 1.5;
/** How far the skirt reaches past the outline, as a fraction of the outline's distance from the face centre. */
export const SKIRT = 0.35;

export interface UvField { u: Float32Array; v: Float32Array; win: Rect }

/**
 * Canonical coordinates of the 468 mesh points, then the skirt points (one per outline point), and the
 * triangles over both. `skirt` reaches further for shapes that hang below the chin (long beards).
 */
export function faceSurface(mesh: readonly P3[], skirt = SKIRT) {
  const { uv, triangles } = faceMeshTables();
  const xy: P3[] = mesh.slice(0, 468);
  const q: [number, number][] = uv.slice();
  const tri = triangles.slice();
  const cx = avg(FACE_OVAL.map((i) => mesh[i][0])), cy = avg(FACE_OVAL.map((i) => mesh[i][1]));
  const cu = avg(FACE_OVAL.map((i) => uv[i][0])), cv = avg(FACE_OVAL.map((i) => uv[i][1]));
  const base = xy.length;
  FACE_OVAL.forEach((i) => {
    const [x, y, z] = mesh[i];
    xy.push([x + (x - cx) * skirt, y + (y - cy) * skirt, z]);
    q.push([uv[i][0] + (uv[i][0] - cu) * skirt, uv[i][1] + (uv[i][1] - cv) * skirt]);
  });
  const n = FACE_OVAL.length;
  for (let k = 0; k < n; k++) {
    const a = FACE_OVAL[k], b = FACE_OVAL[(k + 1) % n], a2 = base + k, b2 = base + ((k + 1) % n);
    tri.push(a, b, a2, b, b2, a2);
  }
  return { xy, q, tri };
}

const avg = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;

/** The window around the face and its skirt, clipped to the image. */
export function faceWindow(mesh: readonly P3[], size: { width: number; height: number }, skirt = SKIRT): Rect {
  const { xy } = faceSurface(mesh, skirt);
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of xy) { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y); }
  const pad = 0.05 * Math.max(x1 - x0, y1 - y0);
  const X0 = Math.max(0, Math.floor(x0 - pad)), Y0 = Math.max(0, Math.floor(y0 - pad));
  const X1 = Math.min(size.width, Math.ceil(x1 + pad)), Y1 = Math.min(size.height, Math.ceil(y1 + pad));
  return { x0: X0, y0: Y0, w: Math.max(1, X1 - X0), h: Math.max(1, Y1 - Y0) };
}

/** Canonical (u, v) of every window pixel covered by the face or its skirt; NaN elsewhere. */
export function uvField(mesh: readonly P3[], win: Rect, skirt = SKIRT): UvField {
  const { xy, q, tri } = faceSurface(mesh, skirt);
  const [u, v] = rasterPairs(xy, tri, q, win);
  return { u, v, win };
}

/**
 * A pair of values per surface point (`pairs[i]` for `xy[i]`) interpolated over every window pixel the
 * triangles cover, barycentrically; NaN elsewhere. Nearest surface first (smallest z), so a turned head's
 * hidden side does not take the visible one's pixels.
 */
export function rasterPairs(xy: readonly P3[], tri: readonly number[], pairs: readonly (readonly number[])[], win: Rect): [Float32Array, Float32Array] {
  const n = win.w * win.h;
  const p0 = new Float32Array(n).fill(NaN), p1 = new Float32Array(n).fill(NaN);
  const depth = new Float32Array(n).fill(Infinity);
  for (let t = 0; t < tri.length; t += 3) {
    const [A, B, C] = [xy[tri[t]], xy[tri[t + 1]], xy[tri[t + 2]]];
    const ax = A[0] - win.x0, ay = A[1] - win.y0, bx = B[0] - win.x0, by = B[1] - win.y0, cx = C[0] - win.x0, cy = C[1] - win.y0;
    const det = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay);
    if (Math.abs(det) < 1e-9) continue;
    const xa = Math.max(0, Math.floor(Math.min(ax, bx, cx))), xb = Math.min(win.w - 1, Math.ceil(Math.max(ax, bx, cx)));
    const ya = Math.max(0, Math.floor(Math.min(ay, by, cy))), yb = Math.min(win.h - 1, Math.ceil(Math.max(ay, by, cy)));
    const [qa, qb, qc] = [pairs[tri[t]], pairs[tri[t + 1]], pairs[tri[t + 2]]];
    for (let y = ya; y <= yb; y++) {
      const py = y + 0.5;
      for (let x = xa; x <= xb; x++) {
        const px = x + 0.5;
        const l1 = ((px - ax) * (cy - ay) - (cx - ax) * (py - ay)) / det;
        const l2 = ((bx - ax) * (py - ay) - (px - ax) * (by - ay)) / det;
        const l0 = 1 - l1 - l2;
        if (l0 < -1e-6 || l1 < -1e-6 || l2 < -1e-6) continue;
        const o = y * win.w + x;
        const z = l0 * A[2] + l1 * B[2] + l2 * C[2];
        if (z >= depth[o]) continue;
        depth[o] = z;
        p0[o] = l0 * qa[0] + l1 * qb[0] + l2 * qc[0];
        p1[o] = l0 * qa[1] + l1 * qb[1] + l2 * qc[1];
      }
    }
  }
  return [p0, p1];
}

/** Samples an atlas (ATLAS x ATLAS, 0..1) through the field, bilinearly; 0 off the face. */
export function sampleAtlas(atlas: Float32Array, f: UvField): Float32Array {
  const out = new Float32Array(f.u.length);
  const k = ATLAS / SPAN;
  // A pixel whose four atlas neighbours all lie outside the atlas's non-zero box reads 0: left as it is
  // (a region such as a cheek covers a small part of the face's window).
  const [bx0, by0, bx1, by1] = atlasBox(atlas);
  for (let i = 0; i < out.length; i++) {
    const uu = f.u[i];
    if (uu !== uu) continue;
    const x = Math.min(ATLAS - 1.001, Math.max(0, (uu - LO) * k - 0.5)), y = Math.min(ATLAS - 1.001, Math.max(0, (f.v[i] - LO) * k - 0.5));
    const x0 = x | 0, y0 = y | 0;
    if (x0 + 1 < bx0 || x0 > bx1 || y0 + 1 < by0 || y0 > by1) continue;
    const fx = x - x0, fy = y - y0, o = y0 * ATLAS + x0;
    out[i] = (atlas[o] * (1 - fx) + atlas[o + 1] * fx) * (1 - fy) + (atlas[o + ATLAS] * (1 - fx) + atlas[o + ATLAS + 1] * fx) * fy;
  }
  return out;
}

/**
 * sampleAtlas over only the part of the field's window where the atlas can be non-zero, widened by `margin`
 * pixels (within the window): the plane and its own window. The values are sampleAtlas's there, and 0
 * outside (a cheek covers a small part of the face's window; allocating and sampling all of it for each
 * region was most of the part measures' memory). Empty: a 1 x 1 zero plane at the window's corner.
 */
export function sampleAtlasCropped(atlas: Float32Array, f: UvField, margin: number): MaskPlane {
  const { w, h } = f.win;
  const [bx0, by0, bx1, by1] = atlasBox(atlas);
  const { ax, ay } = atlasCells(f);
  let x0 = w, y0 = h, x1 = -1, y1 = -1;
  for (let y = 0; y < h; y++) for (let x = 0, i = y * w; x < w; x++, i++) {
    const cx = ax[i], cy = ay[i];
    // Off the face (-2) fails the first test with any box.
    if (cx + 1 < bx0 || cx > bx1 || cy + 1 < by0 || cy > by1) continue;
    if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; y1 = y;
  }
  if (x1 < 0) return { plane: new Float32Array(1), win: { x0: f.win.x0, y0: f.win.y0, w: 1, h: 1 } };
  x0 = Math.max(0, x0 - margin); y0 = Math.max(0, y0 - margin); x1 = Math.min(w - 1, x1 + margin); y1 = Math.min(h - 1, y1 + margin);
  const cw = x1 - x0 + 1, ch = y1 - y0 + 1;
  const sub: UvField = { u: new Float32Array(cw * ch), v: new Float32Array(cw * ch), win: { x0: f.win.x0 + x0, y0: f.win.y0 + y0, w: cw, h: ch } };
  for (let y = 0; y < ch; y++) {
    const s = (y0 + y) * w + x0;
    sub.u.set(f.u.subarray(s, s + cw), y * cw); sub.v.set(f.v.subarray(s, s + cw), y * cw);
  }
  return { plane: sampleAtlas(atlas, sub), win: sub.win };
}

/**
 * Each field pixel's atlas cell (the x0, y0 that sampleAtlas reads from), -2 off the face; once per field,
 * for the regions' crops (a face's soft regions share its field).
 */
const cells = new WeakMap<UvField, { ax: Int16Array; ay: Int16Array }>();
function atlasCells(f: UvField): { ax: Int16Array; ay: Int16Array } {
  let c = cells.get(f);
  if (!c) {
    const k = ATLAS / SPAN, n = f.u.length, ax = new Int16Array(n).fill(-2), ay = new Int16Array(n).fill(-2);
    for (let i = 0; i < n; i++) {
      const uu = f.u[i];
      if (uu !== uu) continue;
      ax[i] = Math.min(ATLAS - 1.001, Math.max(0, (uu - LO) * k - 0.5)) | 0; ay[i] = Math.min(ATLAS - 1.001, Math.max(0, (f.v[i] - LO) * k - 0.5)) | 0;
    }
    c = { ax, ay };
    cells.set(f, c);
  }
  return c;
}

/** The atlas's non-zero pixels' bounding box [x0, y0, x1, y1] (inclusive; empty: x0 > x1), once per atlas (atlases are built once and never changed). */
const boxes = new WeakMap<Float32Array, [number, number, number, number]>();
function atlasBox(atlas: Float32Array): [number, number, number, number] {
  let b = boxes.get(atlas);
  if (!b) {
    let x0 = ATLAS, y0 = ATLAS, x1 = -1, y1 = -1;
    for (let y = 0; y < ATLAS; y++) for (let x = 0, o = y * ATLAS; x < ATLAS; x++, o++) {
      if (atlas[o] !== 0) { if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; y1 = y; }
    }
    b = [x0, y0, x1, y1];
    boxes.set(atlas, b);
  }
  return b;
}

/** Atlas pixel coordinates of a canonical point. */
export const atlasPoint = (u: number, v: number): [number, number] => [((u - LO) / SPAN) * ATLAS, ((v - LO) / SPAN) * ATLAS];
