/**
 * Faces in a still image: box, score and head pose for every face (up to 120), and the 478-point mesh
 * (468 + 10 iris) for the largest few. Uses the blazeface, facemesh and iris graph models that the
 * registry's Human instance has loaded, in MediaPipe's arrangement: detector on square tiles, mesh on an
 * upright crop around each detection (again around the mesh when it moved), iris on full-resolution eye
 * crops. Every face must pass both the detector and the mesh's own "face present" score; thresholds are
 * tuned on real photos (scripts/quality/faces.ts, scripts/quality/face-counts.ts).
 *
 * A second detector, face-api's SSD MobileNet v1 (trained on WIDER FACE: small, grey and turned faces), runs
 * where blazeface's answer is in doubt: no face, a small face (a group's), or a face the mesh is unsure of (a
 * black-and-white or turned face). Its faces are added (mesh-checked like the others) and a doubtful blazeface
 * face it does not confirm is dropped.
 */
import type { RasterImage } from '../../image/raster.ts';
import type { Rect } from '../../image/rect.ts';
import type { HumanLike } from '../models/human.ts';
import { type FaceApiNets, SSD_SIDE } from '../models/face-api.ts';
import { detectTiles, INPUT, weightedNms, type Detection, type GraphModelLike } from './blazeface.ts';
import { addIris, roiFromMesh, ROI_SCALE, runMesh, type P3 } from './mesh.ts';
import type { Roi } from './crop.ts';
import { halfTiles, rotateImage, tilePixels, wholeImage, type Tile } from './view.ts';
import { poseFromMesh } from './pose.ts';

export interface Face {
  /** The face's box in input-image pixels. */
  box: Rect;
  score: number;
  /** 478 points in input-image pixels (z: same scale, negative toward the camera). See landmarks.ts for names. */
  mesh?: [number, number, number][];
  /** Degrees. yaw > 0: the face turns toward the image's right; pitch > 0: it looks down; roll > 0: it leans clockwise. */
  pose?: { yaw: number; pitch: number; roll: number };
  /** The face's orientation in the image in quarter turns, clockwise: 90 means it lies on its side, top to the right. */
  rotation: 0 | 90 | 180 | 270;
}

export interface DetectOptions {
  /** Default 120. */
  maxFaces?: number;
  /** How many of the largest faces get the full mesh (with iris). Default 5. */
  meshFaces?: number;
  /** When nothing is found upright, also search the image turned 90, 180 and 270 degrees. */
  searchRotations?: boolean;
  /**
   * false: blazeface alone decides, without the second detector (JobFacts.faces passes none then). For
   * callers that need the main person's face, not every small face: on full-body photos the second
   * detector's extra faces are bystanders, and it costs about 0.8 s of CPU a photo (1.7 s on its first run).
   */
  secondDetector?: boolean;
}

/** face-api's SSD MobileNet v1 (the registry's 'face-api') as the second detector. */
export const faceApiDetector = (fa: FaceApiNets): SecondDetector => ({ side: SSD_SIDE, faces: (square, minScore) => fa.ssdFaces(square, minScore) });

/** A second face detector on one square RGB view (0..255) of side `side`: boxes as fractions of the side. */
export interface SecondDetector {
  side: number;
  faces(square: Uint8Array, minScore: number): Promise<{ x0: number; y0: number; w: number; h: number; score: number }[]>;
}

