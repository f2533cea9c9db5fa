/**
 * Mask quality of commodity-background-removal against ground truth: mean IoU (alpha >= 128) and MAE
 * (alpha in [0, 1]) of the effect's model (--all-models: both sizes), with and without the guided-filter edge refinement.
 *   npx tsx scripts/quality/commodity.ts [--render DIR] [--all-models] [--context F]
 * Columns: `plain` = matte resized bilinearly (what the effect does for these images, all smaller than the
 * 1024 grid); `gf` = guided filter forced on; `/2`, `/4` = the same with the matte first coarsened to a half
 * or a quarter of its grid, standing in for photos larger than the grid, which is where the effect refines.
 * Data: ATELIER_TESTDATA or ../shared/testdata beside the repository (matting/dim_crop_*, segmentation/grabcut_*).
 * --render writes each mask and a cutout on a checkerboard, for looking at the edges.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import {
  applyReturnForm, type CommodityAlpha as Alpha, COMMODITY_CONTEXT as CONTEXT, COMMODITY_MODEL as MODEL,
  type CommodityParams as P, type CommodityPredicted as Predicted, type Ctx, encodeResult, guidedUpscale,
  ModelRegistry, predictMatte, type RasterImage, refineEdges, resizeMatte, runStep, type Step, stepContext, Steps
} from '../../engine/for-scripts.ts';
import { cutoutTruthPairs } from '../datasets/cutout-truth.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(repoRoot, '../shared/testdata');
const renderIdx = process.argv.indexOf('--render');
const renderDir = renderIdx > 0 ? process.argv[renderIdx + 1] : undefined;

const pairs = cutoutTruthPairs(testdata);

if (!pairs.length) {
  console.log(`No ground-truth test data at ${testdata} (set ATELIER_TESTDATA); nothing measured.`);
  process.exit(0);
}

// The effect's model only, unless --all-models (isnet-small beside it, for comparison).
const models = process.argv.includes('--all-models') ? ['isnet-small', 'isnet-medium'] : [MODEL];
// --context F overrides the effect's margin (a fraction of each side, edge pixels repeated), for comparing.
const contextIdx = process.argv.indexOf('--context');
const context = contextIdx > 0 ? Number(process.argv[contextIdx + 1]) : CONTEXT;
console.log(`models: ${models.join(', ')}; context ${context.toFixed(3)} per side, edge pixels repeated`);

/** Shrinks the matte and its guide by `f` (sharp, linear), as if the model's grid were coarser. */
const coarsen = (f: number): Step<P, Predicted, Predicted> => async (c) => {
  const v = c.state;
  const w = Math.max(1, Math.round(v.matte.width / f)), h = Math.max(1, Math.round(v.matte.height / f));
  const shrink = (data: Uint8Array, channels: 1 | 3) => {
    const s = sharp(data, { raw: { width: v.matte.width, height: v.matte.height, channels } }).resize(w, h, { fit: 'fill', kernel: 'linear' });
    return (channels === 1 ? s.toColourspace('b-w') : s).raw().toBuffer();
  };
  return { modelRgb: await shrink(v.modelRgb, 3), matte: { data: await shrink(v.matte.data, 1), width: w, height: h } };
};
const fromPrediction = () => new Steps<P, Predicted>([]);
const tails: Record<string, Steps<P, Alpha>> = {
  plain: fromPrediction().step(resizeMatte),
  gf: fromPrediction().step(guidedUpscale).step(resizeMatte),
  'plain/2': fromPrediction().step(coarsen(2)).step(resizeMatte),
  'gf/2': fromPrediction().step(coarsen(2)).step(refineEdges).step(resizeMatte),
  'plain/4': fromPrediction().step(coarsen(4)).step(resizeMatte),
  'gf/4': fromPrediction().step(coarsen(4)).step(refineEdges).step(resizeMatte),
};

async function load(file: string): Promise<RasterImage> {
  const { data, info } = await sharp(file).rotate().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 };
}
async function grey(file: string | Buffer): Promise<Buffer> {
  return sharp(file).toColourspace('b-w').raw().toBuffer();
}

