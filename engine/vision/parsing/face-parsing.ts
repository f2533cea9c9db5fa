/**
 * Face parsing: the 19 CelebAMask-HQ classes (skin, brows, eyes, glasses, ears, earring, nose, mouth,
 * lips, neck, necklace, cloth, hair, hat) of one face, as soft masks at full image resolution.
 *
 * The model learnt faces framed as CelebA-HQ frames them (Karras et al. 2018), so each face is shown to it
 * about that way: a square crop turned upright along the eyes, its side 1.25 x max(4 x eye distance, 3.6 x
 * eye-to-mouth distance), centred on the eyes, which leaves room for hair and hats above and the neck
 * below. The model's logits (stride 8) are interpolated back to image pixels and put through softmax (as
 * the graph itself does in crop pixels) on a grid at half the crop's resolution; the fast guided filter
 * then brings each class to full resolution with its edges taken from the photo's luma.
 */
import sharp from 'sharp';
import { type Mask } from '../../image/mask.ts';
import type { RasterImage } from '../../image/raster.ts';
import type { Rect } from '../../image/rect.ts';
import { cropRoi, cropRoiPixels, type Roi } from '../faces/crop.ts';
import type { Face } from '../faces/detect.ts';
import { BETWEEN_EYES } from '../faces/landmarks.ts';
import type { TensorLike } from '../models/human.ts';
import { latticeLuma, resizedLuma, windowLuma } from './guide-luma.ts';
import { boundingBox, guidedUpsample, guideStats, type Lattice } from './upsample.ts';
import { PARSING_CLASSES, parserLogitsData, STRIDE, type FaceParser, type ParsingClass } from '../models/bisenet.ts';
import { ONNX_INPUT, ONNX_LOGITS } from '../models/bisenet-onnx.ts';

export { PARSING_CLASSES, type FaceParser, type ParsingClass };

/**
 * Model input side: 512 draws lips and eyes closer to the mesh's than 384 does, at about 0.2 s of CPU a face
 * on onnxruntime (docs/experiments/vision-core.md#face-parsing-at-512-px-kept-against-384).
 */
export const INPUT = 512;
/**
 * The crop around CelebA-HQ's framing (centre 0.1 eye-to-mouth below the eyes, scale 1): larger by `scale`
 * and centred `down` eye-to-mouth below the eyes. CelebA-HQ's own crop cuts big hair, hats and turned heads
 * (the jaw of a head turned a third away lay outside it); the model was trained on crops scaled 0.75-2x,
 * so a somewhat smaller face is still familiar to it.
 */
export const FRAME = { scale: 1.25, down: 0 };
/** A class whose probability stays below this everywhere in the crop is left out. */
const MIN_PROB = 0.1;
/**
 * The grid the probabilities are computed on, relative to the crop's resolution (at most the image's own):
 * the fast guided filter needs its coefficients only this fine, the photo's edges come in at full size.
 */
const GRID = 0.5;
/** Guided filter: radius in crop pixels (one logit cell is STRIDE of them) and eps (luma in 0..1). */
const GUIDE_RADIUS = STRIDE;
const GUIDE_EPS = 1e-3;

export interface FaceParsing {
  /** The square the model saw (image pixels, turned so the face is upright). */
  roi: Roi;
  /** The image pixels the masks cover: the square's footprint, clipped to the image. */
  win: Rect;
  /** Per class, its probability (softmax) 0..255 over `win`, row-major; classes never above MIN_PROB are absent. */
  classes: Partial<Record<ParsingClass, Uint8Array>>;
  /** Milliseconds spent: crop and model, then back to image pixels with edges. */
  ms: { model: number; warp: number };
}

export interface ParseOptions {
  /** Model input side (multiple of 8). Default INPUT. */
  input?: number;
  /**
   * The network with int8 convolutions (bisenet.ts, onnx-qdq.ts): about half the CPU of the float one, its argmax
   * the same on 99.5 % of cells; used where a caller's measures were checked with it (the face analyzer). On
   * onnxruntime only: tfjs runs the float graph.
   */
  int8?: boolean;
  /**
   * The classes brought to full resolution (default all): each costs a guided filter over its box, and
   * the big ones (background, cloth) cover most of the window.
   */
  classes?: readonly ParsingClass[];
  /** The crop's framing (default FRAME): a caller that needs the face and little around it parses a tighter square at a smaller input. */
  frame?: { scale: number; down: number };
  /**
   * Groups of classes summed before they are brought to full resolution, each sum kept under its group's
   * first class and the others left absent: for a caller that only ever reads a group's sum (parsingPlane
   * over all of it), one guided filter per group instead of one per class. The filter is linear, so the sum
   * is the same but for 8-bit rounding. A pair of sides (brows, eyes, ears) stays a pair: their sum is split
   * at the midline again.
   */
  merge?: readonly (readonly ParsingClass[])[];
}

