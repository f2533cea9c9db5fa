/**
 * Face detection quality on the shared test photos: per photo the faces expected and found, false
 * positives and misses (matched by box overlap where the labels have boxes: dlib's VOC boxes, the
 * 68-point landmark annotations), then totals per folder and overall.
 *
 *   npx tsx scripts/quality/faces.ts [--rotations] [folder ...]
 *   npx tsx scripts/quality/faces.ts --person [selfie,meet,rvm,isnet]
 *
 * --person instead measures the person matte of each candidate model (IoU at 50% against the person
 * masks of the apparel ground truth: label > 0, photos whose labels say so) and the hair mask (IoU
 * against the hair label), per photo and on average.
 *
 * Reads ../shared/testdata from the repository root (ATELIER_TESTDATA overrides).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import {
  detectFaces, type Face, hairMask, type Mask, ModelRegistry, PERSON_MODEL, personMatteWith, type PersonModel,
  type Rect
} from '../../engine/for-scripts.ts';
import { sameFace } from '../datasets/same-face.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const FOLDERS = ['portraits', 'landmarks', 'products', 'segmentation', 'matting', 'apparel', 'faces_age_gender', 'faces_emotion'];

/**
 * Photos without a face count in labels.json, counted by eye (see the gallery): [min, max] faces.
 * Background people that are small, blurred or cut by the frame may be found or not.
 */
const BY_EYE: Record<string, [number, number]> = {
  'products/apparel_runway_man.jpg': [1, 1],
  'products/product_car_1.jpg': [0, 1], // a woman in a cap, face about 12 px
  'apparel/ccp_0616.jpg': [1, 2], // a small woman in the background on the right
  'apparel/cihp_0002190.jpg': [0, 1], // a profile bent over a laptop
  'apparel/cihp_0026375.jpg': [3, 3],
  'apparel/fashionpedia_000000009813.jpg': [0, 0], // the face is blanked out, the other model turns away
};
const APPAREL_DEFAULT: [number, number] = [1, 1];

interface Expect { min: number; max: number; boxes?: Rect[] }

