/** Body keypoints (work in progress: shapes as agreed). */
import type { RasterImage } from '../../effects/effect.ts';
import type { ModelRegistry } from '../models/registry.ts';

export interface Keypoint { name: string; x: number; y: number; score: number }

export async function bodyKeypoints(_models: ModelRegistry, _image: RasterImage): Promise<Keypoint[]> {
  return [];
}
