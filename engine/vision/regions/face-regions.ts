/**
 * Face regions as soft masks at full image resolution, from a face's 478-point mesh. Regions whose edge
 * matters (lips, mouth, eyes, iris, pupil, brows, outline) are drawn from the mesh's dense contours with
 * anti-aliasing, and with an image the lips, mouth and iris are snapped to the photo's edges. The others
 * (skin, forehead, cheeks, ...) are drawn on the canonical face and follow the mesh (uv-map.ts), softly.
 */
import { toMask, type Mask, type MaskPlane } from '../../image/mask.ts';
import type { RasterImage } from '../../image/raster.ts';
import type { Rect } from '../../image/rect.ts';
import type { Face } from '../faces/detect.ts';
import {
  FACE_OVAL, LEFT_BROW, LEFT_EYE, LEFT_IRIS, LIPS_LOWER_INNER, LIPS_LOWER_OUTER, LIPS_UPPER_INNER, LIPS_UPPER_OUTER,
  RIGHT_BROW, RIGHT_EYE, RIGHT_IRIS,
} from '../faces/landmarks.ts';
import { atlas, type AtlasName } from './atlas.ts';
import { feather, featherReach, times } from '../../image/feather.ts';
import { fillDisc, fillPolygon, type Pt } from '../../image/polygon.ts';
import { refineEdges } from './refine.ts';
import { faceWindow, sampleAtlasCropped, uvField, type UvField } from './uv-map.ts';

export type RegionName = 'faceOval' | 'skin' | 'upperLip' | 'lowerLip' | 'mouthOpening' | 'leftEye' | 'rightEye' | 'leftIris' | 'rightIris' | 'leftPupil' | 'rightPupil' | 'leftBrow' | 'rightBrow' | 'forehead' | 'leftCheek' | 'rightCheek' | 'leftUnderEye' | 'rightUnderEye' | 'nose' | 'tZone' | 'chin' | 'jaw' | 'beard' | 'moustache';

export const REGION_NAMES: readonly RegionName[] = ['faceOval', 'skin', 'upperLip', 'lowerLip', 'mouthOpening', 'leftEye', 'rightEye', 'leftIris', 'rightIris',
  'leftPupil', 'rightPupil', 'leftBrow', 'rightBrow', 'forehead', 'leftCheek', 'rightCheek', 'leftUnderEye', 'rightUnderEye', 'nose', 'tZone', 'chin', 'jaw', 'beard', 'moustache'];

const SOFT: readonly RegionName[] = ['skin', 'forehead', 'leftCheek', 'rightCheek', 'leftUnderEye', 'rightUnderEye', 'nose', 'tZone', 'chin', 'jaw', 'beard', 'moustache'];

/** Pupil radius over iris radius (a typical indoor pupil). */
const PUPIL = 0.4;

/**
 * The requested regions (all by default) of one face. Left and right are the subject's. A face without a
 * mesh (beyond detectFaces' meshFaces) has no regions. With `image`, lips, mouth and iris follow its edges.
 */
export function faceRegions(face: Face, size: { width: number; height: number }, image?: RasterImage, names: readonly RegionName[] = REGION_NAMES): Partial<Record<RegionName, Mask>> {
  const planes = faceRegionPlanes(face, size, image, names);
  const out: Partial<Record<RegionName, Mask>> = {};
  for (const name of names) { const r = planes[name]; if (r) out[name] = toMask(r.plane, r.win, size); }
  return out;
}

/**
 * The regions as faceRegions draws them, each over its own window only: for a caller that reads a region at
 * a few pixels (the part measures), the full-size masks were most of the cost. toMask makes one a mask.
 */
