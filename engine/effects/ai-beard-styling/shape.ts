/**
 * A preset's parts on one face: each part's outline filled on the canonical atlas (lips cut out), sampled
 * through the face's mesh, and the direction its hair grows at every pixel: the flow given in the canonical
 * face's terms (down on the chin, outward and down on the cheeks, sideways on the moustache) carried into
 * the photo through the mesh's local Jacobian, so it follows the jaw and lips of any face and pose.
 */
import type { Rect } from '../../image/rect.ts';
import { faceMeshTables } from '../../vision/models/human.ts';
import { FACE_OVAL, LIPS_LOWER_OUTER, LIPS_UPPER_OUTER } from '../../vision/faces/landmarks.ts';
import { poseFromMesh } from '../../vision/faces/pose.ts';
import { feather, grow, minus } from '../../image/feather.ts';
import { fillPolygon, type Pt } from '../../image/polygon.ts';
import { ATLAS, atlasPoint, faceSurface, faceWindow, rasterPairs, sampleAtlas, type P3, type UvField } from '../../vision/regions/uv-map.ts';
import type { BeardPart, BeardPreset, Flow } from './presets.ts';
import { BEARD_SKIRT, FAR_CUT, FAR_YAW, LIP_OVERHANG } from './tuning.ts';

const ramp = (x: number, a: number, b: number) => Math.min(1, Math.max(0, (x - a) / (b - a)));

/** How far a turned face is turned, 0..1 over FAR_YAW. */
export const turned = (yaw: number) => ramp(Math.abs(yaw), FAR_YAW[0], FAR_YAW[1]);

/** faceSurface with the beard's skirt: on a turned face's far side it hugs the jaw (FAR_CUT). */
export function beardSurface(mesh: readonly P3[]): ReturnType<typeof faceSurface> {
  const s = faceSurface(mesh, BEARD_SKIRT);
  const { yaw } = poseFromMesh(mesh as P3[] as [number, number, number][]);
  const turn = turned(yaw);
  if (turn <= 0) return s;
  const { uv } = faceMeshTables();
  const dx = mesh[152][0] - mesh[168][0], dy = mesh[152][1] - mesh[168][1], n = Math.hypot(dx, dy) || 1;
  const gx = dx / n, gy = dy / n;
  const base = s.xy.length - FACE_OVAL.length;
  FACE_OVAL.forEach((i, k) => {
    // yaw > 0 turns the face toward the image's right: its far side is the subject's left (u > 0.5).
    const cut = FAR_CUT * turn * ramp((uv[i][0] - 0.5) * Math.sign(yaw), 0.02, 0.15);
    if (cut <= 0) return;
    const [x, y] = mesh[i], [sx, sy, sz] = s.xy[base + k];
    const ox = sx - x, oy = sy - y, along = ox * gx + oy * gy;
    s.xy[base + k] = [x + along * gx + (ox - along * gx) * (1 - cut), y + along * gy + (oy - along * gy) * (1 - cut), sz];
  });
  return s;
}

const ATLAS_WIN: Rect = { x0: 0, y0: 0, w: ATLAS, h: ATLAS };
/** Atlas pixels per canonical unit (the face is about 1 wide). */
const PER_UNIT = ATLAS / 1.5;

const lipsAtlases = new Map<number, Float32Array>();
/**
 * The lips, a little grown: no part covers them; `drop` lowers their top edge (a moustache may hang over
 * the upper lip's top, never over the mouth).
 */
function lips(drop = 0): Float32Array {
  let a = lipsAtlases.get(drop);
  if (!a) {
    const { uv } = faceMeshTables();
    const outline = [...LIPS_UPPER_OUTER.map((i) => [uv[i][0], uv[i][1] + drop]), ...[...LIPS_LOWER_OUTER].reverse().map((i) => uv[i])]
      .map(([u, v]) => atlasPoint(u, v) as Pt);
    a = grow(fillPolygon(outline, ATLAS_WIN), ATLAS_WIN, 0.006 * PER_UNIT);
    lipsAtlases.set(drop, a);
  }
  return a;
}

const MOUSTACHE_FLOWS: readonly Flow[] = ['moustache', 'handlebar', 'imperial'];

const partAtlases = new WeakMap<BeardPart, Float32Array>();
/** A part's coverage on the atlas (0..1), softened by about 0.8 % of the face; the same for every face, so kept. */
export function partAtlas(part: BeardPart): Float32Array {
  let a = partAtlases.get(part);
  if (!a) {
    const filled = fillPolygon(part.outline.map(([u, v]) => atlasPoint(u, v) as Pt), ATLAS_WIN);
    a = feather(minus(filled, lips(MOUSTACHE_FLOWS.includes(part.flow) ? LIP_OVERHANG : 0)), ATLAS_WIN, 0.008 * PER_UNIT);
    partAtlases.set(part, a);
  }
  return a;
}

/** The whole preset's coverage on the atlas (the parts' union). */
export function presetAtlas(preset: BeardPreset): Float32Array {
  const out = new Float32Array(ATLAS * ATLAS);
  for (const p of preset.parts) {
    const a = partAtlas(p);
    for (let i = 0; i < out.length; i++) if (a[i] > out[i]) out[i] = a[i];
  }
  return out;
}

