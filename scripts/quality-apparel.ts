/**
 * Garment parsing quality of apparel-background-removal against the clothing-parsing ground truth in the
 * shared test data: per-class IoU (mask >= 128) per photo and over all photos (intersections and unions
 * summed), their mean over the seven classes, and the IoU of the out_mode 0 all-clothing cutout.
 *   npx tsx scripts/quality-apparel.ts [--render DIR] [name-filter ...]
 * Data: ATELIER_TESTDATA or ../shared/testdata beside the repository: labels.json (apparel_parsing_image
 * entries, their label maps) and apparel-classes.json (dataset label → class; `ignore` pixels count for
 * nothing, `not_labelled` classes are not scored on that dataset).
 * --render writes, per photo, the photo | the parse | the ground truth as one PNG.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import effect from '../engine/effects/apparel-background-removal/effect.ts';
import { garmentClasses } from '../engine/effects/apparel-background-removal/garment-classes.ts';
import { runEffect } from '../engine/pipeline/run.ts';
import { ModelRegistry } from '../engine/vision/models/registry.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(repoRoot, '../shared/testdata');
const args = process.argv.slice(2);
const renderIdx = args.indexOf('--render');
const renderDir = renderIdx >= 0 ? args[renderIdx + 1] : undefined;
const filters = args.filter((a, i) => a !== '--render' && (renderIdx < 0 || i !== renderIdx + 1));

if (!existsSync(path.join(testdata, 'labels.json')) || !existsSync(path.join(testdata, 'apparel-classes.json'))) {
  console.log(`No apparel ground truth at ${testdata} (labels.json, apparel-classes.json; set ATELIER_TESTDATA); nothing measured.`);
  process.exit(0);
}
const labels = JSON.parse(readFileSync(path.join(testdata, 'labels.json'), 'utf8'));
const mapping = JSON.parse(readFileSync(path.join(testdata, 'apparel-classes.json'), 'utf8'));
const photos = Object.entries<Record<string, any>>(labels.files)
  .filter(([f, v]) => v.kind === 'apparel_parsing_image' && existsSync(path.join(testdata, f)) && existsSync(path.join(testdata, v.labels_png)))
  .filter(([f]) => !filters.length || filters.some((s) => f.includes(s)));
if (!photos.length) { console.log(`No apparel photos with labels under ${testdata}; nothing measured.`); process.exit(0); }

const IGNORE = 255;
/** Ground truth per pixel: 0 not a garment, k + 1 for garmentClasses[k], IGNORE for ignored labels. */
async function truth(entry: Record<string, any>) {
  const lm = labels.label_maps[entry.label_map];
  const names: [number, string][] = Array.isArray(lm) ? lm.map((n: string, i: number) => [i, n]) : Object.entries<string>(lm).map(([i, n]) => [Number(i), n]);
  const m = mapping[entry.label_map];
  const lut = new Uint8Array(256);
  for (const [i, n] of names) {
    garmentClasses.forEach((c, k) => { if (m[c]?.includes(n)) lut[i] = k + 1; });
    if (m.ignore?.includes(n)) lut[i] = IGNORE;
  }
  const { data, info } = await sharp(path.join(testdata, entry.labels_png)).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return { cls: data.map((v) => lut[v]), width: info.width, height: info.height, scored: garmentClasses.filter((c) => !(m.not_labelled ?? []).includes(c)) };
}

const grey = async (png: Buffer) => sharp(png).extractChannel(0).raw().toBuffer();
const models = new ModelRegistry({ threads: 2 });
const kit = { models, signal: new AbortController().signal };
const sum = Object.fromEntries([...garmentClasses, 'all'].map((c) => [c, { i: 0, u: 0 }]));
const fmt = (v: number | undefined) => (v === undefined ? '    -' : v.toFixed(2).padStart(5));
console.log(`${'photo'.padEnd(30)} ${garmentClasses.map((c) => c.padStart(6)).join('')}    all    ms`);
if (renderDir) mkdirSync(renderDir, { recursive: true });

for (const [file, entry] of photos) {
  const { data, info } = await sharp(path.join(testdata, file)).rotate().raw().toBuffer({ resolveWithObject: true });
  const image = { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 };
  const t0 = Date.now();
  const out = await runEffect(effect, { image, params: { out_mode: 0, cloth_class: [...garmentClasses], return_form: 'mask' } }, kit);
  const ms = Date.now() - t0;
  const gt = await truth(entry);
  if (gt.width !== info.width || gt.height !== info.height) throw new Error(`${file}: labels are ${gt.width}x${gt.height}, photo ${info.width}x${info.height}`);
  const masks = await Promise.all(garmentClasses.map((c) => grey(out.images[`class:${c}`].data)));
  const all = await grey(out.images.result.data);
  const row: (number | undefined)[] = [];
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
  garmentClasses.forEach((c, k) => row.push(gt.scored.includes(c) ? score(c, masks[k], (g) => g === k + 1) : undefined));
  row.push(score('all', all, (g) => g > 0));
  console.log(`${path.basename(file).padEnd(30)} ${row.slice(0, -1).map((v) => ` ${fmt(v)}`).join('')}  ${fmt(row.at(-1))} ${String(ms).padStart(5)}`);
  if (renderDir) await render(path.join(renderDir, path.basename(file).replace(/\.\w+$/, '.png')), image, masks, gt.cls);
}

const perClass = garmentClasses.map((c) => (sum[c].u ? sum[c].i / sum[c].u : 0));
console.log(`\n${'class'.padEnd(8)} ${'IoU'.padStart(6)}  (intersections and unions summed over the photos; - = never present nor predicted)`);
garmentClasses.forEach((c, k) => console.log(`${c.padEnd(8)} ${sum[c].u ? perClass[k].toFixed(3).padStart(6) : '     -'}`));
const present = garmentClasses.filter((c) => sum[c].u > 0);
console.log(`mean IoU over ${present.length} classes: ${(present.reduce((t, c) => t + sum[c].i / sum[c].u, 0) / present.length).toFixed(3)}`);
console.log(`all-clothing (out_mode 0) IoU: ${(sum.all.i / Math.max(1, sum.all.u)).toFixed(3)}`);

/** The photo, the parse and the ground truth side by side, one colour per class. */
async function render(file: string, image: { data: Buffer; width: number; height: number; channels: number }, masks: Uint8Array[], cls: Uint8Array) {
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
  await sharp(out, { raw: { width: w * 3, height: h, channels: 3 } }).png().toFile(file);
}
