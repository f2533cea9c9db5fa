/**
 * The zones skin is measured in, as 0..1 planes over the frame: skin itself (the parsing's skin and nose
 * without eyes, brows, lips, nostrils, hair, glasses and hats; the guard bands here are 1 mm, not the
 * retouch's wide ones, so under-eye skin and crow's feet stay in), the mesh atlas regions (forehead, cheeks,
 * under-eye, nose, T-zone, chin, jaw) and the zones the atlas lacks, drawn in millimetres from mesh points:
 * glabella, crow's feet beside the outer eye corners, the nasolabial band from the nose wing to past the
 * mouth corner (in the face's own proportions, faceMm). Every zone is kept within skin.
 */
import type { Rect } from '../../../image/rect.ts';
import type { Face } from '../../../vision/faces/detect.ts';
import { LEFT_BROW, LEFT_EYE, LIPS_LOWER_OUTER, LIPS_UPPER_OUTER, RIGHT_BROW, RIGHT_EYE } from '../../../vision/faces/landmarks.ts';
import { sampleParsing, type FaceParsing, type ImageLattice, type ParseOptions, type ParsingClass, type ParsingSample } from '../../../vision/parsing/face-parsing.ts';
import { feather, grow, minus, times, union } from '../../../image/feather.ts';
import { faceRegions, type RegionName } from '../../../vision/regions/face-regions.ts';
import { fillPolygon, type Pt } from '../../../image/polygon.ts';
import { convexHull, LEFT_NOSTRIL, RIGHT_NOSTRIL } from '../../../vision/regions/skin-mask.ts';
import { LESION_CLEAR, ZONE_PX_PER_MM } from '../tuning.ts';
import { FACE_MM, resamplePlane, type Frame, type P2 } from './frame.ts';
import type { ZoneName, Zones } from './names.ts';

/** Glabella: between the inner brow ends, from the forehead above them down to the nasion. */
export const GLABELLA = [107, 9, 336, 285, 417, 168, 193, 55];

const add = (a: P2, b: P2, k = 1): P2 => [a[0] + b[0] * k, a[1] + b[1] * k];
const unit = (a: P2, b: P2): P2 => { const d = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1; return [(b[0] - a[0]) / d, (b[1] - a[1]) / d]; };

/** Crow's feet: a trapezoid fanning out from 5 to 18 mm beyond the outer eye corner (nearer, the corner's own shadow and lashes read as lines). */
export function crowsFeetPolygon(mesh: readonly P2[], side: 'right' | 'left', s: number): P2[] {
  const [outer, inner] = side === 'right' ? [33, 133] : [263, 362];
  const u = unit(mesh[inner], mesh[outer]);
  const v: P2 = side === 'right' ? [-u[1], u[0]] : [u[1], -u[0]];
  const c = mesh[outer];
  const at = (along: number, across: number) => add(add(c, u, along * s), v, across * s);
  return [at(5, -5), at(18, -9), at(18, 11), at(5, 6)];
}

/**
 * Nasolabial band: 10 face-mm wide, from beside the nose wing to 6 face-mm below and beyond the mouth
 * corner, `s` being pixels per face-mm (faceMm), not per iris millimetre: the band is a place on the face,
 * and where the iris reads a face wider than FACE_MM (a full, broad face, or glasses that shrink the
 * iris) the fold lies that much further from the mesh's wing and corner; drawn in iris mm, the band held
 * only the top of such a face's fold. A child's narrower face gets a band as much smaller.
 */
export function nasolabialPolygon(mesh: readonly P2[], side: 'right' | 'left', s: number): P2[] {
  const [wing, corner] = side === 'right' ? [129, 61] : [358, 291];
  const out = unit(side === 'right' ? mesh[454] : mesh[234], side === 'right' ? mesh[234] : mesh[454]);
  const down = unit(mesh[168], mesh[152]);
  const a = add(add(mesh[wing], out, 2 * s), down, -2 * s), b = add(add(mesh[corner], out, 4 * s), down, 6 * s);
  return [add(a, out, -3 * s), add(a, out, 7 * s), add(b, out, 7 * s), add(b, out, -3 * s)];
}

/**
 * The parsing the zones read: only these classes need bringing to full resolution (ParseOptions.classes).
 * The model's input stays 512: at 384 small comedones were lost (docs/experiments/skin-analysis-advanced.md#the-face-parse-at-512-px).
 */
export const SKIN_PARSING: ParseOptions = { classes: ['skin', 'nose', 'rightBrow', 'leftBrow', 'hair', 'glasses', 'hat', 'earring', 'cloth'] };

/**
 * The grid the zones are drawn on (ZONE_PX_PER_MM, at most the frame's own), and the image pixels under
 * its cells' centres: the only places the zones read the parsing (parseFaceAt computes it just there).
 */
