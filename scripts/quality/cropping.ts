/**
 * Smart crop against libvips' attention crop (sharp strategy.attention) and smartcrop.js, on the same
 * photos and targets: the share of face boxes kept whole, and the share of subject mask kept.
 *
 *   npx tsx scripts/quality/cropping.ts [--render DIR] [--verbose] [--sides 1024,512] [--split] [--cache DIR]
 *
 * Face boxes: dlib's hand-labelled boxes (labels.json face_boxes_xywh) and the bounds of the hand-placed
 * 68-point landmarks (labels.json landmarks_xy); for the other portraits, the faces our detector finds on the
 * uncropped photo (which favours our method: say so when quoting). Subject masks: matting alpha, GrabCut
 * masks (the unlabelled 128 band left out) and apparel label maps (person or garments = label > 0).
 * On the apparel photos of people, also the head (their hair, hat, glasses and face labels): a crop can
 * keep more of a full-length figure's mask by cutting off its head, so this says which ones did.
 * --sides: ours with ISNet at each of these input sides (default the effect's SALIENCY_SIDE), as ours@side;
 * the first is the one --render draws. --split: the figures for two halves of the photos, by a hash of the
 * file name (fit: choose on it; check: confirm on it). --cache DIR keeps each photo's subject (faces, crowns,
 * mass) per side, so a rerun skips the models; --cached-only then leaves out the photos it lacks (a partial
 * run's figures). Photos go portraits first, then the rest in the order of their names' hashes, so a run
 * cut short has a fair sample of the apparel photos.
 * Reads ../shared/testdata beside the repository (ATELIER_TESTDATA overrides).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import smartcrop from 'smartcrop';
import {
  chooseWindow, type CroppingFound as Found, type CropSize as Size, decodeImage, detectFaces, type Face,
  findSubjectAt, ModelRegistry, type RasterImage, runStep, SALIENCY_SIDE, stepContext, windowSize, withState
} from '../../engine/for-scripts.ts';
import { toXywh, type XywhRect } from '../../contract/rectangles.ts';

const root = process.env.ATELIER_TESTDATA ?? path.resolve(import.meta.dirname, '../../../shared/testdata');
if (!fs.existsSync(path.join(root, 'labels.json'))) {
  console.error(`No test data at ${root} (labels.json missing): set ATELIER_TESTDATA to the shared testdata folder.`);
  process.exit(1);
}
const renderDir = process.argv.includes('--render') ? process.argv[process.argv.indexOf('--render') + 1] : undefined;
const verbose = process.argv.includes('--verbose');
const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const sides = (arg('--sides') ?? String(SALIENCY_SIDE)).split(',').map(Number);
const split = process.argv.includes('--split');
const cacheDir = arg('--cache');
const cachedOnly = process.argv.includes('--cached-only');

const TARGETS: Record<string, Size> = { '1:1': { width: 512, height: 512 }, '4:5': { width: 512, height: 640 }, '16:9': { width: 640, height: 360 }, '9:16': { width: 360, height: 640 } };
const METHODS = ['ours', 'attention', 'smartcrop'] as const;
type Method = (typeof METHODS)[number];
/** The rows of the tables: ours at each side, then the others. */
const COLUMNS = [...sides.map((s) => `ours@${s}`), 'attention', 'smartcrop'];

interface Case { file: string; image: RasterImage; faces?: XywhRect[]; faceSource?: string; mask?: Float32Array; head?: Float32Array }
const HEAD_CLASSES = new Set(['hair', 'hat', 'sunglasses', 'glasses', 'face']);

const labelsJson = JSON.parse(fs.readFileSync(path.join(root, 'labels.json'), 'utf8'));
const labels = labelsJson.files as Record<string, any>;
const models = new ModelRegistry({ threads: 2 });
const kit = { models, signal: new AbortController().signal };

async function load(file: string): Promise<RasterImage> {
  const bytes = fs.readFileSync(path.join(root, file));
  return decodeImage(bytes, file.endsWith('.png') ? 'png' : 'jpeg', 1e8);
}

/** A grey PNG as weights in [0, 1] (pick decides what counts), at the photo's size. */
async function maskOf(file: string, size: Size, pick: (v: number) => number): Promise<Float32Array> {
  const { data } = await sharp(path.join(root, file)).extractChannel(0).resize(size.width, size.height, { fit: 'fill', kernel: 'nearest' }).raw().toBuffer({ resolveWithObject: true });
  return Float32Array.from(data, pick);
}