export function faceRegionPlanes(face: Face, size: { width: number; height: number }, image?: RasterImage, names: readonly RegionName[] = REGION_NAMES): Partial<Record<RegionName, MaskPlane>> {
  const mesh = face.mesh;
  if (!mesh || mesh.length < 478) return {};
  const faceWidth = Math.hypot(mesh[454][0] - mesh[234][0], mesh[454][1] - mesh[234][1]);
  const pts = (idx: readonly number[]): Pt[] => idx.map((i) => mesh[i]);
  /** A window around some mesh points, `margin` pixels wider on every side, within the image. */
  const around = (idx: readonly number[], margin: number): Rect => {
    const p = pts(idx);
    const x0 = Math.max(0, Math.floor(Math.min(...p.map((q) => q[0])) - margin)), y0 = Math.max(0, Math.floor(Math.min(...p.map((q) => q[1])) - margin));
    const x1 = Math.min(size.width, Math.ceil(Math.max(...p.map((q) => q[0])) + margin)), y1 = Math.min(size.height, Math.ceil(Math.max(...p.map((q) => q[1])) + margin));
    return { x0, y0, w: Math.max(1, x1 - x0), h: Math.max(1, y1 - y0) };
  };
  const snap = (p: Float32Array, win: Rect, kind: 'luma' | 'redness', r: number) => (image ? refineEdges(p, win, image, kind, r) : p);
  let soft: { win: Rect; field: UvField } | undefined;
  const out: Partial<Record<RegionName, MaskPlane>> = {};
  for (const name of names) {
    if (SOFT.includes(name)) {
      if (!soft) { const win = faceWindow(mesh, size); soft = { win, field: uvField(mesh, win) }; }
      // Each over its own part of the face's window (the atlas's reach plus the feather's): the same values.
      const sigma = 0.006 * faceWidth, part = sampleAtlasCropped(atlas(name as AtlasName), soft.field, featherReach(sigma));
      out[name] = { plane: feather(part.plane, part.win, sigma), win: part.win };
    } else out[name] = hard(name);
  }
  return out;

  function shape(idx: readonly number[], blur: number, guide?: 'luma' | 'redness') {
    const r = Math.max(1, 0.006 * faceWidth);
    const win = around(idx, Math.ceil(3 * Math.max(blur, r) + 2));
    let plane = fillPolygon(pts(idx), win);
    if (guide) plane = snap(plane, win, guide, r);
    return { plane: feather(plane, win, blur), win };
  }

  function hard(name: RegionName): MaskPlane {
    switch (name) {
      case 'faceOval': return shape(FACE_OVAL, 0.004 * faceWidth);
      case 'upperLip': return shape([...LIPS_UPPER_OUTER, ...[...LIPS_UPPER_INNER].reverse()], 0, 'redness');
      case 'lowerLip': return shape([...LIPS_LOWER_OUTER, ...[...LIPS_LOWER_INNER].reverse()], 0, 'redness');
      case 'mouthOpening': return shape([...LIPS_UPPER_INNER, ...[...LIPS_LOWER_INNER].reverse()], 0, 'luma');
      case 'rightEye': return shape(RIGHT_EYE, 0);
      case 'leftEye': return shape(LEFT_EYE, 0);
      case 'rightIris': return iris(RIGHT_IRIS, RIGHT_EYE, 1);
      case 'leftIris': return iris(LEFT_IRIS, LEFT_EYE, 1);
      case 'rightPupil': return iris(RIGHT_IRIS, RIGHT_EYE, PUPIL);
      case 'leftPupil': return iris(LEFT_IRIS, LEFT_EYE, PUPIL);
      case 'rightBrow': return shape(RIGHT_BROW, 0.003 * faceWidth);
      case 'leftBrow': return shape(LEFT_BROW, 0.003 * faceWidth);
      default: throw new Error(`unknown face region ${name}`);
    }
  }

  /** A disc around the iris centre, `k` times the iris radius, inside the eye opening (the lids cover the rest). */
  function iris(ring: { center: number; ring: number[] }, eye: readonly number[], k: number) {
    const [cx, cy] = mesh![ring.center];
    const r = ring.ring.reduce((s, i) => s + Math.hypot(mesh![i][0] - cx, mesh![i][1] - cy), 0) / ring.ring.length;
    const win = around([...eye, ring.center], Math.ceil(r) + 4);
    const disc = fillDisc(cx, cy, r * k, win);
    const shaped = k === 1 ? snap(disc, win, 'luma', Math.max(1, r / 4)) : disc;
    return { plane: times(shaped, fillPolygon(pts(eye), win)), win };
  }
}

/** The window (image pixels) that a face's regions can cover. */
export const regionWindow = (face: Face, size: { width: number; height: number }): Rect | null => (face.mesh ? faceWindow(face.mesh, size) : null);
