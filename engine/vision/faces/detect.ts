/**
 * Faces in a still image: boxes and scores for every face (up to 120), the 478-point mesh (468 + 10 iris)
 * and head pose for the largest few. Runs human's blazeface + facemesh + iris on a square, size-capped
 * view of the image (blazeface sees a 256x256 stretch of its input, so a non-square photo would squash
 * faces), then maps everything back to input-image pixels and applies thresholds tuned on real photos
 * (scripts/quality-faces.ts).
 */
import type { RasterImage } from '../../effects/effect.ts';
import type { HumanFace, HumanLike } from '../models/human.ts';
import { detectorView, rotateImage, type View } from './view.ts';
import { depthScale, poseFromMesh } from './pose.ts';

/** A rectangle in input-image pixels. */
export interface Box { x: number; y: number; width: number; height: number }

export interface Face {
  box: Box;
  score: number;
  /** 478 points (468 mesh + 5 per iris, centre first) in input-image pixels; z in the same scale, relative. */
  mesh?: [number, number, number][];
  /** Degrees. yaw < 0: the face turns toward the image's left; pitch > 0: looks down; roll: in-plane, clockwise > 0. */
  pose?: { yaw: number; pitch: number; roll: number };
  /** Clockwise rotation of the face in the image, in quarter turns: 90 means it lies on its side, top to the right. */
  rotation: 0 | 90 | 180 | 270;
}

export interface DetectOptions {
  /** Default 120. */
  maxFaces?: number;
  /** How many of the largest faces get a mesh and pose. Default 5. */
  meshFaces?: number;
  /** When no upright face is found, also look for faces turned 90, 180 and 270 degrees (images without EXIF). */
  searchRotations?: boolean;
}

/** Tuned on the shared test photos (scripts/quality-faces.ts): no false faces, every real face found. */
export const thresholds = {
  /** blazeface box confidence, for faces whose mesh confirms a face. */
  box: 0.5,
  /** facemesh "face present" confidence. */
  mesh: 0.5,
  /** A box alone (no mesh, beyond meshFaces) must be this sure. */
  boxOnly: 0.7,
  /** Faces smaller than this (pixels, box side) are ignored. */
  minSize: 12,
  /** Two results overlapping more than this (IoU, or intersection over the smaller box) are one face. */
  overlap: 0.45,
  /** Longest side of the detector view; larger images are scaled down for detection. */
  maxView: 1024,
};

export async function detectFaces(human: unknown, image: RasterImage, opts: DetectOptions = {}): Promise<Face[]> {
  const h = human as HumanLike;
  const maxFaces = opts.maxFaces ?? 120;
  const meshFaces = opts.meshFaces ?? 5;
  const upright = await findUpright(h, image, maxFaces, meshFaces, 0);
  if (upright.length > 0 || !opts.searchRotations) return upright;
  let best: Face[] = [];
  for (const turn of [90, 270, 180] as const) {
    // Turning the image back by `turn` makes a face that lies at `turn` upright.
    const turned = await rotateImage(image, 360 - turn);
    const faces = await findUpright(h, turned, maxFaces, meshFaces, turn);
    if (total(faces) > total(best)) best = faces.map((f) => unturn(f, turn, image));
  }
  return best;
}

const total = (faces: Face[]) => faces.reduce((s, f) => s + f.score, 0);

async function findUpright(h: HumanLike, image: RasterImage, maxFaces: number, meshFaces: number, rotation: Face['rotation']): Promise<Face[]> {
  const view = await detectorView(image, thresholds.maxView);
  const raw = await runHuman(h, view, maxFaces);
  const faces = dedupe(raw.map((f) => toFace(f, view, rotation)).filter((f) => f !== null))
    .sort((a, b) => area(b.box) - area(a.box))
    .slice(0, maxFaces);
  return faces
    .filter((f, i) => (i < meshFaces ? true : f.score >= thresholds.boxOnly))
    .map((f, i) => (i < meshFaces ? f : { box: f.box, score: f.score, rotation: f.rotation }));
}