/** Image columns and rows, each ascending: the points where parseFaceAt computes the classes. */
export interface ImageLattice { cols: Int32Array; rows: Int32Array }

/**
 * One face's classes at the points of an image lattice only: each plane cols.length x rows.length,
 * row-major, with exactly the values parseFace gives at those pixels (0 outside its window).
 */
export interface ParsingSample {
  roi: Roi;
  win: Rect;
  at: ImageLattice;
  classes: Partial<Record<ParsingClass, Uint8Array>>;
  ms: { model: number; warp: number };
}

type P = readonly number[];
const mid = (a: P, b: P): [number, number] => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];

/**
 * The crop for a face, framed as CelebA-HQ frames its faces: from the eye centres (iris centres, else the
 * eye corners' midpoints) and the mouth corners. A face without mesh gets a square 2.2 x its box around
 * the box, turned by its roll.
 */
export function parsingRoi(face: Face, frame: { scale: number; down: number } = FRAME): Roi {
  const m = face.mesh;
  if (!m) {
    const b = face.box, side = Math.max(b.w, b.h);
    return { cx: b.x0 + b.w / 2, cy: b.y0 + b.h / 2 - 0.1 * side, size: 2.2 * side, angle: ((face.pose?.roll ?? face.rotation) * Math.PI) / 180 };
  }
  const right = m.length >= 478 ? [m[468][0], m[468][1]] : mid(m[33], m[133]);
  const left = m.length >= 478 ? [m[473][0], m[473][1]] : mid(m[263], m[362]);
  const eyes = mid(right, left), mouth = mid(m[61], m[291]);
  const ex = left[0] - right[0], ey = left[1] - right[1];
  const mx = mouth[0] - eyes[0], my = mouth[1] - eyes[1];
  // The face's "across" axis: eye to eye, plus the eye-to-mouth axis turned back a quarter (FFHQ's recipe),
  // steadier than either alone on turned or tilted heads.
  const ax = ex + my, ay = ey - mx;
  return {
    cx: eyes[0] + frame.down * mx, cy: eyes[1] + frame.down * my,
    size: frame.scale * Math.max(4 * Math.hypot(ex, ey), 3.6 * Math.hypot(mx, my)),
    angle: Math.atan2(ay, ax),
  };
}

/** The image pixels a face's parsing covers (FaceParsing.win), known before parsing: a caller can place a lattice in it. */
export function parsingWindow(face: Face, size: { width: number; height: number }, frame: { scale: number; down: number } = FRAME): Rect {
  return footprint(parsingRoi(face, frame), size);
}

/** Axis-aligned image pixels under a rotated square, clipped to the image. */
function footprint(roi: Roi, size: { width: number; height: number }): Rect {
  const half = (roi.size / 2) * (Math.abs(Math.cos(roi.angle)) + Math.abs(Math.sin(roi.angle)));
  const x0 = Math.min(size.width - 1, Math.max(0, Math.floor(roi.cx - half))), y0 = Math.min(size.height - 1, Math.max(0, Math.floor(roi.cy - half)));
  const x1 = Math.min(size.width, Math.ceil(roi.cx + half)), y1 = Math.min(size.height, Math.ceil(roi.cy + half));
  return { x0, y0, w: Math.max(1, x1 - x0), h: Math.max(1, y1 - y0) };
}

/** Parses one face. The parser comes from the registry: `kit.models.get('bisenet-face-parsing')`. */
export async function parseFace(parser: FaceParser, image: RasterImage, face: Face, opts: ParseOptions = {}): Promise<FaceParsing> {
  return (await parseFaces(parser, image, [face], opts))[0];
}

/**
 * Parses several faces of one image, each as parseFace does. One model call per face: the graph's input
 * is fixed at batch 1 (a batch of crops is refused).
 */
export async function parseFaces(parser: FaceParser, image: RasterImage, faces: readonly Face[], opts: ParseOptions = {}): Promise<FaceParsing[]> {
  const result: FaceParsing[] = [];
  for (const face of faces) result.push(await parseOne(parser, image, face, opts));
  return result;
}

