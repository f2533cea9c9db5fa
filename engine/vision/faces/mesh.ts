/**
 * Face mesh (468 points + "face present" score) on an upright crop, and the iris model on full-resolution
 * eye crops, which refines the eye contours and adds 10 iris points. All coordinates in image pixels;
 * z in the same pixel scale (the mesh model's z uses its x units), negative toward the camera.
 */
import type { RasterImage } from '../../image/raster.ts';
import type { TensorLike, TfLike } from '../models/human.ts';
import type { GraphModelLike } from './blazeface.ts';
import { cropRoi, roiPoint, type Roi } from './crop.ts';
import { IRIS_REFINES, LEFT_EYE_CORNERS, RIGHT_EYE_CORNERS } from './landmarks.ts';

export type P3 = [number, number, number];

const MESH_INPUT = 192;
const IRIS_INPUT = 64;
/** Crop side over the face size (MediaPipe's face-landmark ROI scale). */
export const ROI_SCALE = 1.5;
/** Eye crop side over the corner-to-corner distance (MediaPipe iris ROI). */
const EYE_SCALE = 2.3;

export interface MeshResult { mesh: P3[]; score: number; roi: Roi }

/** Faces per model call: the wasm backend runs a batch of several faces in about half the time of one call each. */
const BATCH = 8;

type TfConcat = TfLike & { concat(t: TensorLike[], axis: number): TensorLike };

/** Runs the mesh model on each ROI (batched). */
export async function runMesh(tf: TfLike, model: GraphModelLike, image: RasterImage, rois: Roi[]): Promise<MeshResult[]> {
  const results: MeshResult[] = [];
  for (let b = 0; b < rois.length; b += BATCH) {
    const batch = rois.slice(b, b + BATCH);
    const t: Record<string, TensorLike> = {};
    let outs: TensorLike[] = [];
    try {
      const crops = await Promise.all(batch.map((roi) => cropRoi(tf, image, roi, MESH_INPUT)));
      crops.forEach((c, i) => { t[`crop${i}`] = c; });
      t.input = crops.length === 1 ? crops[0] : (tf as TfConcat).concat(crops, 0);
      const y = model.execute(t.input);
      outs = Array.isArray(y) ? y : [y];
      const coords = await outs.find((o) => o.shape[o.shape.length - 1] === 1404)!.data();
      const flags = await outs.find((o) => o.shape[o.shape.length - 1] === 1)!.data();
      batch.forEach((roi, k) => {
        const zs = roi.size / MESH_INPUT, o = k * 1404;
        const mesh: P3[] = [];
        for (let i = 0; i < 468; i++) {
          const [x, y2] = roiPoint(roi, MESH_INPUT, coords[o + 3 * i], coords[o + 3 * i + 1]);
          mesh.push([x, y2, coords[o + 3 * i + 2] * zs]);
        }
        results.push({ mesh, score: flags[k], roi });
      });
    } finally {
      tf.dispose([...Object.values(t), ...outs]);
    }
  }
  return results;
}

/** The ROI the mesh itself implies: upright along the eye corners, around the mesh's extent, scaled. */
export function roiFromMesh(mesh: P3[]): Roi {
  const a = mesh[RIGHT_EYE_CORNERS[0]], b = mesh[LEFT_EYE_CORNERS[0]];
  const angle = Math.atan2(b[1] - a[1], b[0] - a[0]);
  const c = Math.cos(angle), s = Math.sin(angle);
  let u0 = Infinity, u1 = -Infinity, v0 = Infinity, v1 = -Infinity;
  for (let i = 0; i < 468; i++) {
    const [x, y] = mesh[i];
    const u = c * x + s * y, v = -s * x + c * y;
    if (u < u0) u0 = u; if (u > u1) u1 = u;
    if (v < v0) v0 = v; if (v > v1) v1 = v;
  }
  const cu = (u0 + u1) / 2, cv = (v0 + v1) / 2;
  return { cx: c * cu - s * cv, cy: s * cu + c * cv, size: Math.max(u1 - u0, v1 - v0) * ROI_SCALE, angle };
}

/**
 * Refines the eyes with the iris model and appends the iris points (468-472 right, 473-477 left).
 * The model reads right eyes (the subject's: on the image's left), so the left eye's crop is mirrored.
 * (Mirroring the other one instead scrambles the contour order: 230 of the mesh's 880 triangles fold
 * over on a frontal portrait, against 30 at the lips and outline this way.)
 */
