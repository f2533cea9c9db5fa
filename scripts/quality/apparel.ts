/**
 * Garment parsing quality of apparel-background-removal against the clothing-parsing ground truth in the
 * shared test data, for each half of the fixed fit/check split (scripts/datasets/apparel-split.ts): per-class IoU
 * (mask >= 128; intersections and unions summed over the half's photos), their mean over the seven
 * classes, and the IoU of the out_mode 0 all-clothing cutout.
 *   npx tsx scripts/quality/apparel.ts [--half fit|check] [--cache DIR] [--render DIR] [--sheet FILE] [name-filter ...]
 * --cache DIR keeps each photo's model outputs (matte, faces, keypoints, objects, hair) in DIR and reuses
 * them on later runs, so that only the parse and the masks run again (the same steps the effect runs;
 * the ms column then times those alone). scripts/train/apparel.ts reads the same cache.
 * --render writes, per photo, the photo | the parse | the ground truth as one PNG; --sheet FILE puts those
 * panels, 240 px tall, two to a row, in one PNG (colours: tops red, coat blue, skirt magenta, pants green,
 * bag yellow, shoes brown, hat cyan; ignored labels grey).
 * Data: ATELIER_TESTDATA or ../shared/testdata beside the repository.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import {
  apparelEffect as effect, type ApparelParams as P, apparelParseStep as parse, type ApparelState as State,
  buildMasks, defineEffect, encodeOutputs, garmentClasses, ModelRegistry, parseFacesAround, runEffect, type Step
} from '../../engine/for-scripts.ts';
import { apparelPhotos, IGNORE, testdata, truth, type Half } from '../datasets/apparel-split.ts';
import { loadCached, needsHeads, saveCached } from '../datasets/apparel-cache.ts';

const args = process.argv.slice(2);
const opt = (name: string) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const renderDir = opt('--render'), cacheDir = opt('--cache'), onlyHalf = opt('--half') as Half | undefined, sheetFile = opt('--sheet');
const filters = args.filter((a, i) => !a.startsWith('--') && !['--render', '--cache', '--half', '--sheet'].includes(args[i - 1]));
const panels: Buffer[] = [];

const all = apparelPhotos();
if (!all) { console.log(`No apparel ground truth at ${testdata} (labels.json, apparel-classes.json; set ATELIER_TESTDATA); nothing measured.`); process.exit(0); }
const photos = all.filter((p) => (!onlyHalf || p.half === onlyHalf) && (!filters.length || filters.some((s) => p.rel.includes(s))));
if (!photos.length) { console.log(`No apparel photos with labels under ${testdata} match; nothing measured.`); process.exit(0); }

const grey = async (png: Buffer) => sharp(png).extractChannel(0).raw().toBuffer();
const models = new ModelRegistry({ threads: 2 });
const kit = { models, signal: new AbortController().signal };
const halves: Half[] = ['fit', 'check'];
const sums = Object.fromEntries(halves.map((h) => [h, Object.fromEntries([...garmentClasses, 'all'].map((c) => [c, { i: 0, u: 0 }]))]));
const times: Record<Half, number[]> = { fit: [], check: [] };
let fromCache = 0;
const fmt = (v: number | undefined) => (v === undefined ? '    -' : v.toFixed(2).padStart(5));
console.log(`${'photo'.padEnd(34)} half  ${garmentClasses.map((c) => c.padStart(6)).join('')}    all    ms`);
if (renderDir) mkdirSync(renderDir, { recursive: true });

for (const photo of photos) {
  const { data, info } = await sharp(path.join(testdata, photo.rel)).rotate().raw().toBuffer({ resolveWithObject: true });
  const image = { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 };
  const params = { out_mode: 0, cloth_class: [...garmentClasses], return_form: 'mask' } as P;
  const cached = cacheDir ? loadCached(cacheDir, photo.rel) : null;
  if (cached) fromCache++;
  const restore: Step<P, State> = async (c) => { Object.assign(c.state, cached); };
  const save: Step<P, State> = async (c) => { saveCached(cacheDir!, photo.rel, c.state); };
  // A cache from before the face parser was read gets that step (and is saved with it).
  const heads = cached && needsHeads(cacheDir!, photo.rel, cached) ? [parseFacesAround, save] : [];
  const steps = cached ? [restore, ...heads, parse, buildMasks, encodeOutputs] : cacheDir ? [...effect.steps.slice(0, 3), save, ...effect.steps.slice(3)] : effect.steps;
  const t0 = Date.now();
  const out = await runEffect(defineEffect<P, State>({ ...effect, steps }), { image, params }, kit);
  const ms = Date.now() - t0;
  times[photo.half].push(ms);
  const gt = await truth(photo);
  if (gt.width !== info.width || gt.height !== info.height) throw new Error(`${photo.rel}: labels are ${gt.width}x${gt.height}, photo ${info.width}x${info.height}`);
  const masks = await Promise.all(garmentClasses.map((c) => grey(out.images[`class:${c}`].data)));
  const result = await grey(out.images.result.data);
  const sum = sums[photo.half];
  const score = (key: string, pred: Uint8Array, isTrue: (g: number) => boolean) => {
    let i = 0, u = 0;
    for (let p = 0; p < pred.length; p++) {
      if (gt.cls[p] === IGNORE) continue;
      const a = isTrue(gt.cls[p]), b = pred[p] >= 128;
      if (a && b) i++;
      if (a || b) u++;
    }
    sum[key].i += i; sum[key].u += u;
    return u ? i / u : undefined;
  };
  const row = garmentClasses.map((c, k) => (gt.scored.includes(c) ? score(c, masks[k], (g) => g === k + 1) : undefined));
  const allIou = score('all', result, (g) => g > 0);
  console.log(`${path.basename(photo.rel).padEnd(34)} ${photo.half.padEnd(5)} ${row.map((v) => ` ${fmt(v)}`).join('')}  ${fmt(allIou)} ${String(ms).padStart(5)}`);
  if (renderDir || sheetFile) {
    const png = await render(image, masks, gt.cls);
    if (renderDir) await sharp(png).toFile(path.join(renderDir, `${photo.half}-${path.basename(photo.rel).replace(/\.\w+$/, '.png')}`));
    if (sheetFile) panels.push(await sharp(png).resize({ height: 240 }).png().toBuffer());
  }
}
if (sheetFile && panels.length) {
  const sizes = await Promise.all(panels.map((p) => sharp(p).metadata()));
  const cell = Math.max(...sizes.map((m) => m.width!)), cols = 2, rows = Math.ceil(panels.length / cols);
  await sharp({ create: { width: cell * cols, height: 240 * rows, channels: 3, background: '#000' } })
    .composite(panels.map((input, i) => ({ input, left: (i % cols) * cell, top: Math.floor(i / cols) * 240 }))).png().toFile(sheetFile);
  console.log(`sheet: ${sheetFile} (${panels.length} photos: photo | parse | ground truth)`);
}

for (const h of halves) {
  const sum = sums[h], n = times[h].length;
  if (!n) continue;
  const median = [...times[h]].sort((a, b) => a - b)[n >> 1];
  console.log(`\n${h} half: ${n} photos, median ${median} ms per photo${fromCache ? ` (${fromCache} of ${photos.length} with model outputs from the cache: those time the parse and masks alone)` : ''}`);
  console.log(`${'class'.padEnd(8)} ${'IoU'.padStart(6)}  (intersections and unions summed over the photos; - = never present nor predicted)`);
  garmentClasses.forEach((c) => console.log(`${c.padEnd(8)} ${sum[c].u ? (sum[c].i / sum[c].u).toFixed(3).padStart(6) : '     -'}`));
  // Mean over the seven classes: a class never present nor predicted counts as 0 (the issue's targets).
  console.log(`mean IoU over the 7 classes: ${(garmentClasses.reduce((t, c) => t + (sum[c].u ? sum[c].i / sum[c].u : 0), 0) / garmentClasses.length).toFixed(3)}`);
  console.log(`all-clothing (out_mode 0) IoU: ${(sum.all.i / Math.max(1, sum.all.u)).toFixed(3)}`);
}

/** The photo, the parse and the ground truth side by side, one colour per class. */
async function render(image: { data: Buffer; width: number; height: number; channels: number }, masks: Uint8Array[], cls: Uint8Array) {
  const colours = [[230, 40, 40], [40, 150, 255], [240, 60, 240], [40, 200, 60], [255, 200, 0], [130, 70, 20], [0, 230, 230]];
  const { width: w, height: h, channels: ch, data } = image;
  const out = Buffer.alloc(w * 3 * h * 3);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const p = y * w + x, src = p * ch;
    const put = (col: number, rgb: number[]) => { const o = (y * w * 3 + col * w + x) * 3; out[o] = rgb[0]; out[o + 1] = rgb[1]; out[o + 2] = rgb[2]; };
    const dim = [0, 1, 2].map((c) => data[src + c] * 0.3);
    put(0, [0, 1, 2].map((c) => data[src + c]));
    const k = masks.findIndex((m) => m[p] >= 128);
    put(1, k >= 0 ? colours[k] : dim);
    put(2, cls[p] === IGNORE ? [128, 128, 128] : cls[p] ? colours[cls[p] - 1] : dim);
  }
  return sharp(out, { raw: { width: w * 3, height: h, channels: 3 } }).png().toBuffer();
}
