/** The shared photos with a ground-truth alpha or mask, for the cutout quality scripts (../shared/testdata). */
import { existsSync } from 'node:fs';
import path from 'node:path';

export interface CutoutTruth { name: string; image: string; truth: string }

/** Those present under `testdata`; paths relative to it. */
export function cutoutTruthPairs(testdata: string): CutoutTruth[] {
  return [
    ...[0, 1, 2].map((i) => ({ name: `dim_crop_${i}`, image: `matting/dim_crop_${i}.png`, truth: `matting/dim_crop_${i}_alpha.png` })),
    ...['banana1', 'book', 'flower', 'teddy'].map((n) => ({ name: `grabcut_${n}`, image: `segmentation/grabcut_${n}.jpg`, truth: `segmentation/grabcut_${n}_mask.png` })),
  ].filter((p) => existsSync(path.join(testdata, p.image)) && existsSync(path.join(testdata, p.truth)));
}