/**
 * Parses one face as parseFace does, but brings the classes to image resolution only at the lattice's
 * points: for a caller that reads the parsing on a grid coarser than the photo (the skin zones, at 1.5
 * px/mm, on faces of 2-5 px/mm), the full-resolution planes were most of the parsing's cost.
 */
export async function parseFaceAt(parser: FaceParser, image: RasterImage, face: Face, at: ImageLattice, opts: ParseOptions = {}): Promise<ParsingSample> {
  return { ...(await parseOne(parser, image, face, opts, at)), at };
}

/** A full parsing's values at the lattice's points, as parseFaceAt gives them. */
export function sampleParsing(parsing: FaceParsing, at: ImageLattice): ParsingSample {
  const { win } = parsing, nx = at.cols.length, n = nx * at.rows.length;
  const classes: Partial<Record<ParsingClass, Uint8Array>> = {};
  for (const [name, plane] of Object.entries(parsing.classes) as [ParsingClass, Uint8Array][]) {
    const v = new Uint8Array(n);
    for (let q = 0; q < at.rows.length; q++) {
      const y = at.rows[q] - win.y0;
      if (y < 0 || y >= win.h) continue;
      for (let k = 0; k < nx; k++) {
        const x = at.cols[k] - win.x0;
        if (x >= 0 && x < win.w) v[q * nx + k] = plane[y * win.w + x];
      }
    }
    classes[name] = v;
  }
  return { roi: parsing.roi, win, at, classes, ms: parsing.ms };
}

async function parseOne(parser: FaceParser, image: RasterImage, face: Face, opts: ParseOptions, at?: ImageLattice): Promise<FaceParsing> {
  const out = opts.input ?? INPUT;
  if (out % STRIDE !== 0) throw new Error(`parseFace: input ${out} is not a multiple of ${STRIDE}`);
  const roi = parsingRoi(face, opts.frame);
  const win = footprint(roi, image);
  const t0 = performance.now();
  const t: TensorLike[] = [];
  let logits: Float32Array;
  // Mid grey outside the image: the padding the model was trained with (x / 127.5 - 1 = 0).
  const net = await parser.onnx?.(out, opts.int8);
  if (net) {
    // onnxruntime takes plain data: the crop is cut as data too (cropRoi's values, no tensor round trip).
    logits = (await net.run({ [ONNX_INPUT]: { data: cropRoiPixels(image, roi, out, false, 127.5), dims: [1, out, out, 3] } }, [ONNX_LOGITS]))[ONNX_LOGITS].data;
  } else {
    try {
      t.push(await cropRoi(parser.tf, image, roi, out, false, 127.5));
      logits = await parserLogitsData(parser, t[0], out);
    } finally {
      parser.tf.dispose(t);
    }
  }
  const t1 = performance.now();
  // The lattice in window pixels (points outside the window read 0).
  const points: Lattice | undefined = at && { xs: at.cols.map((c) => c - win.x0), ys: at.rows.map((r) => r - win.y0) };
  const classes = splitSides(await toImage(logits, out, roi, win, image, opts.classes, opts.merge, points), win, roi, face, points);
  return { roi, win, classes, ms: { model: t1 - t0, warp: performance.now() - t1 } };
}

const SIDES = [['rightBrow', 'leftBrow'], ['rightEye', 'leftEye'], ['rightEar', 'leftEar']] as const;

/**
 * The model does not tell left from right (its training config mirrors the photos, apparently without
 * swapping the labels): it puts l_brow and r_brow (eyes, ears) on either side at random, often both on the
 * same pixels (on the portraits: 19 brows on the expected side and 21 on the other, 12/15 eyes, 23/23 ears). So
 * each pair is summed and split at the face's midline: the line through the mesh's nose bridge (the crop's
 * centre without mesh) along the upright face's vertical. The subject's right is the image's left.
 */
