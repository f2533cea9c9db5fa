/**
 * Every candidate attribute model's raw outputs per shared chip, computed once and kept in a JSON cache, so
 * that choosing and combining (scripts/quality/face-attributes-choose.ts) takes seconds. Per chip: the detected face
 * (small chips upscaled to find one, as face-attributes.ts does), then for each model, input
 * preparation of the chip (none; CLAHE; for the grey FER crops also full histogram equalisation) and crop
 * scale (square side over the face's extent; 'chip' = the whole chip, FER crops only), border (where the
 * square runs past the chip: black, crop names 'x1.6'; or the chip's edge repeated, 'x1.6/edge'), the plain
 * and the mirrored view. FaceRes-deep runs on onnxruntime as the analyzer runs it (the same outputs).
 *
 *   tsx scripts/quality/face-attributes-cache.ts [/tmp/faces8-attr-cache.json]   # resumes: chips already there are kept
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import {
  ATTRIBUTE_MODELS, type Border, decodeImage, detectFaces, type Face, faceRoi, type HumanLike, ModelRegistry,
  type RasterImage, type RawAttributes, registryNets, runAttributeModelViews, wholeRoi
} from '../../engine/for-scripts.ts';
import { findChipFace, type Found } from '../datasets/face-attributes-chip.ts';
import { splitItems, type Item } from '../datasets/face-attributes-split.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const out = process.argv[2] ?? '/tmp/faces8-attr-cache.json';
if (!existsSync(path.join(testdata, 'labels.json'))) {
  console.error(`face-attributes-cache: no test data at ${testdata}`);
  process.exit(2);
}
const labels = JSON.parse(readFileSync(path.join(testdata, 'labels.json'), 'utf8'));
const items = splitItems(testdata, labels);

export interface ChipRaw { item: Item; found: Found; raw: Record<string, { plain: RawAttributes; mirror: RawAttributes }> }
const cache: Record<string, ChipRaw> = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : {};

// The chips' age/gender grid is kept small (about 25 s a chip on 2 loaded cores): the realisable crops around the earlier choice, no whole chip.
const AG_SPECS = ['faceres', 'faceres-deep', 'faceres-deep-caffe', 'gear', 'ssrnet-gender', 'ssrnet-gender-bgr', 'oarriaga-gender', 'ssrnet-age'];
const EM_SPECS = ['emotion', 'emotion-stretch'];
const AG_SCALES = [1.2, 1.4, 1.6, 1.8];
const EM_SCALES = [0.9, 1.0, 1.1, 1.2, 1.4, 1.6];
const AG_PREPS = ['none'] as const;
const EM_PREPS = ['none', 'clahe', 'eq'] as const;
const BORDERS: Border[] = ['black', 'edge'];
type Prep = 'none' | 'clahe' | 'eq';

const models = new ModelRegistry();
const human = await models.get<HumanLike>('human');
const nets = registryNets(models);


/** The chip prepared: CLAHE on lightness (sharp), or luma histogram equalisation applied to each channel's gain. */
async function prepare(image: RasterImage, prep: Prep): Promise<RasterImage> {
  if (prep === 'none') return image;
  const raw = { raw: { width: image.width, height: image.height, channels: image.channels } };
  if (prep === 'clahe') {
    const side = Math.max(3, Math.round(Math.min(image.width, image.height) / 4));
    const { data, info } = await sharp(image.data, raw).clahe({ width: side, height: side, maxSlope: 3 }).raw().toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, channels: info.channels as 3 };
  }
  const n = image.width * image.height, ch = image.channels;
  const luma = new Uint8Array(n);
  for (let i = 0; i < n; i++) luma[i] = Math.round(0.299 * image.data[i * ch] + 0.587 * image.data[i * ch + 1] + 0.114 * image.data[i * ch + 2]);
  const hist = new Array(256).fill(0);
  for (const v of luma) hist[v]++;
  const cdf: number[] = [];
  hist.reduce((s, v, i) => (cdf[i] = s + v), 0);
  const lo = cdf.find((v) => v > 0)!;
  const map = cdf.map((v) => Math.round((255 * (v - lo)) / Math.max(1, n - lo)));
  const data = Buffer.alloc(image.data.length);
  for (let i = 0; i < n; i++) {
    const g = map[luma[i]] / Math.max(1, luma[i]);
    for (let c = 0; c < ch; c++) data[i * ch + c] = Math.min(255, Math.round(image.data[i * ch + c] * (luma[i] ? g : 0) + (luma[i] ? 0 : map[0])));
  }
  return { ...image, data };
}

let done = 0;
const t0 = performance.now();
for (const item of [...items.filter((i) => i.set === 'emotion'), ...items.filter((i) => i.set === 'age_gender')]) {
  if (cache[item.rel]) { done++; continue; }
  const image = await decodeImage(readFileSync(path.join(testdata, item.rel)), item.rel.endsWith('.png') ? 'png' : 'jpeg', 50e6);
  const { face, found } = await findChipFace(human, image);
  const em = item.set === 'emotion';
  const scales = em ? EM_SCALES : AG_SCALES;
  const crops = [...scales.map((s) => `x${s.toFixed(1)}`), ...(em ? ['chip'] : [])];
  const rois = [...scales.map((s) => (face ? faceRoi(face, s) : wholeRoi(image))), ...(em ? [wholeRoi(image)] : [])];
  const cropName = (crop: string, border: Border) => (border === 'black' || crop === 'chip' ? crop : `${crop}/${border}`);
  const entry: ChipRaw = { item, found, raw: {} };
  for (const prep of em ? EM_PREPS : AG_PREPS) {
    const img = await prepare(image, prep);
    for (const id of em ? EM_SPECS : AG_SPECS) {
      for (const border of BORDERS) {
        const { plain, mirrored } = await runAttributeModelViews(human, ATTRIBUTE_MODELS[id], img, rois, border, nets);
        crops.forEach((crop, i) => { entry.raw[`${id}|${prep}|${cropName(crop, border)}`] = { plain: plain[i], mirror: mirrored[i] }; });
      }
    }
  }
  cache[item.rel] = entry;
  writeFileSync(out, JSON.stringify(cache));
  console.error(`${++done}/${items.length} ${item.rel} ${found} ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}
process.exit(0);