/** Where hair of a flow points at canonical (u, v), in canonical units (unnormalised). */
export function canonicalFlow(flow: Flow, u: number, v: number): [number, number] {
  const side = u - 0.5, s = Math.sign(side) || 1, a = Math.min(1, Math.abs(side) / 0.05);
  switch (flow) {
    case 'beard': return [0.5 * side * ramp(v, 0.5, 0.7) * (1 - ramp(v, 0.92, 1.08)), 1];
    case 'point': return [side * (0.45 * ramp(v, 0.5, 0.7) * (1 - ramp(v, 0.8, 0.95)) - 1.1 * ramp(v, 0.8, 0.95)), 1];
    case 'moustache': return [0.8 * s * a, 0.8 + 0.4 * (1 - a)];
    case 'handlebar': {
      const out = Math.abs(side);
      return [s * a * Math.max(0.25, 1 - 4 * Math.max(0, out - 0.17)), 0.5 * (1 - a) + 0.45 - 7 * Math.max(0, out - 0.1)];
    }
    case 'imperial': return [s * a, 0.5 * (1 - a) + 0.4 - 4 * Math.max(0, Math.abs(side) - 0.1)];
  }
}

export interface FaceShape {
  win: Rect;
  field: UvField;
  /** Face width in pixels (cheek to cheek on the mesh). */
  faceWidth: number;
  /** Each part's coverage over `win`, 0..1. */
  coverage: Float32Array[];
  /** The union of the parts. */
  union: Float32Array;
  /** The face's downward direction in the photo. */
  down: [number, number];
}

/**
 * The window a preset can reach on a face: the mesh and skirt points at or below the preset's highest
 * canonical point (less a margin), padded by its longest strand; within the face's window.
 */
export function presetWindow(preset: BeardPreset, mesh: readonly P3[], size: { width: number; height: number }, faceWidth: number): Rect {
  const full = faceWindow(mesh, size, BEARD_SKIRT);
  const top = Math.min(...preset.parts.flatMap((p) => p.outline.map(([, v]) => v))) - 0.06;
  const { xy, q } = beardSurface(mesh);
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  q.forEach(([, v], k) => {
    if (v < top) return;
    const [x, y] = xy[k];
    x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
  });
  const pad = (Math.max(...preset.parts.map((p) => p.length)) + 0.03) * faceWidth;
  const X0 = Math.max(full.x0, Math.floor(x0 - pad)), Y0 = Math.max(full.y0, Math.floor(y0 - pad));
  const X1 = Math.min(full.x0 + full.w, Math.ceil(x1 + pad)), Y1 = Math.min(full.y0 + full.h, Math.ceil(y1 + pad));
  return X1 > X0 && Y1 > Y0 ? { x0: X0, y0: Y0, w: X1 - X0, h: Y1 - Y0 } : full;
}

/** A preset's parts on one face (its 478-point mesh), over the window they can reach. */
export function faceShape(preset: BeardPreset, mesh: readonly P3[], size: { width: number; height: number }): FaceShape {
  const faceWidth = Math.hypot(mesh[454][0] - mesh[234][0], mesh[454][1] - mesh[234][1]);
  const win = presetWindow(preset, mesh, size, faceWidth);
  const { xy, q, tri } = beardSurface(mesh);
  const [u, v] = rasterPairs(xy, tri, q, win);
  const field: UvField = { u, v, win };
  const coverage = preset.parts.map((p) => sampleAtlas(partAtlas(p), field));
  const union = new Float32Array(win.w * win.h);
  for (const c of coverage) for (let i = 0; i < union.length; i++) if (c[i] > union[i]) union[i] = c[i];
  const dx = mesh[152][0] - mesh[168][0], dy = mesh[152][1] - mesh[168][1], n = Math.hypot(dx, dy) || 1;
  return { win, field, faceWidth, coverage, union, down: [dx / n, dy / n] };
}

/**
 * The direction (unit vector, photo pixels) hair of `flow` grows at every window pixel the mesh covers:
 * the canonical flow through the inverse of the mesh's local Jacobian d(u, v)/d(x, y). NaN off the mesh.
 * Over `rect` of the window only (row-major over the rect), all the window by default.
 */
export function directionField(f: FaceShape, flow: Flow, rect: Rect = { x0: 0, y0: 0, w: f.win.w, h: f.win.h }): { dx: Float32Array; dy: Float32Array } {
  const { u, v } = f.field, { w, h } = f.win;
  const rw = rect.w;
  const dx = new Float32Array(rw * rect.h).fill(NaN), dy = new Float32Array(dx.length).fill(NaN);
  const diff = (p: Float32Array, i: number, step: number, lo: boolean, hi: boolean) => {
    const a = lo ? p[i - step] : NaN, b = hi ? p[i + step] : NaN, c = p[i];
    if (a === a && b === b) return (b - a) / 2;
    if (b === b) return b - c;
    if (a === a) return c - a;
    return NaN;
  };
  for (let y = rect.y0; y < rect.y0 + rect.h; y++) {
    for (let x = rect.x0; x < rect.x0 + rect.w; x++) {
      const i = y * w + x, o = (y - rect.y0) * rw + x - rect.x0;
      if (u[i] !== u[i]) continue;
      const ux = diff(u, i, 1, x > 0, x < w - 1), vx = diff(v, i, 1, x > 0, x < w - 1);
      const uy = diff(u, i, w, y > 0, y < h - 1), vy = diff(v, i, w, y > 0, y < h - 1);
      const det = ux * vy - uy * vx;
      if (!(Math.abs(det) > 1e-12)) continue;
      const [du, dv] = canonicalFlow(flow, u[i], v[i]);
      const X = (vy * du - uy * dv) / det, Y = (-vx * du + ux * dv) / det;
      const n = Math.hypot(X, Y);
      if (n > 0) { dx[o] = X / n; dy[o] = Y / n; }
    }
  }
  return { dx, dy };
}

export type { BeardPart };