/** Tuned on the shared test photos (scripts/quality/faces.ts). */
export const thresholds = {
  /** Detector score below which a box is not even looked at. */
  candidate: 0.3,
  /** Detector score a face needs... */
  box: 0.45,
  /** ...and the mesh model's "face present" score. */
  mesh: 0.5,
  /** Beyond this roll (degrees) a face needs a surer detector score. */
  tiltedRoll: 35,
  boxTilted: 0.75,
  /** Score a face found only in a turned copy of the image needs (a car grille scored 0.66, the astronaut 0.93). */
  turned: 0.8,
  /** Faces smaller than this (pixels, box side) are ignored. */
  minSize: 12,
  /** Two faces overlapping more than this (IoU or intersection over the smaller box) are one. */
  overlap: 0.3,
  /** Margin (fraction of the longer side) around the image for the second look when nothing was found. */
  margin: 0.25,
  /**
   * Tile the image when a face smaller than this fraction of the longer side was found: such a face is
   * about 20 px in the detector's 256 px view, near the least it finds, so others may have been missed.
   */
  tileBelow: 1 / 12,
  /** About the smallest face (box side, detector pixels) the detector finds in one view. */
  detectorFloor: 16,
  /**
   * The tile pass can only add faces below the whole-image view's floor (floor x side / INPUT image
   * pixels). It costs four more detector runs, so it runs only when such faces could be this large: on a
   * small photo it would find only faces too small for any effect to use.
   */
  tileUseful: 36,
  /** Second detector: score below which its boxes are ignored... */
  second: 0.3,
  /** ...the score a face it alone finds needs... */
  secondAlone: 0.4,
  /**
   * ...the mesh score a face seen by one detector alone needs (a dog's face scored 0.63), where the second
   * detector ran...
   */
  meshAlone: 0.8,
  /** ...the mesh score enough where both detectors agree (black-and-white faces score low on the mesh)... */
  meshBoth: 0.25,
  /**
   * ...and the detector scores (second, blazeface) at which a face counts even when the mesh fails: a face
   * of 20 px is too coarse for the mesh; it gets no mesh then, and the box is the second detector's.
   */
  sureBoth: [0.9, 0.6] as [number, number],
  /** The second detector's score at which its face counts alone, mesh or not (a dog's face scored 0.77). */
  sureAlone: 0.85,
  /** Mean colour saturation (0..1) below which a photo counts as black and white. */
  grey: 0.06,
};

interface FaceModels { tf: HumanLike['tf']; blazeface: GraphModelLike; facemesh: GraphModelLike; iris: GraphModelLike; second?: SecondDetector }

/** A detection with where it came from: `other` is the other detector's score for the same face (0: not seen). */
type Candidate = Detection & { from: 'blazeface' | 'second'; other: number };
/** What accept() keeps per face for the second detector's review: the mesh score and the detector's. */
type Found = { face: Face; mesh: number };

function faceModels(human: unknown): FaceModels {
  const h = human as HumanLike;
  const m = h?.models?.models ?? {};
  if (!m.blazeface || !m.facemesh || !m.iris) throw new Error('detectFaces: pass the Human instance from models.get("human")');
  return { tf: h.tf, blazeface: m.blazeface, facemesh: m.facemesh, iris: m.iris };
}

/**
 * Faces in the image, largest first. `second` (face-api's SSD, vision/models/face-api.ts: ssdDetector) is the
 * second detector; without it blazeface alone decides.
 */
export async function detectFaces(human: unknown, image: RasterImage, opts: DetectOptions = {}, second?: SecondDetector): Promise<Face[]> {
  const models: FaceModels = { ...faceModels(human), second };
  const o = { maxFaces: opts.maxFaces ?? 120, meshFaces: opts.meshFaces ?? 5 };
  // The mesh model's "face present" score falls on grey faces (it learnt skin colour): a black-and-white
  // photo is shown to both models toned like skin. Only what they see changes; the points are the same.
  if (isGrey(image)) image = skinToned(image);
  const upright = await findFaces(models, image, o, false);
  if (upright.length > 0 || !opts.searchRotations) return upright;
  let best: Face[] = [];
  for (const turn of [90, 270, 180] as const) {
    // Turning the image back by `turn` makes a face that lies at `turn` upright.
    // Turned photos are the exception: a face found only that way must be a sure one.
    const faces = (await findFaces(models, await rotateImage(image, 360 - turn), o, true)).filter((f) => f.score >= thresholds.turned);
    if (total(faces) > total(best)) best = faces.map((f) => unturn(f, turn, image));
  }
  return best;
}

