/**
 * Full resolution for the product cutout: how much edge quality a mask loses when it is computed on a fitted
 * (half-size) copy of the photo and brought back up, against the mask computed on the photo itself.
 *   npx tsx scripts/quality/cutout-upscale.ts
 * The half-size copy stands in for the interface's 1999 px fit of a 4032x3024 phone photo (a factor of
 * about 2). Two half-size masks: `net on half` (the effect's own steps on the half-size copy: the network
 * also sees less detail) and `mask shrunk` (the full-size mask shrunk to half: the upscale's loss alone,
 * which is the phone-photo case, where the network sees a 1024 px copy either way). Each is brought back to
 * full size two ways: `bilinear` (sharp, linear) and `guided` (the effect's guided upscale: coefficients on
 * the half-size grid with its luma as guide, applied to the full photo's luma), and scored as MAE of alpha
 * (0..1) against the full-size mask in its soft band (0 < alpha < 255, dilated by 2 px) and against the
 * ground truth over the frame (DIM alpha, GrabCut masks without their unlabelled 128 band).
 * Data: ATELIER_TESTDATA or ../shared/testdata beside the repository (matting/dim_crop_*, segmentation/grabcut_*).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import {
  type CommodityAlpha as Alpha, COMMODITY_MODEL as MODEL, type CommodityParams as P, type Ctx, dilate, guidedUpscale,
  ModelRegistry, predictMatte, type RasterImage, refineEdges, resizeMatte, runStep, stepContext, Steps
} from '../../engine/for-scripts.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(repoRoot, '../shared/testdata');
const pairs = [
  ...[0, 1, 2].map((i) => ({ name: `dim_crop_${i}`, image: `matting/dim_crop_${i}.png`, truth: `matting/dim_crop_${i}_alpha.png` })),
  ...['banana1', 'book', 'flower', 'teddy'].map((n) => ({ name: `grabcut_${n}`, image: `segmentation/grabcut_${n}.jpg`, truth: `segmentation/grabcut_${n}_mask.png` })),
].filter((p) => existsSync(path.join(testdata, p.image)) && existsSync(path.join(testdata, p.truth)));
if (!pairs.length) {
  console.log(`No ground-truth test data at ${testdata} (set ATELIER_TESTDATA); nothing measured.`);
  process.exit(0);
}

const registry = new ModelRegistry({ threads: 2 });
const kit = { models: registry, signal: new AbortController().signal };

async function rgbOf(input: string | Buffer, raw?: { width: number; height: number; channels: 3 }): Promise<RasterImage> {
  const { data, info } = await sharp(input, raw ? { raw } : {}).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}

async function effectAlpha(image: RasterImage): Promise<Uint8Array> {
  const c = stepContext<P>(image, { return_form: 'mask' }, kit.models) as Ctx<P, object>;
  for (const s of new Steps<P, object>([]).step(predictMatte(MODEL)).step(refineEdges).step(resizeMatte).list) await runStep(s, c, kit);
  return (c.state as Alpha).alpha;
}

/** MAE (alpha 0..1) of `a` against `b` over the pixels `where` allows. */
function mae(a: Uint8Array, b: Uint8Array, where: (i: number) => boolean): number {
  let sum = 0, n = 0;
  for (let i = 0; i < a.length; i++) if (where(i)) { sum += Math.abs(a[i] - b[i]); n++; }
  return n ? sum / n / 255 : 0;
}

const up = {
  bilinear: async (small: Uint8Array, hw: number, hh: number, image: RasterImage) => new Uint8Array(await sharp(small, { raw: { width: hw, height: hh, channels: 1 } })
    .resize(image.width, image.height, { fit: 'fill', kernel: 'linear' }).extractChannel(0).raw().toBuffer()),
  guided: async (small: Uint8Array, hw: number, hh: number, image: RasterImage, half: RasterImage) => {
    const c = stepContext<P>(image, { return_form: 'mask' }, kit.models);
    return guidedUpscale({ ...c, state: { matte: { data: small, width: hw, height: hh }, modelRgb: half.data } }).alpha;
  },
};
const cols = ['net on half: bilinear', 'net on half: guided', 'mask shrunk: bilinear', 'mask shrunk: guided'];
console.log(`MAE of alpha (0..1): each way's mask against the full-size mask in its soft band | against the truth`);
console.log(`${'image'.padEnd(17)}${cols.map((c) => c.padStart(24)).join('')}${'full vs truth'.padStart(16)}`);
const totals: Record<string, number[][]> = {};
for (const pair of pairs) {
  const image = await rgbOf(path.join(testdata, pair.image));
  const { width, height } = image;
  const truth = new Uint8Array(await sharp(path.join(testdata, pair.truth)).toColourspace('b-w').raw().toBuffer());
  const hw = Math.round(width / 2), hh = Math.round(height / 2);
  const half = await rgbOf(await sharp(image.data, { raw: image }).resize(hw, hh, { fit: 'fill' }).raw().toBuffer(), { width: hw, height: hh, channels: 3 });
  const full = await effectAlpha(image);
  const fromNet = await effectAlpha(half);
  const shrunk = new Uint8Array(await sharp(full, { raw: { width, height, channels: 1 } }).resize(hw, hh, { fit: 'fill' }).extractChannel(0).raw().toBuffer());
  const soft = new Uint8Array(full.length);
  for (let i = 0; i < full.length; i++) soft[i] = full[i] > 0 && full[i] < 255 ? 255 : 0;
  const band = dilate(soft, width, height, 2);
  const labelled = (i: number) => !pair.image.startsWith('segmentation/') || truth[i] !== 128;
  const line = [pair.name.padEnd(17)];
  for (const [k, [small, way]] of ([[fromNet, 'bilinear'], [fromNet, 'guided'], [shrunk, 'bilinear'], [shrunk, 'guided']] as const).entries()) {
    const alpha = await up[way](small, hw, hh, image, half);
    const scores = [mae(alpha, full, (i) => band[i] > 0), mae(alpha, truth, labelled)];
    (totals[cols[k]] ??= []).push(scores);
    line.push(`${scores[0].toFixed(4)} | ${scores[1].toFixed(4)}`.padStart(24));
  }
  const fullTruth = mae(full, truth, labelled);
  (totals['full vs truth'] ??= []).push([0, fullTruth]);
  console.log(line.join('') + fullTruth.toFixed(4).padStart(16));
}
console.log(`\nmean over ${pairs.length} images (vs full-size mask in its band | vs truth):`);
for (const [k, v] of Object.entries(totals)) {
  const m = (j: number) => (v.reduce((a, b) => a + b[j], 0) / v.length).toFixed(4);
  console.log(`  ${k.padEnd(24)} ${m(0)} | ${m(1)}`);
}