function splitSides(classes: Partial<Record<ParsingClass, Uint8Array>>, win: Rect, roi: Roi, face: Face, at?: Lattice): Partial<Record<ParsingClass, Uint8Array>> {
  const [mx, my] = face.mesh ? face.mesh[BETWEEN_EYES] : [roi.cx, roi.cy];
  const c = Math.cos(roi.angle), s = Math.sin(roi.angle);
  // The planes' points in window pixels: every pixel, or the lattice's.
  const nx = at ? at.xs.length : win.w, ny = at ? at.ys.length : win.h;
  for (const [right, left] of SIDES) {
    const a = classes[right], b = classes[left];
    if (!a && !b) continue;
    const r = new Uint8Array(nx * ny), l = new Uint8Array(nx * ny);
    let inR = false, inL = false;
    for (let q = 0; q < ny; q++) {
      const dy = win.y0 + (at ? at.ys[q] : q) + 0.5 - my;
      for (let k = 0, i = q * nx; k < nx; k++, i++) {
        const v = Math.min(255, (a ? a[i] : 0) + (b ? b[i] : 0));
        if (v === 0) continue;
        // Across the upright face: negative on the subject's right.
        if (c * (win.x0 + (at ? at.xs[k] : k) + 0.5 - mx) + s * dy < 0) { r[i] = v; inR = true; } else { l[i] = v; inL = true; }
      }
    }
    if (inR) classes[right] = r; else delete classes[right];
    if (inL) classes[left] = l; else delete classes[left];
  }
  return classes;
}

/**
 * The logits' softmax at image pixels of `win` (all, or the lattice's points): computed on a grid at about
 * the crop's resolution (bilinear logits, as the graph's own resize does), then each present class is
 * guided-filtered up to full size.
 */
async function toImage(logits: Float32Array, out: number, roi: Roi, win: Rect, image: RasterImage, wanted?: readonly ParsingClass[], merge?: ParseOptions['merge'], at?: Lattice): Promise<Partial<Record<ParsingClass, Uint8Array>>> {
  const L = out / STRIDE, C = PARSING_CLASSES.length;
  if (logits.length !== L * L * C) throw new Error(`parseFace: expected ${L}x${L}x${C} logits, got ${logits.length}`);
  const k = Math.min(1, (out * GRID) / roi.size);
  const gw = Math.max(1, Math.round(win.w * k)), gh = Math.max(1, Math.round(win.h * k));
  // GUIDE_RADIUS is in crop pixels; a small face's grid (the image's own pixels) is coarser than its crop.
  const radius = Math.max(1, Math.round((GUIDE_RADIUS * roi.size * k) / out));
  const same = gw === win.w && gh === win.h;
  const full = at ? latticeLuma(image, win, at) : windowLuma(image, win);
  const small = same ? (at ? windowLuma(image, win) : full) : await resizedLuma(image, win, gw, gh);
  const stats = guideStats(small, gw, gh, radius);
  const result: Partial<Record<ParsingClass, Uint8Array>> = {};
  const n = gw * gh;
  // A side's class takes its partner along: the model's left and right are summed and re-split (splitSides).
  const want = wanted && new Set(wanted.flatMap((k) => [k, ...SIDES.filter((pair) => (pair as readonly ParsingClass[]).includes(k)).flat()]));
  const members = new Map<number, number[]>(), merged = new Set<number>();
  for (const g of merge ?? []) {
    const [first, ...rest] = g.map((k) => PARSING_CLASSES.indexOf(k));
    members.set(first, rest);
    for (const k of rest) merged.add(k);
  }
  // The classes read below: the softmax still sums over all, but writes only these planes.
  const read = PARSING_CLASSES.map(() => false);
  for (let c = 0; c < C; c++) {
    if (merged.has(c) || (want && !want.has(PARSING_CLASSES[c]))) continue;
    read[c] = true;
    for (const k of members.get(c) ?? []) read[k] = true;
  }
  const { probs, slot } = softmaxPlanes(logits, L, out, roi, win, gw, gh, read);
  for (let c = 0; c < C; c++) {
    if (!read[c] || merged.has(c)) continue;
    let p = probs.subarray(slot[c] * n, (slot[c] + 1) * n);
    const rest = members.get(c);
    if (rest) {
      p = Float32Array.from(p);
      for (const k of rest) { const q = probs.subarray(slot[k] * n, (slot[k] + 1) * n); for (let i = 0; i < n; i++) p[i] += q[i]; }
    }
    let max = 0;
    for (let i = 0; i < n; i++) if (p[i] > max) max = p[i];
    if (max < MIN_PROB) continue;
    // Below 1/255 a value is zero in the 8-bit result; the filter reaches 2r from where p is.
    const box = boundingBox(p, gw, gh, 0.5 / 255, 2 * radius + 1)!;
    result[PARSING_CLASSES[c]] = guidedUpsample(stats, small, p, box, GUIDE_EPS, full, win.w, win.h, at);
  }
  return result;
}

/**
 * Class probabilities at the centres of a gw x gh grid over `win` (one gw x gh plane per class); zero
 * outside the crop. With `keep`, only the kept classes' planes are written (the others stay 0): writing the
 * 19 planes, each a strided store per point, was a good part of the cost. Model output pixel p (centre at crop coordinate p + 0.5) is logit coordinate p / STRIDE:
 * the graph's ResizeBilinear has neither align_corners nor half_pixel_centers.
 */