const total = (faces: Face[]) => faces.reduce((s, f) => s + f.score, 0);

/** `confirm`: every face must be confirmed by the second detector (where there is one) or by a sure mesh. */
async function findFaces(m: FaceModels, image: RasterImage, o: { maxFaces: number; meshFaces: number }, confirm: boolean): Promise<Face[]> {
  if (o.maxFaces <= 0) return [];
  const found: Found[] = [];
  const state = { meshed: 0 };
  const fromBlaze = (dets: Detection[]): Candidate[] => dets.map((d) => ({ ...d, from: 'blazeface', other: 0 }));
  // The whole-image detections also serve the second look (the same view: the same answer).
  const whole = await detect(m, image, [wholeImage(image)]);
  await accept(m, image, fromBlaze(whole), found, state, o);
  const side = Math.max(image.width, image.height);
  if (found.length === 0) {
    // A face that fills the frame is larger than any the detector learnt; shown with a margin, it is not.
    const pad = Math.round(side * thresholds.margin);
    const framed = { x0: -pad, y0: -pad, side: side + 2 * pad };
    await accept(m, image, fromBlaze(await detect(m, image, [framed])), found, state, o);
  }
  const sizes = found.map((f) => Math.max(f.face.box.w, f.face.box.h) / side);
  // Several faces, all large and sure to the mesh, are not in doubt: there the SSD could only add a face, and on the
  // 12 shared cases it ran for that alone it added none (quality:face-counts --variants), at about 300 ms of CPU a run.
  if (m.second && (confirm || found.length === 0 || sizes.some((s) => s < thresholds.tileBelow * 1.5) || found.some((f) => f.mesh < thresholds.meshAlone))) {
    await secondLook(m, m.second, image, whole, found, state, o, confirm);
  }
  // A group (three or more faces) with a small one, or one tiny face: more may be too small to see whole.
  const small = (found.length >= 3 && sizes.some((s) => s < thresholds.tileBelow)) || sizes.some((s) => s < thresholds.tileBelow / 1.6);
  if (small && found.length < o.maxFaces && (side * thresholds.detectorFloor) / INPUT >= thresholds.tileUseful) {
    await accept(m, image, fromBlaze(await detect(m, image, halfTiles(image))), found, state, o);
  }
  return found.map((f) => f.face).sort((a, b) => area(b.box) - area(a.box));
}

/**
 * The second detector over the whole image: blazeface's doubtful faces (mesh below meshAlone) it does not see
 * are dropped, and the faces it sees that blazeface did not are mesh-checked and added. `whole`: blazeface's
 * detections on the whole image, down to its candidate score.
 */
