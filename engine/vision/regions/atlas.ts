/**
 * The soft face regions drawn once on the canonical face (u across from the subject's right, v down;
 * see uv-map.ts), as ATLAS x ATLAS coverage planes. Shapes are outlines of mesh points where the mesh has
 * them (eyes, brows, lips, outline) and hand-placed canonical coordinates where it does not (cheeks,
 * chin, beard line); each is softened on the atlas so it fades rather than stops.
 */
import type { Rect } from '../../image/rect.ts';
import { faceMeshTables } from '../models/human.ts';
import { FACE_OVAL, LEFT_BROW, LEFT_EYE, LIPS_LOWER_OUTER, LIPS_UPPER_OUTER, RIGHT_BROW, RIGHT_EYE } from '../faces/landmarks.ts';
import { feather, grow, minus, times, union } from '../../image/feather.ts';
import { fillPolygon, type Pt } from '../../image/polygon.ts';
import { ATLAS, atlasPoint } from './uv-map.ts';

export type AtlasName = 'skin' | 'forehead' | 'leftCheek' | 'rightCheek' | 'leftUnderEye' | 'rightUnderEye' | 'nose' | 'tZone' | 'chin' | 'jaw' | 'beard' | 'moustache';

const WIN: Rect = { x0: 0, y0: 0, w: ATLAS, h: ATLAS };
/** Softening on the atlas, in canonical units (the face is 1 wide). */
const SOFT = 0.014;
const px = (canonical: number) => (canonical / 1.5) * ATLAS;

const uvOf = (idx: readonly number[]): [number, number][] => idx.map((i) => faceMeshTables().uv[i]);
const mirror = (pts: readonly (readonly [number, number])[]): [number, number][] => pts.map(([u, v]) => [1 - u, v]);
const shift = (pts: [number, number][], dv: number): [number, number][] => pts.map(([u, v]) => [u, v + dv]);
const poly = (pts: readonly (readonly [number, number])[]): Float32Array => fillPolygon(pts.map(([u, v]) => atlasPoint(u, v) as Pt), WIN);
/** The outline scaled about its centre, e.g. 1.1 = 10% beyond the face. */
const oval = (scale = 1) => {
  const pts = uvOf(FACE_OVAL);
  const cu = pts.reduce((s, p) => s + p[0], 0) / pts.length, cv = pts.reduce((s, p) => s + p[1], 0) / pts.length;
  return poly(pts.map(([u, v]) => [cu + (u - cu) * scale, cv + (v - cv) * scale]));
};
/** A soft ramp across v: 0 above v0, 1 below v1. */
const below = (v0: number, v1: number) => {
  const p = new Float32Array(ATLAS * ATLAS);
  for (let y = 0; y < ATLAS; y++) {
    const v = ((y + 0.5) / ATLAS) * 1.5 - 0.25;
    p.fill(Math.min(1, Math.max(0, (v - v0) / (v1 - v0))), y * ATLAS, (y + 1) * ATLAS);
  }
  return p;
};

const CHEEK: [number, number][] = [[0.04, 0.47], [0.17, 0.45], [0.25, 0.48], [0.34, 0.49], [0.4, 0.52], [0.405, 0.58], [0.37, 0.64], [0.33, 0.69], [0.22, 0.72], [0.1, 0.68], [0.03, 0.58]];
const NOSE: [number, number][] = [[0.455, 0.36], [0.545, 0.36], [0.56, 0.47], [0.6, 0.56], [0.59, 0.6], [0.5, 0.615], [0.41, 0.6], [0.4, 0.56], [0.44, 0.47]];
const CHIN: [number, number][] = [[0.39, 0.77], [0.61, 0.77], [0.66, 0.84], [0.6, 0.93], [0.5, 0.97], [0.4, 0.93], [0.34, 0.84]];
const GLABELLA: [number, number][] = [[0.44, 0.24], [0.56, 0.24], [0.56, 0.37], [0.44, 0.37]];
const BEARD_TOP: [number, number][] = [[-0.1, 0.48], [0.12, 0.55], [0.25, 0.6], [0.36, 0.615], [0.41, 0.622], [0.5, 0.63], [0.59, 0.622], [0.64, 0.615], [0.75, 0.6], [0.88, 0.55], [1.1, 0.48]];
const UPPER_LIP_OUTER_BACK = [291, 409, 270, 269, 267, 0, 37, 39, 40, 185, 61];

