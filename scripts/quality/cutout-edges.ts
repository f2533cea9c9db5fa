/**
 * Edge colour of the product cutout: how much of the old background its soft edge carries, before and after
 * decontamination (engine/image/foreground.ts).
 *   npx tsx scripts/quality/cutout-edges.ts [--render DIR] [--wide N] [--narrow N]
 * The figure: over the semi-transparent band of the ground truth (0 < alpha < 255), the mean absolute
 * difference (0..255, per channel) between a cutout laid on neutral grey (128) and the reference laid on the
 * same grey. The reference is the ground-truth alpha with the true foreground colour:
 *   - GrabCut photos (segmentation/grabcut_*): the foreground is known exactly, since the test photo is made
 *     here: the object's colours (inside the ground-truth mask, carried outward by nearest
 *     pixel from a few pixels inside its edge, where the photo's original background no longer mixes in), under the mask feathered (Gaussian, sigma 2 px) as alpha, composited over a saturated colour
 *     (the teddy on red, as in the issue). The reference is that foreground under that alpha.
 *   - DIM crops (matting/dim_crop_*, Adobe ground-truth alpha): the true foreground is not shipped; the
 *     reference takes, for each band pixel, the colour of the nearest pixel whose ground-truth alpha is 255
 *     (fur and hair strands share their body's colour only roughly, so this reference is approximate).
 * Columns: `effect` = the effect's own alpha (ISNet, as the API answers), `gt alpha` = the ground-truth alpha
 * with our colours (the colour estimate alone, free of the matte's errors); each with the photo's colours
 * (`orig`) and the decontaminated ones (`decont`). --wide/--narrow override the blur-fusion radii (px at a
 * 1024 px long side), for tuning on the fit half; --sweep prints the fit half's means over a grid of radii.
 * Data: ATELIER_TESTDATA or ../shared/testdata beside the repository. Fixed split by file (before tuning):
 * fit = dim_crop_0, grabcut_banana1, grabcut_book; check = dim_crop_1, dim_crop_2, grabcut_flower, grabcut_teddy.
 * --render writes, per image, a sheet at 100 %: photo | cutout on grey before | after | reference.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import {
  type CommodityAlpha as Alpha, COMMODITY_MODEL as MODEL, type CommodityParams as P, type Ctx, decontaminate,
  FOREGROUND_RADII, ModelRegistry, predictMatte, type RasterImage, refineEdges, resizeMatte, runStep, stepContext, Steps
} from '../../engine/for-scripts.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(repoRoot, '../shared/testdata');
const arg = (name: string) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const renderDir = arg('--render');
const GREY = 128;

interface Item { name: string; half: 'fit' | 'check'; kind: 'dim' | 'grabcut'; image: string; truth: string; bg?: [number, number, number] }
const items: Item[] = ([
  { name: 'dim_crop_0', half: 'fit', kind: 'dim' },
  { name: 'grabcut_banana1', half: 'fit', kind: 'grabcut', bg: [30, 60, 210] },
  { name: 'grabcut_book', half: 'fit', kind: 'grabcut', bg: [40, 170, 60] },
  { name: 'dim_crop_1', half: 'check', kind: 'dim' },
  { name: 'dim_crop_2', half: 'check', kind: 'dim' },
  { name: 'grabcut_flower', half: 'check', kind: 'grabcut', bg: [30, 60, 210] },
  { name: 'grabcut_teddy', half: 'check', kind: 'grabcut', bg: [210, 30, 40] },
] as const).map((i) => ({
  ...i,
  image: i.kind === 'dim' ? `matting/${i.name}.png` : `segmentation/${i.name}.jpg`,
  truth: i.kind === 'dim' ? `matting/${i.name}_alpha.png` : `segmentation/${i.name}_mask.png`,
  bg: 'bg' in i ? [...i.bg] as [number, number, number] : undefined,
})).filter((i) => existsSync(path.join(testdata, i.image)) && existsSync(path.join(testdata, i.truth)));
if (!items.length) {
  console.log(`No matting test data at ${testdata} (set ATELIER_TESTDATA); nothing measured.`);
  process.exit(0);
}

async function rgbOf(file: string): Promise<RasterImage> {
  const { data, info } = await sharp(file).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}
const greyOf = async (file: string) => new Uint8Array(await sharp(file).toColourspace('b-w').raw().toBuffer());

/** For every pixel, the colour of the nearest (4-connected steps) pixel where `alpha` is 255. */
function nearestOpaque(image: RasterImage, alpha: Uint8Array): Uint8Array {
  const { width: w, height: h, data } = image;
  const source = new Int32Array(w * h).fill(-1);
  const queue = new Int32Array(w * h);
  let head = 0, tail = 0;
  for (let i = 0; i < alpha.length; i++) if (alpha[i] === 255) { source[i] = i; queue[tail++] = i; }
  while (head < tail) {
    const i = queue[head++], x = i % w;
    for (const j of [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, i >= w ? i - w : -1, i + w < w * h ? i + w : -1]) {
      if (j >= 0 && source[j] < 0) { source[j] = source[i]; queue[tail++] = j; }
    }
  }
  const out = new Uint8Array(data.length);
  for (let i = 0; i < alpha.length; i++) {
    const s = source[i] < 0 ? i : source[i];
    for (let c = 0; c < 3; c++) out[i * 3 + c] = data[s * 3 + c];
  }
  return out;
}