/** The bounds of hand-placed 68-point landmarks (brows to chin, jaw to jaw). */
function pointsBox(points: number[][]): XywhRect {
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  const x = Math.min(...xs), y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

async function cases(): Promise<Case[]> {
  const out: Case[] = [];
  const human = await models.get('human');
  const hash = (f: string) => createHash('sha1').update(path.basename(f)).digest('hex');
  const order = Object.entries(labels).map(([file, l]) => ({ file, l, key: `${l.kind === 'apparel_parsing_image' ? 1 : 0}${hash(file)}` }))
    .sort((a, b) => (a.key < b.key ? -1 : 1));
  for (const { file, l } of order) {
    if (cachedOnly && !sides.every((s) => fs.existsSync(cacheFile(file, s)))) continue;
    if (l.kind === 'portrait' || l.kind === 'face_landmarks_image') {
      const image = await load(file);
      const points: number[][][] | undefined = l.landmarks_xy_per_face ?? (l.landmarks_xy && [l.landmarks_xy]);
      let faces: XywhRect[], faceSource: string;
      if (l.face_boxes_xywh) [faces, faceSource] = [l.face_boxes_xywh.map(([x, y, width, height]: number[]) => ({ x, y, width, height })), 'dlib labels'];
      else if (points) [faces, faceSource] = [points.map(pointsBox), '68-point labels'];
      else [faces, faceSource] = [(await detectFaces(human as never, image)).map((f: Face) => toXywh(f.box)), 'our detector'];
      if (faces.length) out.push({ file, image, faces, faceSource });
    } else if (l.kind === 'matting_image' || l.kind === 'object_segmentation_image' || l.kind === 'apparel_parsing_image') {
      const maskFile = l.alpha ?? l.mask ?? l.labels_png;
      if (!maskFile) continue;
      const image = await load(file);
      const pick = l.kind === 'matting_image' ? (v: number) => v / 255 : l.kind === 'object_segmentation_image' ? (v: number) => (v === 255 ? 1 : 0) : (v: number) => (v > 0 ? 1 : 0);
      const names: unknown = l.label_map && labelsJson.label_maps[l.label_map];
      const head = Array.isArray(names) && names.some((n) => HEAD_CLASSES.has(n))
        ? await maskOf(maskFile, image, (v) => (HEAD_CLASSES.has(names[v]) ? 1 : 0)) : undefined;
      out.push({ file, image, mask: await maskOf(maskFile, image, pick), head });
    }
  }
  return out;
}

async function attentionWindow(image: RasterImage, target: Size): Promise<XywhRect> {
  const { info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
    .resize(target.width, target.height, { fit: 'cover', position: sharp.strategy.attention }).toBuffer({ resolveWithObject: true });
  const scale = image.width / image.height > target.width / target.height ? target.height / image.height : target.width / image.width;
  const size = windowSize(image, target);
  // sharp reports the offsets negated, in the resized image's pixels.
  const x = Math.min(image.width - size.width, Math.max(0, Math.round(-(info.cropOffsetLeft ?? 0) / scale)));
  const y = Math.min(image.height - size.height, Math.max(0, Math.round(-(info.cropOffsetTop ?? 0) / scale)));
  return { x, y, ...size };
}

// The package's types leave out ImgData, which an imageOperations adapter must return.
const { ImgData } = smartcrop as unknown as { ImgData: new (width: number, height: number, data: Buffer) => unknown };

/** smartcrop.js on sharp, as smartcrop-sharp does it (whose sharp peer range is too old for this repo). */
const smartcropOps = {
  open: async (img: RasterImage) => ({ width: img.width, height: img.height, img }),
  resample: async (im: { img: RasterImage }, width: number, height: number) => {
    const { data, info } = await sharp(im.img.data, { raw: { width: im.img.width, height: im.img.height, channels: im.img.channels } })
      .resize(~~width, ~~height, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, img: { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 } };
  },
  getData: async (im: { img: RasterImage }) => {
    const { data, info } = await sharp(im.img.data, { raw: { width: im.img.width, height: im.img.height, channels: im.img.channels } })
      .ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    return new ImgData(info.width, info.height, data);
  },
};

async function smartcropWindow(image: RasterImage, target: Size): Promise<XywhRect> {
  const { topCrop } = await smartcrop.crop(image as never, { width: target.width, height: target.height, imageOperations: smartcropOps } as never);
  return topCrop;
}

const inside = (b: XywhRect, w: XywhRect) => b.x >= w.x && b.y >= w.y && b.x + b.width <= w.x + w.width && b.y + b.height <= w.y + w.height;

function maskKept(mask: Float32Array, width: number, w: XywhRect): number {
  let all = 0, kept = 0;
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    all += mask[i];
    const x = i % width, y = (i - x) / width;
    if (x >= w.x && x < w.x + w.width && y >= w.y && y < w.y + w.height) kept += mask[i];
  }
  return all ? kept / all : 1;
}

/** The windows drawn on the photo (faces yellow; ours green, attention red, smartcrop blue), and the three crops side by side. */
async function render(c: Case, name: string, windows: Record<Method, XywhRect>) {
  const colour: Record<Method, string> = { ours: '#00e000', attention: '#ff3030', smartcrop: '#3080ff' };
  const rect = (b: XywhRect, stroke: string, w: number) => `<rect x="${b.x}" y="${b.y}" width="${b.width}" height="${b.height}" fill="none" stroke="${stroke}" stroke-width="${w}"/>`;
  const t = Math.max(2, Math.round(Math.max(c.image.width, c.image.height) / 250));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${c.image.width}" height="${c.image.height}">${(c.faces ?? []).map((f) => rect(f, '#ffff00', t)).join('')}${METHODS.map((m) => rect(windows[m], colour[m], t)).join('')}</svg>`;
  const photo = () => sharp(c.image.data, { raw: { width: c.image.width, height: c.image.height, channels: c.image.channels } });
  await photo().composite([{ input: Buffer.from(svg) }]).png().toFile(path.join(renderDir!, `${name}.png`));
  const H = 240, gap = 8;
  const crops = await Promise.all(METHODS.map((m) => photo().extract({ left: windows[m].x, top: windows[m].y, width: windows[m].width, height: windows[m].height })
    .resize({ height: H }).extend({ bottom: 6, background: colour[m] }).png().toBuffer({ resolveWithObject: true })));
  let x = 0;
  const tiles = crops.map((cr) => { const tile = { input: cr.data, left: x, top: 0 }; x += cr.info.width + gap; return tile; });
  await sharp({ create: { width: x - gap, height: H + 6, channels: 3, background: '#202020' } }).composite(tiles).png().toFile(path.join(renderDir!, `${name}_crops.png`));
}

// A head counts as kept when the window holds this share of its pixels (a few hairs may stray out).
const HEAD_KEPT = 0.95;
const HALVES = split ? ['fit', 'check'] : ['all'];
/** Which half a photo is in: the first byte of the SHA-1 of its file name, even or odd. */
const half = (file: string) => (!split ? 'all' : createHash('sha1').update(path.basename(file)).digest()[0] % 2 === 0 ? 'fit' : 'check');
interface Row { half: string; method: string; target: string; facesKept: number; faces: number; mask: number[]; heads: number; headsKept: number; photos: Set<string> }
const rows: Row[] = [];
for (const h of HALVES) for (const m of COLUMNS) for (const t of Object.keys(TARGETS)) rows.push({ half: h, method: m, target: t, facesKept: 0, faces: 0, mask: [], heads: 0, headsKept: 0, photos: new Set() });
const row = (h: string, m: string, t: string) => rows.find((r) => r.half === h && r.method === m && r.target === t)!;

const cacheFile = (file: string, side: number) => path.join(cacheDir ?? '.', `${file.replace(/[\\/]/g, '_')}@${side}.json`);

/** The subject of one photo with ISNet at `side`: from the cache when there, else found (and cached). */
async function subject(c: Case, side: number, faces: Found['faces'] | undefined, facesFound: boolean): Promise<Found> {
  const file = cacheDir && cacheFile(c.file, side);
  const j = file && fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined;
  // A cache written before boxes were Rects ({x0, y0, w, h}) is stale: the subject is found again.
  if (j && !(j.faces ?? []).some((f: { box: object }) => !('x0' in f.box))) {
    return { faces: j.faces, mass: j.mass && { columns: j.mass.columns, rows: j.mass.rows } };
  }
  const ctx = stepContext<any>(c.image, {}, kit.models);
  const [findFaces, findSalient] = findSubjectAt(side).list;
  if (facesFound) Object.assign(ctx.state, { faces }); else await runStep(findFaces, ctx, kit);
  await runStep(findSalient, ctx, kit);
  const found = ctx.state as Found;
  if (file) {
    fs.mkdirSync(cacheDir!, { recursive: true });
    const mass = found.mass && { columns: Array.from(found.mass.columns), rows: Array.from(found.mass.rows) };
    fs.writeFileSync(file, JSON.stringify({ faces: found.faces, mass }));
  }
  return found;
}

const pct = (v: number) => `${(100 * v).toFixed(1)}%`.padStart(7);
const all = await cases();
if (renderDir) fs.mkdirSync(renderDir, { recursive: true });
for (const c of all) {
  // The subject is found once per photo and side (the faces once); only the window depends on the target.
  const states: Found[] = [];
  let faces: Found['faces'] | undefined, found = false;
  for (const side of sides) {
    const st = await subject(c, side, faces, found);
    if (!found) [faces, found] = [st.faces.map(({ crown: _, ...f }) => f), true];
    states.push(st);
  }
  const h = half(c.file);
  for (const [t, target] of Object.entries(TARGETS)) {
    const ours: XywhRect[] = [];
    for (const st of states) {
      const ctx = withState(stepContext<any>(c.image, target, kit.models), st);
      await chooseWindow(ctx, kit);
      ours.push(ctx.output.data!.retain_location as XywhRect);
    }
    const windows: Record<string, XywhRect> = { attention: await attentionWindow(c.image, target), smartcrop: await smartcropWindow(c.image, target) };
    sides.forEach((s, i) => { windows[`ours@${s}`] = ours[i]; });
    const line: string[] = [];
    for (const m of COLUMNS) {
      const r = row(h, m, t);
      r.photos.add(c.file);
      const kept = c.faces?.filter((f) => inside(f, windows[m])).length ?? 0, mask = c.mask && maskKept(c.mask, c.image.width, windows[m]);
      if (c.faces) { r.faces += c.faces.length; r.facesKept += kept; line.push(`${m} ${kept}/${c.faces.length}`); }
      if (mask !== undefined) { r.mask.push(mask); line.push(`${m} ${pct(mask)}`); }
      if (c.head) { const hk = maskKept(c.head, c.image.width, windows[m]); r.heads++; if (hk >= HEAD_KEPT) r.headsKept++; line.push(`head ${pct(hk)}`); }
    }
    if (verbose) console.log(`${h.padEnd(6)} ${path.basename(c.file).padEnd(44)} ${t.padEnd(5)} ${line.join('  ')}`);
    if (renderDir) await render(c, `${path.basename(c.file).replace(/\.\w+$/, '')}_${t.replace(':', 'x')}`, { ours: ours[0], attention: windows.attention, smartcrop: windows.smartcrop });
  }
}

const faceCases = all.filter((c) => c.faces);
const sources = [...new Set(faceCases.map((c) => c.faceSource))].map((s) => `${faceCases.filter((c) => c.faceSource === s).length} ${s}`).join(', ');
console.log(`${faceCases.length} photos with faces (${sources}), ${all.filter((c) => c.mask).length} with subject masks; targets ${Object.keys(TARGETS).join(', ')}\n`);
const heads = all.filter((c) => c.head).length;
const ratio = (a: number, b: number) => `${`${a}/${b}`.padStart(8)} ${pct(a / b)}`;
const mean = (v: number[]) => pct(v.reduce((a, b) => a + b, 0) / v.length);
for (const h of HALVES) {
  const photos = rows.find((r) => r.half === h)!.photos.size;
  console.log(`${split ? `\n== ${h} half (${photos} photos) ==\n` : ''}method       target  faces kept whole   mask kept (mean)   heads kept (${heads} people in all)`);
  for (const r of rows.filter((r) => r.half === h)) console.log(`${r.method.padEnd(12)} ${r.target.padEnd(6)} ${ratio(r.facesKept, r.faces)}   ${mean(r.mask)}        ${ratio(r.headsKept, r.heads)}`);
  console.log('\ntotals');
  for (const m of COLUMNS) {
    const rs = rows.filter((r) => r.half === h && r.method === m);
    const sum = (k: 'facesKept' | 'faces' | 'headsKept' | 'heads') => rs.reduce((a, r) => a + r[k], 0);
    console.log(`${m.padEnd(12)} faces ${ratio(sum('facesKept'), sum('faces'))}   mask ${mean(rs.flatMap((r) => r.mask))}   heads ${ratio(sum('headsKept'), sum('heads'))}`);
  }
}
