/**
 * Body keypoints and COCO objects from the registry's Human instance, for garment parsing.
 */
import type { RasterImage } from '../../../image/raster.ts';
import type { Rect } from '../../../image/rect.ts';
import { detectOnce, type HumanLike } from '../../../vision/models/human.ts';
import { detectorView } from '../../../vision/faces/view.ts';
import { DETECTION } from './tuning.ts';

export interface BodyPoint { name: string; x: number; y: number; score: number }
export interface DetectedObject { label: string; score: number; box: Rect }

interface RawObject { label: string; score: number; box: [number, number, number, number] }
interface RawBody { score: number; keypoints: { part: string; position: [number, number, number?]; score: number }[] }

async function runOnce(h: HumanLike, image: RasterImage, config: Record<string, unknown>) {
  // A square view (padded right and bottom) keeps proportions for the square-input models.
  const view = await detectorView(image, DETECTION.viewSide);
  const result = await detectOnce<{ body: RawBody[]; object: RawObject[] }>(h, h.tf.tensor4d(view.data, [1, view.size, view.size, 3], 'int32'), config);
  return { result, k: 1 / view.scale };
}

/** 17 COCO keypoints of the most prominent person (movenet), in image pixels. */
export async function bodyPoints(human: unknown, image: RasterImage): Promise<BodyPoint[]> {
  const { result, k } = await runOnce(human as HumanLike, image, {
    face: { enabled: false }, hand: { enabled: false }, object: { enabled: false }, segmentation: { enabled: false },
    body: { enabled: true, modelPath: 'movenet-thunder.json', maxDetected: 1, minConfidence: DETECTION.bodyMinConfidence, skipFrames: 0, skipTime: 0 },
  });
  const body = result.body[0];
  if (!body) return [];
  return body.keypoints.map((p) => ({ name: p.part, x: p.position[0] * k, y: p.position[1] * k, score: p.score }));
}

/** COCO objects (centernet), in image pixels. */
export async function detectObjects(human: unknown, image: RasterImage, minScore = DETECTION.objectMinScore): Promise<DetectedObject[]> {
  const { result, k } = await runOnce(human as HumanLike, image, {
    face: { enabled: false }, hand: { enabled: false }, body: { enabled: false }, segmentation: { enabled: false },
    object: { enabled: true, modelPath: 'centernet.json', minConfidence: minScore, iouThreshold: DETECTION.objectIou, maxDetected: DETECTION.objectMax, skipFrames: 0, skipTime: 0 },
  });
  return result.object.map((o) => ({ label: o.label, score: o.score, box: { x0: o.box[0] * k, y0: o.box[1] * k, w: o.box[2] * k, h: o.box[3] * k } }));
}