export function softmaxGrid(logits: Float32Array, L: number, out: number, roi: Roi, win: Rect, gw: number, gh: number, keep?: readonly boolean[]): Float32Array {
  const C = PARSING_CLASSES.length, N = gw * gh;
  const { probs, slot } = softmaxPlanes(logits, L, out, roi, win, gw, gh, keep);
  const all = new Float32Array(N * C);
  for (let q = 0; q < C; q++) if (slot[q] >= 0) all.set(probs.subarray(slot[q] * N, (slot[q] + 1) * N), q * N);
  return all;
}

/**
 * softmaxGrid's kept planes only, one after another (class q's at slot[q] * gw * gh; slot -1 when not kept):
 * a face's 19 full planes were several megabytes allocated and collected for the half of them never read.
 */
function softmaxPlanes(logits: Float32Array, L: number, out: number, roi: Roi, win: Rect, gw: number, gh: number, keep?: readonly boolean[]): { probs: Float32Array; slot: Int32Array } {
  const C = PARSING_CLASSES.length, N = gw * gh;
  const kept = Int32Array.from(PARSING_CLASSES.map((_, q) => q).filter((q) => !keep || keep[q]));
  const slot = new Int32Array(C).fill(-1);
  kept.forEach((q, k) => { slot[q] = k; });
  const probs = new Float32Array(N * kept.length);
  const c = Math.cos(roi.angle), n = Math.sin(roi.angle), s = out / roi.size;
  const sx = win.w / gw, sy = win.h / gh;
  const z = new Float32Array(C);
  for (let j = 0; j < gh; j++) {
    const y = win.y0 + (j + 0.5) * sy - roi.cy;
    for (let i = 0; i < gw; i++) {
      const x = win.x0 + (i + 0.5) * sx - roi.cx;
      // Image point -> crop coordinates (the inverse of roiPoint).
      const u = (c * x + n * y) * s + out / 2, v = (-n * x + c * y) * s + out / 2;
      if (u < 0 || v < 0 || u > out || v > out) continue;
      const gx = Math.min(L - 1, Math.max(0, (u - 0.5) / STRIDE)), gy = Math.min(L - 1, Math.max(0, (v - 0.5) / STRIDE));
      const x0 = Math.floor(gx), y0 = Math.floor(gy), x1 = Math.min(L - 1, x0 + 1), y1 = Math.min(L - 1, y0 + 1);
      const fx = gx - x0, fy = gy - y0;
      const a = (y0 * L + x0) * C, b = (y0 * L + x1) * C, d = (y1 * L + x0) * C, e = (y1 * L + x1) * C;
      const w00 = (1 - fx) * (1 - fy), w01 = fx * (1 - fy), w10 = (1 - fx) * fy, w11 = fx * fy;
      let max = -Infinity;
      for (let q = 0; q < C; q++) {
        const l = w00 * logits[a + q] + w01 * logits[b + q] + w10 * logits[d + q] + w11 * logits[e + q];
        z[q] = l;
        if (l > max) max = l;
      }
      let sum = 0;
      // exp(-16) is 1e-7: such classes are zero here, and most classes are that far below the best.
      for (let q = 0; q < C; q++) { const d = z[q] - max; z[q] = d < -16 ? 0 : Math.exp(d); sum += z[q]; }
      const o = j * gw + i;
      for (let k = 0; k < kept.length; k++) probs[k * N + o] = z[kept[k]] / sum;
    }
  }
  return { probs, slot };
}

/** The probability of any of the classes (their sum, clipped) as a full-size mask. */
export function classMask(parsing: FaceParsing, cls: ParsingClass | readonly ParsingClass[], size: { width: number; height: number }): Mask {
  const names = typeof cls === 'string' ? [cls] : cls;
  const planes = names.map((n) => parsing.classes[n]).filter((p): p is Uint8Array => !!p);
  const data = new Uint8Array(size.width * size.height);
  const { x0, y0, w, h } = parsing.win;
  for (let y = 0; y < h; y++) {
    const o = (y0 + y) * size.width + x0;
    for (let x = 0; x < w; x++) {
      let v = 0;
      for (const p of planes) v += p[y * w + x];
      data[o + x] = v > 255 ? 255 : v;
    }
  }
  return { data, width: size.width, height: size.height };
}