function build(name: AtlasName): Float32Array {
  const soft = (p: Float32Array, s = SOFT) => feather(p, WIN, px(s));
  const face = oval();
  /** Softened first, then kept within the outline (softening would carry it past). */
  const inFace = (p: Float32Array, s = SOFT) => times(soft(p, s), soft(oval(0.97), 0.006));
  const lips = poly(uvOf([...LIPS_UPPER_OUTER, ...[...LIPS_LOWER_OUTER].reverse()]));
  switch (name) {
    case 'skin': {
      const holes = union(grow(union(poly(uvOf(RIGHT_EYE)), poly(uvOf(LEFT_EYE))), WIN, px(0.025)),
        grow(union(poly(uvOf(RIGHT_BROW)), poly(uvOf(LEFT_BROW))), WIN, px(0.015)), grow(lips, WIN, px(0.02)));
      return times(soft(minus(face, holes)), soft(oval(0.97), 0.006));
    }
    case 'forehead': {
      // Above the brows (from the subject's right temple to the left one), dipping between them.
      const line = [...shift(uvOf([70, 63, 105, 66, 107]), -0.025), [0.5, 0.235] as [number, number], ...shift(uvOf([336, 296, 334, 293, 300]), -0.025)];
      const [first, last] = [line[0], line[line.length - 1]];
      return inFace(poly([[-0.1, -0.2], [1.1, -0.2], [1.1, last[1]], ...[...line].reverse(), [-0.1, first[1]]]));
    }
    case 'rightCheek': return inFace(poly(CHEEK), 0.025);
    case 'leftCheek': return inFace(poly(mirror(CHEEK)), 0.025);
    case 'rightUnderEye': return soft(poly([...shift(uvOf([33, 7, 163, 144, 145, 153, 154, 155, 133]), 0.012), ...shift(uvOf([245, 128, 121, 120, 119, 118, 117, 111, 143]), 0.01)]), 0.01);
    case 'leftUnderEye': return soft(poly([...shift(uvOf([263, 249, 390, 373, 374, 380, 381, 382, 362]), 0.012), ...shift(uvOf([465, 357, 350, 349, 348, 347, 346, 340, 372]), 0.01)]), 0.01);
    case 'nose': return soft(poly(NOSE), 0.01);
    case 'tZone': {
      const forehead = build('forehead');
      const central = poly([[0.34, -0.2], [0.66, -0.2], [0.66, 0.4], [0.34, 0.4]]);
      return soft(union(times(forehead, soft(central, 0.03)), poly(GLABELLA), poly(NOSE)), 0.01);
    }
    case 'chin': return inFace(poly(CHIN), 0.02);
    case 'jaw': return soft(times(minus(oval(1.06), oval(0.84)), below(0.5, 0.6)), 0.01);
    case 'beard': {
      // Past the outline only under the jaw and chin (the neck), not beside the cheeks.
      const bound = union(face, times(oval(1.15), below(0.72, 0.85)));
      const area = times(poly([...BEARD_TOP, [1.1, 1.3], [-0.1, 1.3]]), bound);
      return soft(minus(area, grow(lips, WIN, px(0.012))), 0.015);
    }
    case 'moustache': {
      const top: [number, number][] = [[0.355, 0.7], [0.38, 0.625], [0.5, 0.628], [0.62, 0.625], [0.645, 0.7]];
      return soft(minus(poly([...top, ...uvOf(UPPER_LIP_OUTER_BACK)]), lips), 0.008);
    }
  }
}

const cache = new Map<AtlasName, Float32Array>();

/** The region's atlas; built on first use and kept (it is the same for every face). */
export function atlas(name: AtlasName): Float32Array {
  let p = cache.get(name);
  if (!p) { p = build(name); cache.set(name, p); }
  return p;
}