async function runHuman(h: HumanLike, view: View, maxFaces: number): Promise<HumanFace[]> {
  const input = h.tf.tensor4d(view.data, [1, view.size, view.size, 3], 'int32');
  try {
    // Over-ask: duplicates and sub-threshold boxes are removed afterwards.
    const result = await h.detect(input, { face: { detector: { maxDetected: Math.min(2 * maxFaces, 240) } } });
    if (result.error) throw new Error(`face detection failed: ${result.error}`);
    return result.face;
  } finally {
    input.dispose();
  }
}

/** Scores, thresholds and maps one human result from view to image pixels; null when it is not a face. */
function toFace(f: HumanFace, view: View, rotation: Face['rotation']): (Face & { score: number }) | null {
  const hasMesh = f.mesh.length >= 468;
  if (f.boxScore < thresholds.box || !hasMesh || f.faceScore < thresholds.mesh) return null;
  const k = 1 / view.scale;
  const pose = poseFromMesh(f.mesh);
  const kz = k * depthScale(f.mesh);
  const mesh = f.mesh.map(([x, y, z]) => [x * k, y * k, (z ?? 0) * kz] as [number, number, number]);
  const box = clip(meshBox(mesh), view.width, view.height);
  if (box.width < thresholds.minSize || box.height < thresholds.minSize) return null;
  const score = round2(Math.sqrt(f.boxScore * f.faceScore));
  return { box, score, mesh, pose, rotation };
}

function meshBox(mesh: [number, number, number][]): Box {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  // The 468 face points (the iris points lie inside them).
  for (let i = 0; i < 468; i++) {
    const [x, y] = mesh[i];
    if (x < x0) x0 = x; if (x > x1) x1 = x;
    if (y < y0) y0 = y; if (y > y1) y1 = y;
  }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

function clip(b: Box, w: number, h: number): Box {
  const x0 = Math.max(0, b.x), y0 = Math.max(0, b.y);
  const x1 = Math.min(w, b.x + b.width), y1 = Math.min(h, b.y + b.height);
  return { x: x0, y: y0, width: Math.max(0, x1 - x0), height: Math.max(0, y1 - y0) };
}

const area = (b: Box) => b.width * b.height;
const round2 = (v: number) => Math.round(v * 100) / 100;

export function overlap(a: Box, b: Box): number {
  const ix = Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x));
  const iy = Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  const inter = ix * iy;
  if (inter === 0) return 0;
  return Math.max(inter / (area(a) + area(b) - inter), inter / Math.min(area(a), area(b)));
}

/** Human's NMS runs on detector boxes; after the mesh redraws them, the same face can appear twice. */
function dedupe<F extends Face>(faces: F[]): F[] {
  const kept: F[] = [];
  for (const f of [...faces].sort((a, b) => b.score - a.score)) {
    if (!kept.some((k) => overlap(k.box, f.box) > thresholds.overlap)) kept.push(f);
  }
  return kept;
}

/** Maps a face found in the image turned back by `turn` degrees to the original image's pixels. */
function unturn(f: Face, turn: 90 | 180 | 270, image: { width: number; height: number }): Face {
  const { width: W, height: H } = image;
  // The turned image is the original rotated clockwise by 360 - turn.
  const back = (x: number, y: number): [number, number] =>
    turn === 90 ? [W - y, x] : turn === 270 ? [y, H - x] : [W - x, H - y];
  const corners = [back(f.box.x, f.box.y), back(f.box.x + f.box.width, f.box.y + f.box.height)];
  const box = {
    x: Math.min(corners[0][0], corners[1][0]), y: Math.min(corners[0][1], corners[1][1]),
    width: Math.abs(corners[0][0] - corners[1][0]), height: Math.abs(corners[0][1] - corners[1][1]),
  };
  const mesh = f.mesh?.map(([x, y, z]) => [...back(x, y), z] as [number, number, number]);
  const pose = f.pose && { ...f.pose, roll: normDeg(f.pose.roll + turn) };
  return { ...f, box, mesh, pose, rotation: turn };
}

const normDeg = (d: number) => ((((d + 180) % 360) + 360) % 360) - 180;