function expectation(rel: string, label: Record<string, unknown> | undefined): Expect | null {
  if (BY_EYE[rel]) return { min: BY_EYE[rel][0], max: BY_EYE[rel][1] };
  const boxes = labelBoxes(label);
  if (label && typeof label.num_faces === 'number') return { min: label.num_faces, max: label.num_faces, boxes };
  if (label && typeof label.num_faces_approx === 'number') return { min: Math.floor(label.num_faces_approx * 0.8), max: Math.ceil(label.num_faces_approx * 1.2), boxes };
  if (boxes) return { min: boxes.length, max: Infinity, boxes }; // AFW: only some faces are annotated
  if (rel.startsWith('apparel/')) return { min: APPAREL_DEFAULT[0], max: APPAREL_DEFAULT[1] };
  if (/^(products|segmentation|matting)\//.test(rel)) return { min: 0, max: 0 };
  return null;
}

function labelBoxes(label: Record<string, unknown> | undefined): Rect[] | undefined {
  if (!label) return undefined;
  if (Array.isArray(label.face_boxes_xywh)) return (label.face_boxes_xywh as number[][]).map(([x, y, width, height]) => ({ x0: x, y0: y, w: width, h: height }));
  const sets = (label.landmarks_xy_per_face ?? (label.landmarks_xy ? [label.landmarks_xy] : undefined)) as number[][][] | undefined;
  if (!sets) return undefined;
  return sets.map((pts) => {
    const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
    return { x0: Math.min(...xs), y0: Math.min(...ys), w: Math.max(...xs) - Math.min(...xs), h: Math.max(...ys) - Math.min(...ys) };
  });
}

function score(e: Expect, faces: Face[]) {
  if (!e.boxes) {
    const fp = Math.max(0, faces.length - e.max), miss = Math.max(0, e.min - faces.length);
    return { tp: faces.length - fp, fp, miss, extra: 0 };
  }
  const free = [...faces];
  let tp = 0;
  for (const b of e.boxes) {
    const i = free.findIndex((f) => sameFace(b, f.box));
    if (i >= 0) { tp++; free.splice(i, 1); }
  }
  // Where only some faces are annotated (AFW), unmatched faces are neither right nor wrong: shown as extra.
  const complete = e.max !== Infinity;
  return { tp, fp: complete ? free.length : 0, miss: e.boxes.length - tp, extra: complete ? 0 : free.length };
}

const iou = (m: Mask, truth: (i: number) => boolean) => {
  let inter = 0, uni = 0;
  for (let i = 0; i < m.data.length; i++) { const a = m.data[i] >= 128, b = truth(i); if (a && b) inter++; if (a || b) uni++; }
  return uni ? inter / uni : 1;
};

async function person(which: PersonModel[]) {
  const labels = JSON.parse(readFileSync(path.join(testdata, 'labels.json'), 'utf8'));
  const files = labels.files as Record<string, Record<string, unknown>>;
  const models = new ModelRegistry();
  const human = await models.get('human');
  const sums = new Map<string, number[]>();
  console.log(['photo', ...which.map((m) => `${m} IoU`), 'hair IoU', 'faces'].join('\t'));
  for (const [rel, label] of Object.entries(files)) {
    if (label.kind !== 'apparel_parsing_image' || !label.person_mask_rule) continue;
    const { data, info } = await sharp(path.join(testdata, rel)).raw().toBuffer({ resolveWithObject: true });
    const truth = await sharp(path.join(testdata, label.labels_png as string)).extractChannel(0).raw().toBuffer();
    const image = { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 };
    const row: string[] = [rel];
    for (const m of which) {
      const v = iou(await personMatteWith(models, image, m), (i) => truth[i] > 0);
      sums.set(m, [...(sums.get(m) ?? []), v]);
      row.push(v.toFixed(3));
    }
    const hairId = (labels.label_maps[label.label_map as string] as string[]).indexOf('hair');
    const faces = await detectFaces(human, image);
    const h = iou(await hairMask(models, image, faces), (i) => truth[i] === hairId);
    sums.set('hair', [...(sums.get('hair') ?? []), h]);
    console.log([...row, h.toFixed(3), faces.length].join('\t'));
  }
  const mean = (k: string) => { const v = sums.get(k) ?? []; return (v.reduce((a, b) => a + b, 0) / v.length).toFixed(3); };
  console.log(['MEAN', ...which.map(mean), mean('hair')].join('\t'));
  console.log(`(personMatte uses ${PERSON_MODEL}; hairMask is measured on its matte)`);
}

async function main() {
  if (!existsSync(testdata)) {
    console.log(`No test photos: ${testdata} does not exist (set ATELIER_TESTDATA to the shared testdata folder).`);
    return;
  }
  const args = process.argv.slice(2);
  if (args[0] === '--person') return person((args[1] ?? 'selfie,meet,rvm,isnet').split(',') as PersonModel[]);
  const searchRotations = args.includes('--rotations');
  const folders = args.filter((a) => !a.startsWith('--'));
  const labels = JSON.parse(readFileSync(path.join(testdata, 'labels.json'), 'utf8')).files as Record<string, Record<string, unknown>>;
  const human = await new ModelRegistry().get('human');
  const totals = new Map<string, { photos: number; expected: number; found: number; tp: number; fp: number; miss: number; ms: number }>();
  console.log(['photo', 'expected', 'found', 'fp', 'miss', 'ms', 'notes'].join('\t'));
  for (const folder of folders.length ? folders : FOLDERS) {
    const dir = path.join(testdata, folder);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      const rel = `${folder}/${name}`;
      if (!/\.(jpe?g|png)$/i.test(name) || /_(labels|mask|alpha|garments)\.png$/.test(name)) continue;
      const e = expectation(rel, labels[rel]);
      if (!e) continue;
      const { data, info } = await sharp(path.join(dir, name)).rotate().raw().toBuffer({ resolveWithObject: true });
      const t0 = performance.now();
      const faces = await detectFaces(human, { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 }, { searchRotations });
      const ms = performance.now() - t0;
      const r = score(e, faces);
      const exp = e.min === e.max ? String(e.min) : `${e.min}-${e.max === Infinity ? '' : e.max}`;
      const notes = [...new Set(faces.filter((f) => f.rotation).map((f) => `rotation ${f.rotation}`)), ...(r.extra ? [`${r.extra} unlabelled`] : []), ...(r.fp || r.miss ? ['<--'] : [])].join(' ');
      console.log([rel, exp, faces.length, r.fp, r.miss, ms.toFixed(0), notes].join('\t'));
      const t = totals.get(folder) ?? { photos: 0, expected: 0, found: 0, tp: 0, fp: 0, miss: 0, ms: 0 };
      t.photos++; t.expected += e.boxes?.length ?? e.min; t.found += faces.length; t.tp += r.tp; t.fp += r.fp; t.miss += r.miss; t.ms += ms;
      totals.set(folder, t);
    }
  }
  console.log('\nfolder\tphotos\texpected\tfound\tfalse\tmissed\tmean ms');
  const all = { photos: 0, expected: 0, found: 0, tp: 0, fp: 0, miss: 0, ms: 0 };
  for (const [folder, t] of totals) {
    console.log([folder, t.photos, t.expected, t.found, t.fp, t.miss, (t.ms / t.photos).toFixed(0)].join('\t'));
    for (const k of Object.keys(all) as (keyof typeof all)[]) all[k] += t[k];
  }
  console.log(['TOTAL', all.photos, all.expected, all.found, all.fp, all.miss, (all.ms / all.photos).toFixed(0)].join('\t'));
}

await main();