async function secondLook(m: FaceModels, second: SecondDetector, image: RasterImage, whole: Detection[], found: Found[], state: { meshed: number }, o: { maxFaces: number; meshFaces: number }, confirm: boolean) {
  const view = wholeImage(image);
  const k = view.side;
  const boxes = (await second.faces(new Uint8Array(await tilePixels(image, view, second.side)), thresholds.second))
    .map((b) => ({ x0: b.x0 * k, y0: b.y0 * k, w: b.w * k, h: b.h * k, score: b.score }));
  for (let i = found.length - 1; i >= 0; i--) {
    if (found[i].mesh >= thresholds.meshAlone && !confirm) continue;
    // A face found only in a turned photo must be sure to both detectors.
    const needs = confirm ? thresholds.secondAlone : thresholds.second;
    if (!boxes.some((b) => b.score >= needs && overlap(b, found[i].face.box) > thresholds.overlap)) found.splice(i, 1);
  }
  // Keypoints where a frontal face has them (eyes, nose, mouth): the mesh's second pass aligns the crop.
  const candidates: Candidate[] = boxes.filter((b) => !found.some((f) => overlap(f.face.box, b) > thresholds.overlap)).map((b) => ({
    ...b, from: 'second', other: 0,
    keypoints: [[b.x0 + 0.3 * b.w, b.y0 + 0.4 * b.h], [b.x0 + 0.7 * b.w, b.y0 + 0.4 * b.h], [b.x0 + 0.5 * b.w, b.y0 + 0.6 * b.h], [b.x0 + 0.5 * b.w, b.y0 + 0.78 * b.h]],
  }));
  // Blazeface's own candidates for the same faces, down to its candidate score: where both detectors see a
  // face, its keypoints place the mesh's crop better, and the pair needs less of the mesh.
  const blaze = whole.filter((d) => !found.some((f) => overlap(f.face.box, d) > thresholds.overlap));
  const both = candidates.map((c) => {
    const d = blaze.find((b) => overlap(b, c) > thresholds.overlap);
    return d ? { ...d, from: 'second' as const, score: c.score, other: d.score } : c;
  });
  await accept(m, image, both, found, state, o);
}

/** The image's luminance as a skin-like colour (R:G:B about 1 : 0.78 : 0.66, a light skin's ratio). */
function skinToned(image: RasterImage): RasterImage {
  const c = image.channels, n = image.width * image.height, out = Buffer.alloc(n * 3);
  for (let i = 0; i < n; i++) {
    const y = 0.299 * image.data[i * c] + 0.587 * image.data[i * c + 1] + 0.114 * image.data[i * c + 2];
    out[i * 3] = Math.min(255, y * 1.12); out[i * 3 + 1] = y * 0.87; out[i * 3 + 2] = y * 0.74;
  }
  return { data: out, width: image.width, height: image.height, channels: 3 };
}

/** Mean saturation of a coarse sample below thresholds.grey: a black-and-white (or sepia-toned) photo. */
function isGrey(image: RasterImage): boolean {
  const c = image.channels, step = Math.max(1, Math.floor((image.width * image.height) / 4096));
  let sum = 0, n = 0;
  for (let i = 0; i < image.width * image.height; i += step) {
    const r = image.data[i * c], g = image.data[i * c + 1], b = image.data[i * c + 2];
    const max = Math.max(r, g, b), min = Math.min(r, g, b);
    sum += max ? (max - min) / max : 0; n++;
  }
  return sum / n < thresholds.grey;
}

/** Detections from a set of tiles, in image pixels, merged across tiles. */
async function detect(m: FaceModels, image: RasterImage, tiles: Tile[]): Promise<Detection[]> {
  const pixels = Buffer.concat(await Promise.all(tiles.map((t) => tilePixels(image, t, INPUT))));
  const perTile = await detectTiles(m.tf, m.blazeface, pixels, tiles.length, thresholds.candidate);
  const all = perTile.flatMap((dets, i) => dets.map((d) => toImage(d, tiles[i])));
  return weightedNms(all, 0.3);
}

function toImage(d: Detection, t: Tile): Detection {
  const k = t.side / INPUT;
  return {
    x0: t.x0 + d.x0 * k, y0: t.y0 + d.y0 * k, w: d.w * k, h: d.h * k, score: d.score,
    keypoints: d.keypoints.map(([x, y]) => [t.x0 + x * k, t.y0 + y * k] as [number, number]),
  };
}

/**
 * Validates detections with the mesh, largest first, and adds the faces that pass and are new. The mesh
 * and iris models run batched over all candidates (one call per step, not per face).
 */