/** The test photo, its ground-truth alpha and the true (or reference) foreground colours. */
async function prepare(item: Item): Promise<{ image: RasterImage; truth: Uint8Array; foreground: Uint8Array }> {
  const photo = await rgbOf(path.join(testdata, item.image));
  if (item.kind === 'dim') {
    const truth = await greyOf(path.join(testdata, item.truth));
    return { image: photo, truth, foreground: nearestOpaque(photo, truth) };
  }
  const { width, height } = photo;
  // GrabCut's 128 is its unlabelled band around the object: counted as object before feathering.
  const mask = await greyOf(path.join(testdata, item.truth));
  for (let i = 0; i < mask.length; i++) mask[i] = mask[i] >= 128 ? 255 : 0;
  const truth = new Uint8Array(await sharp(mask, { raw: { width, height, channels: 1 } }).blur(2).extractChannel(0).raw().toBuffer());
  // The foreground: the object's own colours, carried outward from the mask's edge where the feathered
  // alpha reaches past it (so none of the photo's original background is in it).
  // The photo's own pixels along the mask's edge mix in its original background, so the colours are
  // carried from a few pixels inside (the mask eroded by blurring it and keeping only what stays 255).
  const inner = new Uint8Array(await sharp(mask, { raw: { width, height, channels: 1 } }).blur(2).extractChannel(0).raw().toBuffer());
  const foreground = nearestOpaque(photo, inner);
  const bg = item.bg!;
  const data = Buffer.alloc(photo.data.length);
  for (let i = 0; i < truth.length; i++) {
    const a = truth[i];
    for (let c = 0; c < 3; c++) data[i * 3 + c] = Math.round((a * foreground[i * 3 + c] + (255 - a) * bg[c]) / 255);
  }
  return { image: { data, width, height, channels: 3 }, truth, foreground };
}

/** Colours under alpha, over grey. */
function onGrey(colours: Uint8Array, alpha: Uint8Array): Buffer {
  const out = Buffer.alloc(colours.length);
  for (let i = 0; i < alpha.length; i++) {
    const a = alpha[i] / 255;
    for (let c = 0; c < 3; c++) out[i * 3 + c] = Math.round(a * colours[i * 3 + c] + (1 - a) * GREY);
  }
  return out;
}

/** Mean absolute difference over the ground truth's semi-transparent band. */
function bandError(a: Uint8Array, b: Uint8Array, truth: Uint8Array): number {
  let sum = 0, n = 0;
  for (let i = 0; i < truth.length; i++) {
    if (truth[i] === 0 || truth[i] === 255) continue;
    for (let c = 0; c < 3; c++) sum += Math.abs(a[i * 3 + c] - b[i * 3 + c]);
    n += 3;
  }
  return n ? sum / n : 0;
}

