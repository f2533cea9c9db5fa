/**
 * Smart crop: the subject (every face, larger ones weighing more, with the salient object or figure they
 * belong to; else the salient object alone) → the largest window of the target aspect that keeps it → that
 * window scaled to exactly width x height.
 */
import { defineEffect, steps } from '../../pipeline/effect.ts';
import { chooseWindow, cropAndScale, findFaces, findSalientObject, type P } from './steps.ts';

// The same ISNet weights as product background removal.
const SALIENCY = 'isnet-medium';
/**
 * ISNet's input side for the crop (product cutout keeps 1024). The crop needs the subject's column and row
 * sums and the crowns above faces, not a cutout's edges. scripts/quality/cropping.ts --sides 1024,512,640
 * --split, on the 69 photos done in the time (27 with faces, 42 masks, of them 35 apparel people), fit /
 * check halves by name hash: faces kept 49/56 and 113/124 at every side; heads kept 64/64 and 76/76 at 1024
 * and 640, 61/64 and 76/76 at 512 (one apparel photo's head cut at three targets); mask kept 79.4/79.1 %
 * at 1024, 80.7/78.8 % at 640, 79.7/78.4 % at 512 (the swings are the 3 matting photos, which have no faces
 * and where ISNet at another side can pick another object: +-35 points both ways). 640 costs ~40 % of
 * 1024's CPU (scripts/bench/steps.ts --crop-sides), but is a second session beside product cutout's: the soak's peak
 * (200 requests, concurrency 8, every endpoint) was 3.40 GB with it against 2.69 GB sharing the 1024 one,
 * over the 3 GB target, so the crop shares it; at 1024 it takes about 1.03x its model's time.
 */
export const SALIENCY_SIDE = 1024;

/** The steps that find the subject, with ISNet at `side` (scripts/quality/cropping.ts reuses them). */
export const findSubjectAt = (side: number) => steps<P>().step(findFaces).step(findSalientObject(SALIENCY, side));
export const findSubject = findSubjectAt(SALIENCY_SIDE);

/** The effect with ISNet at `side` (scripts/bench/steps.ts compares sides). */
export const smartCrop = (side: number) => defineEffect({
  slug: 'image-cropping',
  models: ['human', SALIENCY],
  steps: findSubjectAt(side).step(chooseWindow).step(cropAndScale),
});

export default smartCrop(SALIENCY_SIDE);