async function accept(m: FaceModels, image: RasterImage, dets: Candidate[], found: Found[], state: { meshed: number }, o: { maxFaces: number; meshFaces: number }) {
  const faces = found.map((f) => f.face);
  const candidates = dets.filter((d) => d.score >= (d.from === 'blazeface' ? thresholds.box : thresholds.second) && d.w >= thresholds.minSize)
    .filter((d) => !faces.some((f) => overlap(f.box, d) > thresholds.overlap))
    .sort((a, b) => b.w * b.h - a.w * a.h)
    .slice(0, Math.max(0, o.maxFaces - faces.length));
  if (candidates.length === 0) return;
  const results = await runMesh(m.tf, m.facemesh, image, candidates.map((d) => roiFromDetection(d)));
  // Turned heads: the detector's box is centred between ear and nose, where the mesh model does not
  // recognise the face; the centre of the eyes, nose and mouth works.
  const weak = candidates.flatMap((d, i) => (results[i].score < thresholds.mesh ? [i] : []));
  (await runMesh(m.tf, m.facemesh, image, weak.map((i) => roiFromDetection(candidates[i], true))))
    .forEach((alt, k) => { if (alt.score > results[weak[k]].score) results[weak[k]] = alt; });
  // A second pass on the crop the mesh implies: aligned to the eyes, which the detector only approximates.
  // It matters for the faces that keep their mesh and for those the first crop left unsure.
  let fullLeft = o.meshFaces - state.meshed;
  const again = results.flatMap((res, i) => {
    const worth = res.score >= thresholds.mesh * 0.5 && (fullLeft-- > 0 || res.score < thresholds.mesh);
    return worth && moved(res.roi, roiFromMesh(res.mesh)) ? [i] : [];
  });
  (await runMesh(m.tf, m.facemesh, image, again.map((i) => roiFromMesh(results[i].mesh))))
    .forEach((second, k) => { if (second.score >= results[again[k]].score - 0.05) results[again[k]] = second; });
  const added: { face: Face; mesh: P3[] }[] = [];
  candidates.forEach((d, i) => {
    const res = results[i];
    // The second detector's face: sure alone, or seen by blazeface too (then the mesh may be less sure).
    const bothSee = d.from === 'second' && d.other >= thresholds.box;
    if (d.from === 'second' && !bothSee && d.score < thresholds.secondAlone) return;
    const sure = d.from === 'second' && ((d.score >= thresholds.sureBoth[0] && d.other >= thresholds.sureBoth[1]) || d.score >= thresholds.sureAlone);
    if (res.score < (bothSee ? thresholds.meshBoth : d.from === 'second' ? thresholds.meshAlone : thresholds.mesh)) {
      if (!sure) return;
      const box = clip(d, image.width, image.height);
      if (faces.some((f) => overlap(f.box, box) > thresholds.overlap)) return;
      const face: Face = { box, score: round2(d.other ? Math.sqrt(d.score * d.other) : d.score), rotation: 0 };
      faces.push(face);
      found.push({ face, mesh: res.score });
      return;
    }
    const pose = poseFromMesh(res.mesh);
    // The detector learnt upright faces: a strongly tilted "face" it is unsure of is usually something
    // round with a face-like pattern (wheel hubs, logos), which the mesh model happily fits.
    if (Math.abs(pose.roll) > thresholds.tiltedRoll && d.score < thresholds.boxTilted) return;
    const box = clip(meshBox(res.mesh), image.width, image.height);
    if (box.w < thresholds.minSize || box.h < thresholds.minSize) return;
    if (faces.some((f) => overlap(f.box, box) > thresholds.overlap)) return;
    const face: Face = { box, score: round2(Math.sqrt(Math.max(d.score, d.other) * res.score)), pose, rotation: quarter(pose.roll) };
    faces.push(face);
    found.push({ face, mesh: res.score });
    added.push({ face, mesh: res.mesh });
  });
  const full = added.slice(0, Math.max(0, o.meshFaces - state.meshed));
  state.meshed += full.length;
  const meshes = await addIris(m.tf as never, m.iris, image, full.map((a) => a.mesh));
  full.forEach((a, k) => { a.face.mesh = meshes[k]; });
}