export async function addIris(tf: TfConcat, model: GraphModelLike, image: RasterImage, meshes: P3[][]): Promise<P3[][]> {
  const eyeRoi = (mesh: P3[], outer: number, inner: number): Roi => {
    const a = mesh[outer], b = mesh[inner];
    const dist = Math.hypot(b[0] - a[0], b[1] - a[1]);
    // The face's own roll (corner to corner across the face), not the eye's slant.
    const angle = Math.atan2(mesh[LEFT_EYE_CORNERS[0]][1] - mesh[RIGHT_EYE_CORNERS[0]][1], mesh[LEFT_EYE_CORNERS[0]][0] - mesh[RIGHT_EYE_CORNERS[0]][0]);
    return { cx: (a[0] + b[0]) / 2, cy: (a[1] + b[1]) / 2, size: Math.max(1, dist * EYE_SCALE), angle };
  };
  const results: P3[][] = [];
  for (let b = 0; b < meshes.length; b += BATCH) {
    const batch = meshes.slice(b, b + BATCH);
    const rois = batch.map((mesh) => [eyeRoi(mesh, ...RIGHT_EYE_CORNERS), eyeRoi(mesh, ...LEFT_EYE_CORNERS)] as const);
    const t: Record<string, TensorLike> = {};
    let data: ArrayLike<number>;
    try {
      const crops = await Promise.all(rois.flatMap(([r, l]) => [cropRoi(tf, image, r, IRIS_INPUT, false), cropRoi(tf, image, l, IRIS_INPUT, true)]));
      crops.forEach((c, i) => { t[`crop${i}`] = c; });
      t.batch = tf.concat(crops, 0);
      t.out = model.execute(t.batch) as TensorLike;
      data = await t.out.data();
    } finally {
      tf.dispose(t);
    }
    batch.forEach((mesh, k) => results.push(mergeIris(mesh, data, k * 2 * 76 * 3, rois[k][0], rois[k][1])));
  }
  return results;
}

/** The mesh with the iris model's eye contours merged in and its 10 iris points appended. */
function mergeIris(mesh: P3[], data: ArrayLike<number>, at: number, rRoi: Roi, lRoi: Roi): P3[] {
  const per = 76 * 3;
  const eye = (offset: number, roi: Roi, flip: boolean): P3[] => {
    const pts: P3[] = [];
    for (let i = 0; i < 76; i++) {
      const [x, y] = roiPoint(roi, IRIS_INPUT, data[offset + 3 * i], data[offset + 3 * i + 1], flip);
      pts.push([x, y, data[offset + 3 * i + 2] * (roi.size / IRIS_INPUT)]);
    }
    return pts;
  };
  const right = eye(at, rRoi, false), left = eye(at + per, lRoi, true);
  const out = mesh.map((p) => [...p] as P3);
  // Merge the eye contours as MediaPipe does: all of them when the face is frontal, only the lid margins
  // of the nearer eye when it turns (the far eye's contours drift from the mesh).
  const ro = mesh[RIGHT_EYE_CORNERS[0]], lo = mesh[LEFT_EYE_CORNERS[0]];
  const depthDiff = (ro[2] - lo[2]) / Math.max(1, Math.hypot(lo[0] - ro[0], lo[1] - ro[1]));
  const frontal = Math.abs(depthDiff) < 0.33;
  const merge = (side: 'right' | 'left', pts: P3[], keys: (keyof typeof IRIS_REFINES.model)[]) => {
    for (const key of keys) {
      const idx = IRIS_REFINES[side][key], model = IRIS_REFINES.model[key];
      idx.forEach((m, j) => { out[m] = [pts[model[j]][0], pts[model[j]][1], (out[m][2] + pts[model[j]][2]) / 2]; });
    }
  };
  const all = Object.keys(IRIS_REFINES.model) as (keyof typeof IRIS_REFINES.model)[];
  if (frontal) { merge('right', right, all); merge('left', left, all); }
  else if (depthDiff < 0) merge('right', right, ['upper0', 'lower0']);
  else merge('left', left, ['upper0', 'lower0']);
  // Iris z: the model's is unreliable, so use the lids' (MediaPipe does the same).
  const irisZ = (side: 'right' | 'left') => (out[IRIS_REFINES[side].upper0[3]][2] + out[IRIS_REFINES[side].lower0[4]][2]) / 2;
  for (const [side, pts] of [['right', right], ['left', left]] as const) {
    const z = irisZ(side);
    for (let i = 71; i < 76; i++) out.push([pts[i][0], pts[i][1], z]);
  }
  return out;
}