export function zoneGrid(f: Frame): { zk: number; zw: number; zh: number; at: ImageLattice } {
  const zk = Math.min(1, ZONE_PX_PER_MM / f.s);
  const zw = Math.max(1, Math.round(f.w * zk)), zh = Math.max(1, Math.round(f.h * zk));
  const cols = Int32Array.from({ length: zw }, (_, x) => Math.floor(f.win.x0 + ((x + 0.5) * f.win.w) / zw));
  const rows = Int32Array.from({ length: zh }, (_, y) => Math.floor(f.win.y0 + ((y + 0.5) * f.win.h) / zh));
  return { zk, zw, zh, at: { cols, rows } };
}

/** All zones of one face over its frame, from its parsing (in full, or at zoneGrid(f).at). */
export function skinZones(f: Frame, face: Face, parsing: FaceParsing | ParsingSample): Zones {
  const { zk, zw, zh, at } = zoneGrid(f);
  const sample = 'at' in parsing ? parsing : sampleParsing(parsing, at);
  if (!sameLattice(sample.at, at)) throw new Error('skinZones: the parsing was sampled on another grid than the zones\' (zoneGrid)');
  const kx = zw / f.w, ky = zh / f.h;
  const mesh = f.mesh.map(([x, y]) => [x * kx, y * ky] as P2);
  const zones = drawZones(mesh, f.s * zk, zw, zh, f, face, sample);
  if (zk === 1) return zones;
  // Skin's edge shows in the maps: bilinear. The other zones only gate measures: nearest grid cell.
  const out = {} as Zones;
  const xs = new Int32Array(f.w), ys = new Int32Array(f.h);
  for (let x = 0; x < f.w; x++) xs[x] = Math.min(zw - 1, Math.floor(((x + 0.5) * zw) / f.w));
  for (let y = 0; y < f.h; y++) ys[y] = Math.min(zh - 1, Math.floor(((y + 0.5) * zh) / f.h));
  for (const [name, p] of Object.entries(zones) as [ZoneName, Float32Array][]) {
    if (name === 'skin' || name === 'lesions') {
      const v = resamplePlane(p, zw, zh, f.w, f.h);
      for (let i = 0; i < v.length; i++) v[i] = v[i] >= 0.5 ? 1 : v[i] < 0.02 ? 0 : v[i];
      out[name] = v;
      continue;
    }
    out[name] = nearestUp(p, zw, zh, xs, ys, f.w, f.h);
  }
  return out;
}

/**
 * A grid plane brought up to w x h by the grid cell under each pixel (xs, ys: nondecreasing). Most zones
 * are a small part of the face: only their nonzero cells' extent is filled, and a row whose cells are
 * the row above's is copied.
 */
export function nearestUp(p: Float32Array, zw: number, zh: number, xs: Int32Array, ys: Int32Array, w: number, h: number): Float32Array {
  const v = new Float32Array(w * h);
  let gx0 = zw, gx1 = -1, gy0 = zh, gy1 = -1;
  for (let gy = 0; gy < zh; gy++) {
    for (let gx = 0, i = gy * zw; gx < zw; gx++, i++) {
      if (p[i] !== 0) { if (gx < gx0) gx0 = gx; if (gx > gx1) gx1 = gx; if (gy < gy0) gy0 = gy; gy1 = gy; }
    }
  }
  if (gx1 < 0) return v;
  let xa = 0, xb = w - 1, ya = 0, yb = h - 1;
  while (xs[xa] < gx0) xa++;
  while (xs[xb] > gx1) xb--;
  while (ys[ya] < gy0) ya++;
  while (ys[yb] > gy1) yb--;
  for (let y = ya; y <= yb; y++) {
    const o = y * w;
    if (y > ya && ys[y] === ys[y - 1]) { v.copyWithin(o + xa, o - w + xa, o - w + xb + 1); continue; }
    const row = ys[y] * zw;
    for (let x = xa; x <= xb; x++) v[o + x] = p[row + xs[x]];
  }
  return v;
}

const sameLattice = (a: ImageLattice, b: ImageLattice) =>
  a.cols.length === b.cols.length && a.rows.length === b.rows.length && a.cols.every((v, i) => v === b.cols[i]) && a.rows.every((v, i) => v === b.rows[i]);

/** Parsing classes (summed, ≤ 1) at the centre of each cell of the zone grid (the sample's lattice). */
function parsingGrid(sample: ParsingSample, classes: readonly ParsingClass[]): Float32Array {
  const n = sample.at.cols.length * sample.at.rows.length, out = new Float32Array(n);
  const planes = classes.map((c) => sample.classes[c]).filter((p): p is Uint8Array => !!p);
  if (!planes.length) return out;
  for (let i = 0; i < n; i++) {
    let v = 0;
    for (const p of planes) v += p[i];
    out[i] = Math.min(255, v) / 255;
  }
  return out;
}