/** IoU of alpha >= 128 and MAE of alpha/255, skipping truth pixels of 128 (GrabCut's unlabelled band). */
function score(pred: Uint8Array, truth: Uint8Array, skip128: boolean) {
  let inter = 0, union = 0, abs = 0, n = 0;
  for (let i = 0; i < truth.length; i++) {
    if (skip128 && truth[i] === 128) continue;
    const p = pred[i] >= 128, t = truth[i] >= 128;
    if (p && t) inter++;
    if (p || t) union++;
    abs += Math.abs(pred[i] - truth[i]);
    n++;
  }
  return { iou: union ? inter / union : 1, mae: abs / 255 / n };
}

async function render(name: string, image: RasterImage, mask: Buffer) {
  const { width: w, height: h } = image;
  const checker = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) checker.fill(((x >> 3) + (y >> 3)) % 2 ? 200 : 110, (y * w + x) * 3, (y * w + x) * 3 + 3);
  const rgb = await sharp(image.data, { raw: image }).removeAlpha().raw().toBuffer();
  const cut = await sharp(rgb, { raw: { width: w, height: h, channels: 3 } }).joinChannel(mask, { raw: { width: w, height: h, channels: 1 } }).png().toBuffer();
  await sharp(checker, { raw: { width: w, height: h, channels: 3 } }).composite([{ input: cut }]).png().toFile(path.join(renderDir!, `${name}_cutout.png`));
  await sharp(mask, { raw: { width: w, height: h, channels: 1 } }).toColourspace('b-w').png().toFile(path.join(renderDir!, `${name}_mask.png`));
}

const registry = new ModelRegistry({ threads: 2 });
const kit = { models: registry, signal: new AbortController().signal };
const rows: Record<string, { iou: number; mae: number }[]> = {};
if (renderDir) mkdirSync(renderDir, { recursive: true });

for (const pair of pairs) {
  const image = await load(path.join(testdata, pair.image));
  const truth = await grey(path.join(testdata, pair.truth));
  const line: string[] = [pair.name.padEnd(16)];
  for (const model of models) {
    // The network runs once per model; both tails start from copies of its values.
    const base = stepContext<P>(image, { return_form: 'mask' }, kit.models);
    const predicted = await predictMatte(model, context)(base, kit);
    for (const [tail, steps] of Object.entries(tails)) {
      const c: Ctx<P, object> = { ...base, state: { ...predicted }, output: { images: {} } };
      for (const s of steps.step(applyReturnForm).step(encodeResult).list) await runStep(s, c, kit);
      const mask = await grey(c.output.images.result.data);
      const s = score(mask, truth, pair.image.startsWith('segmentation/'));
      (rows[`${model} ${tail}`] ??= []).push(s);
      line.push(`${s.iou.toFixed(3)} ${s.mae.toFixed(3)}`);
      if (renderDir) await render(`${pair.name}_${model}_${tail.replace("/", "q")}`, image, mask);
    }
  }
  if (pair === pairs[0]) {
    console.log(' '.repeat(17) + models.map((m) => m.padEnd(12 * Object.keys(tails).length)).join(''));
    console.log(''.padEnd(17) + models.map(() => Object.keys(tails).map((t) => t.padEnd(12)).join('')).join(''));
    console.log(''.padEnd(17) + 'IoU   MAE   '.repeat(models.length * Object.keys(tails).length));
  }
  console.log(line.join(' '));
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log('\nmean over', pairs.length, 'images (target IoU >= 0.92):');
for (const [k, v] of Object.entries(rows)) console.log(`  ${k.padEnd(22)} IoU ${mean(v.map((r) => r.iou)).toFixed(4)}  MAE ${mean(v.map((r) => r.mae)).toFixed(4)}`);
// The GrabCut photos alone: whole objects inside the frame, the usual product-photo case.
// The DIM crops alone: tight close-ups with the subject cut by the borders.
for (const [prefix, what] of [['grabcut_', 'GrabCut images (whole objects)'], ['dim_crop_', 'DIM crops (subject cut by the borders)']]) {
  const sel = pairs.map((p) => p.name.startsWith(prefix));
  if (!sel.some(Boolean) || sel.every(Boolean)) continue;
  console.log('\nmean over the', sel.filter(Boolean).length, `${what}:`);
  for (const [k, v] of Object.entries(rows)) {
    const g = v.filter((_, i) => sel[i]);
    console.log(`  ${k.padEnd(22)} IoU ${mean(g.map((r) => r.iou)).toFixed(4)}  MAE ${mean(g.map((r) => r.mae)).toFixed(4)}`);
  }
}