const radii = { wide: Number(arg('--wide') ?? FOREGROUND_RADII.wide), narrow: Number(arg('--narrow') ?? FOREGROUND_RADII.narrow) };

const registry = new ModelRegistry({ threads: 2 });
const kit = { models: registry, signal: new AbortController().signal };
if (renderDir) mkdirSync(renderDir, { recursive: true });

/** The effect's alpha for the image (its own steps up to the full-resolution alpha). */
async function effectAlpha(image: RasterImage): Promise<Uint8Array> {
  const c = stepContext<P>(image, { return_form: 'mask' }, kit.models) as Ctx<P, object>;
  for (const s of new Steps<P, object>([]).step(predictMatte(MODEL)).step(refineEdges).step(resizeMatte).list) await runStep(s, c, kit);
  return (c.state as Alpha).alpha;
}

if (process.argv.includes('--sweep')) {
  const fit = [];
  for (const item of items.filter((i) => i.half === 'fit')) {
    const p = await prepare(item);
    fit.push({ ...p, ours: await effectAlpha(p.image), reference: onGrey(p.foreground, p.truth) });
  }
  console.log('fit half, mean band error: wide narrow | effect decont | gt alpha decont');
  for (const wide of [15, 45, 90, 150]) for (const narrow of [3, 6, 10, 15, 30]) {
    const e = [0, 0];
    for (const { image, truth, ours, reference } of fit) {
      const radii = { wide, narrow };
      [ours, truth].forEach((a, j) => { e[j] += bandError(onGrey(decontaminate(image.data, image.width, image.height, 3, a, radii), a), reference, truth) / fit.length; });
    }
    console.log(`${String(wide).padStart(4)} ${String(narrow).padStart(3)} | ${e[0].toFixed(2)} | ${e[1].toFixed(2)}`);
  }
  process.exit(0);
}

const cols = ['effect orig', 'effect decont', 'gt alpha orig', 'gt alpha decont'] as const;
const rows: { half: string; errors: number[] }[] = [];
console.log(`${'image'.padEnd(17)}${'half'.padEnd(6)}${'band px'.padStart(8)}  ${cols.map((c) => c.padStart(16)).join('')}`);
for (const item of items) {
  const { image, truth, foreground } = await prepare(item);
  const { width, height } = image;
  const ours = await effectAlpha(image);
  const reference = onGrey(foreground, truth);
  const cutouts = [
    onGrey(image.data, ours),
    onGrey(decontaminate(image.data, width, height, 3, ours, radii), ours),
    onGrey(image.data, truth),
    onGrey(decontaminate(image.data, width, height, 3, truth, radii), truth),
  ];
  const errors = cutouts.map((cut) => bandError(cut, reference, truth));
  rows.push({ half: item.half, errors });
  const band = truth.reduce((n, a) => n + (a > 0 && a < 255 ? 1 : 0), 0);
  console.log(`${item.name.padEnd(17)}${item.half.padEnd(6)}${String(band).padStart(8)}  ${errors.map((e) => e.toFixed(2).padStart(16)).join('')}`);
  if (renderDir) {
    const tile = (data: Uint8Array) => sharp(data, { raw: { width, height, channels: 3 } }).png().toBuffer();
    const tiles = [image.data, cutouts[0], cutouts[1], reference];
    const sheet = sharp({ create: { width: width * tiles.length + 8 * (tiles.length - 1), height, channels: 3, background: '#fff' } });
    const inputs = await Promise.all(tiles.map(async (t, k) => ({ input: await tile(t), left: k * (width + 8), top: 0 })));
    await sheet.composite(inputs).png().toFile(path.join(renderDir, `${item.name}_edges.png`));
  }
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
for (const half of ['fit', 'check']) {
  const sel = rows.filter((r) => r.half === half);
  if (!sel.length) continue;
  const m = cols.map((_, k) => mean(sel.map((r) => r.errors[k])));
  console.log(`${`mean ${half}`.padEnd(31)}  ${m.map((e) => e.toFixed(2).padStart(16)).join('')}`);
}