function drawZones(mesh: P2[], s: number, w: number, h: number, f: Frame, face: Face, parsing: ParsingSample): Zones {
  const win: Rect = { x0: 0, y0: 0, w, h };
  const pts = (idx: readonly number[]) => idx.map((i) => mesh[i] as Pt);
  const poly = (p: readonly Pt[]) => fillPolygon(p, win);
  const fromParsing = (classes: readonly ParsingClass[]) => parsingGrid(parsing, classes);
  // Class probabilities made hard at 0.5 before growing: grow() lifts any faint probability to full.
  const hard = (p: Float32Array) => { for (let i = 0; i < p.length; i++) p[i] = p[i] >= 0.5 ? 1 : 0; return p; };
  const eyes = union(poly(pts(RIGHT_EYE)), poly(pts(LEFT_EYE)));
  const brows = union(poly(pts(RIGHT_BROW)), poly(pts(LEFT_BROW)), hard(fromParsing(['rightBrow', 'leftBrow'])));
  const lips = poly(pts([...LIPS_UPPER_OUTER, ...[...LIPS_LOWER_OUTER].reverse()]));
  const nostrils = union(poly(convexHull(pts(RIGHT_NOSTRIL))), poly(convexHull(pts(LEFT_NOSTRIL))));
  const features = union(grow(eyes, win, 1.5 * s), grow(brows, win, 1.5 * s), grow(lips, win, 1.5 * s), grow(nostrils, win, 1 * s));
  const notSkin = grow(hard(fromParsing(['hair', 'glasses', 'hat', 'earring', 'cloth'])), win, 1 * s);
  const skin = minus(fromParsing(['skin', 'nose']), features, notSkin);
  for (let i = 0; i < skin.length; i++) skin[i] = skin[i] > 0.5 ? 1 : 0;
  // Lesions only on skin clear of eye make-up and lashes and of glasses' frames, which the parse draws thin (LESION_CLEAR).
  const lesions = minus(skin, grow(eyes, win, LESION_CLEAR.eyesMm * s), grow(hard(fromParsing(['glasses'])), win, LESION_CLEAR.glassesMm * s), grow(brows, win, LESION_CLEAR.browsMm * s));

  const zk = w / f.w;
  const scaled: Face = { ...face, mesh: face.mesh!.map((p, i) => [mesh[i][0], mesh[i][1], p[2] * f.k * zk]) };
  const names: RegionName[] = ['forehead', 'rightCheek', 'leftCheek', 'rightUnderEye', 'leftUnderEye', 'nose', 'chin', 'jaw', 'tZone'];
  const atlas = faceRegions(scaled, { width: w, height: h }, undefined, names);
  const plane = (n: RegionName) => { const m = atlas[n]!; const p = new Float32Array(m.data.length); for (let i = 0; i < p.length; i++) p[i] = m.data[i] / 255; return p; };
  const inSkin = (p: Float32Array) => times(p, skin);
  // Under the eye, lashes and the lid margin's shadow reach about 2 mm below the lid: lines are not read there.
  const lidGuard = grow(eyes, win, 3 * s);
  const glabella = feather(poly(pts(GLABELLA)), win, 0.5 * s);
  return {
    skin,
    lesions,
    forehead: inSkin(minus(plane('forehead'), glabella)),
    glabella: inSkin(glabella),
    rightCrowsFeet: inSkin(poly(crowsFeetPolygon(mesh, 'right', s))),
    leftCrowsFeet: inSkin(poly(crowsFeetPolygon(mesh, 'left', s))),
    rightUnderEye: inSkin(minus(plane('rightUnderEye'), lidGuard)),
    leftUnderEye: inSkin(minus(plane('leftUnderEye'), lidGuard)),
    rightCheek: inSkin(plane('rightCheek')),
    leftCheek: inSkin(plane('leftCheek')),
    rightNasolabial: inSkin(poly(nasolabialPolygon(mesh, 'right', faceMm(scaled.mesh!)))),
    leftNasolabial: inSkin(poly(nasolabialPolygon(mesh, 'left', faceMm(scaled.mesh!)))),
    nose: inSkin(plane('nose')),
    chin: inSkin(plane('chin')),
    jaw: inSkin(plane('jaw')),
    tZone: inSkin(plane('tZone')),
  };
}

/** Pixels per face-mm: the face's cheek-to-cheek width (mesh 234-454, in 3D: a turned face keeps it) over FACE_MM. */
export function faceMm(mesh: readonly (readonly number[])[]): number {
  const a = mesh[234], b = mesh[454];
  return Math.hypot(a[0] - b[0], a[1] - b[1], (a[2] ?? 0) - (b[2] ?? 0)) / FACE_MM;
}

/** Area of a zone in mm² (its plane summed, over the frame's scale). */
export const zoneArea = (zone: Float32Array, s: number) => { let a = 0; for (const v of zone) a += v; return a / (s * s); };