/** MediaPipe's ROI for a detection: square around the box (or its eyes, nose and mouth), 1.5x, upright along the eyes. */
function roiFromDetection(d: Detection, onFeatures = false): Roi {
  const [re, le, nose, mouth] = d.keypoints;
  const mean = (k: 0 | 1) => (re[k] + le[k] + nose[k] + mouth[k]) / 4;
  return {
    cx: onFeatures ? mean(0) : d.x0 + d.w / 2,
    cy: onFeatures ? mean(1) : d.y0 + d.h / 2,
    size: Math.max(d.w, d.h) * ROI_SCALE,
    angle: Math.atan2(le[1] - re[1], le[0] - re[0]),
  };
}

function moved(a: Roi, b: Roi): boolean {
  const turn = Math.abs(Math.atan2(Math.sin(a.angle - b.angle), Math.cos(a.angle - b.angle)));
  return turn > (7 * Math.PI) / 180 || Math.hypot(a.cx - b.cx, a.cy - b.cy) > 0.06 * a.size || Math.abs(a.size - b.size) > 0.12 * a.size;
}

function meshBox(mesh: P3[]): Rect {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of mesh.slice(0, 468)) {
    if (x < x0) x0 = x; if (x > x1) x1 = x;
    if (y < y0) y0 = y; if (y > y1) y1 = y;
  }
  return { x0, y0, w: x1 - x0, h: y1 - y0 };
}

function clip(b: Rect, w: number, h: number): Rect {
  const x0 = Math.max(0, b.x0), y0 = Math.max(0, b.y0);
  const x1 = Math.min(w, b.x0 + b.w), y1 = Math.min(h, b.y0 + b.h);
  return { x0, y0, w: Math.max(0, x1 - x0), h: Math.max(0, y1 - y0) };
}

const area = (b: Rect) => b.w * b.h;
const round2 = (v: number) => Math.round(v * 100) / 100;
const quarter = (roll: number) => ((((Math.round(roll / 90) % 4) + 4) % 4) * 90) as Face['rotation'];

/** Overlap of two boxes: the larger of IoU and intersection over the smaller box. */
export function overlap(a: Rect, b: Rect): number {
  const ix = Math.max(0, Math.min(a.x0 + a.w, b.x0 + b.w) - Math.max(a.x0, b.x0));
  const iy = Math.max(0, Math.min(a.y0 + a.h, b.y0 + b.h) - Math.max(a.y0, b.y0));
  const inter = ix * iy;
  if (inter === 0) return 0;
  return Math.max(inter / (area(a) + area(b) - inter), inter / Math.min(area(a), area(b)));
}

/** Maps a face found in the image turned back by `turn` degrees to the original image's pixels. */
function unturn(f: Face, turn: 90 | 180 | 270, image: { width: number; height: number }): Face {
  const { width: W, height: H } = image;
  // The turned image is the original rotated clockwise by 360 - turn.
  const back = (x: number, y: number): [number, number] => (turn === 90 ? [W - y, x] : turn === 270 ? [y, H - x] : [W - x, H - y]);
  const [a, b] = [back(f.box.x0, f.box.y0), back(f.box.x0 + f.box.w, f.box.y0 + f.box.h)];
  const box = { x0: Math.min(a[0], b[0]), y0: Math.min(a[1], b[1]), w: Math.abs(a[0] - b[0]), h: Math.abs(a[1] - b[1]) };
  const mesh = f.mesh?.map(([x, y, z]) => [...back(x, y), z] as [number, number, number]);
  const pose = f.pose && { ...f.pose, roll: normDeg(f.pose.roll + turn) };
  return { ...f, box, ...(mesh ? { mesh } : {}), ...(pose ? { pose } : {}), rotation: quarter(pose?.roll ?? turn) };
}

const normDeg = (d: number) => Math.round((((((d + 180) % 360) + 360) % 360) - 180) * 10) / 10;
