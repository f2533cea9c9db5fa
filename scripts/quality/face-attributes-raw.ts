/**
 * The shared chips and portraits the face-attributes quality script measures, and what every candidate
 * attribute model says on them: the fixed split (printed first), the crops (square side over the face's
 * extent) and views (plain, mirror-averaged) of each model's raw outputs, measured here or read back from
 * --raw-cache, and the ensembles fixed in advance. --tfjs: every model on tfjs (no ONNX network).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ATTRIBUTE_MODELS, averageViews, decodeImage, detectFaces, type Face, faceRoi, type HumanLike, meanAttributes,
  ModelRegistry, type RawAttributes, registryNets, runAttributeModelViews, wholeRoi
} from '../../engine/for-scripts.ts';
import { findChipFace, type Found } from '../datasets/face-attributes-chip.ts';
import { EMOTION_NAMES, listFolder as listFolderIn, splitItems } from '../datasets/face-attributes-split.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');

if (!existsSync(path.join(testdata, 'labels.json'))) {
  console.error(`quality-face-attributes: no test data at ${testdata} (labels.json missing). Put the shared test data there or set ATELIER_TESTDATA.`);
  process.exit(2);
}

export const labels = JSON.parse(readFileSync(path.join(testdata, 'labels.json'), 'utf8')) as { files: Record<string, Record<string, unknown>> };

// The split: fixed by file name (sha1), stratified so both halves have the same classes and age spread
// (scripts/datasets/face-attributes-split.ts). Decided there, before any model runs.
export const listFolder = (folder: string) => listFolderIn(testdata, folder);
export const items = splitItems(testdata, labels);
console.log(`Test data: ${testdata}`);
console.log('Split (fixed by file name: sha1, stratified by gender x age and by emotion class; made before any measurement):');
for (const set of ['age_gender', 'emotion'] as const) {
  for (const half of ['fit', 'check'] as const) {
    const list = items.filter((i) => i.set === set && i.half === half);
    const desc = set === 'age_gender'
      ? `${list.length} chips, ${list.filter((i) => i.gender === 1).length} female, ages ${list.map((i) => i.age).sort((a, b) => a! - b!).join(' ')}`
      : `${list.length} crops: ${EMOTION_NAMES.map((n, c) => `${n} ${list.filter((i) => i.emotion === c).length}`).join(', ')}`;
    console.log(`  ${set.padEnd(10)} ${half.padEnd(5)} ${desc}`);
    console.log(`    ${list.map((i) => path.basename(i.rel)).join(' ')}`);
  }
}

// ---------------------------------------------------------------------------------------------------
// Detection and crops

/** Crop variants: the square's side over the face's extent (mesh, eyes' frame); 'chip' = the whole chip, a reference only. */
export const SCALES = [1.0, 1.2, 1.4, 1.6, 1.8, 2.0];
export const CROPS = [...SCALES.map((s) => `x${s.toFixed(1)}`), 'chip'];

export const load = async (rel: string) => decodeImage(readFileSync(path.join(testdata, rel)), rel.endsWith('.png') ? 'png' : 'jpeg', 50e6);

// ---------------------------------------------------------------------------------------------------
// Model outputs: raw[spec][crop][rel] = { plain, flip }.

export interface Views { plain: RawAttributes; flip: RawAttributes }
export interface RawStore { found: Record<string, Found>; raw: Record<string, Record<string, Record<string, Views>>>; portraits: Record<string, PortraitFace[]> }
export interface PortraitFace { box: Face['box']; raw: Record<string, Record<string, Views>> }

export const specs = Object.values(ATTRIBUTE_MODELS);
const ageGenderSpecs = specs.filter((s) => s.tasks.includes('age') || s.tasks.includes('gender'));
const emotionSpecs = specs.filter((s) => s.tasks.includes('emotion'));

let human: HumanLike | undefined;
const registry = new ModelRegistry();
export const getHuman = async () => (human ??= await registry.get<HumanLike>('human'));
// The module as the face analyzer runs it: FaceRes-deep on onnxruntime (--tfjs: every model on tfjs, to compare).
export const nets = process.argv.includes('--tfjs') ? undefined : registryNets(registry);

export async function measureRaw(): Promise<RawStore> {
  const h = await getHuman();
  const store: RawStore = { found: {}, raw: {}, portraits: {} };
  let n = 0;
  for (const item of items) {
    const image = await load(item.rel);
    const { face, found } = await findChipFace(h, image);
    store.found[item.rel] = found;
    const rois = [...SCALES.map((s) => (face ? faceRoi(face, s) : wholeRoi(image))), wholeRoi(image)];
    for (const spec of item.set === 'emotion' ? emotionSpecs : ageGenderSpecs) {
      const { plain, mirrored } = await runAttributeModelViews(h, spec, image, rois);
      CROPS.forEach((crop, i) => {
        ((store.raw[spec.id] ??= {})[crop] ??= {})[item.rel] = { plain: plain[i], flip: averageViews(plain[i], mirrored[i]) };
      });
    }
    if (++n % 10 === 0) console.error(`  ${n}/${items.length} chips`);
  }
  for (const rel of portraitFiles()) {
    const image = await load(rel);
    const faces = await detectFaces(h, image, { searchRotations: true });
    const out: PortraitFace[] = [];
    for (const face of faces) {
      const rois = SCALES.map((s) => faceRoi(face, s));
      const raw: Record<string, Record<string, Views>> = {};
      for (const spec of specs) {
        const { plain, mirrored } = await runAttributeModelViews(h, spec, image, rois);
        raw[spec.id] = Object.fromEntries(SCALES.map((s, i) => [`x${s.toFixed(1)}`, { plain: plain[i], flip: averageViews(plain[i], mirrored[i]) }]));
      }
      out.push({ box: face.box, raw });
    }
    store.portraits[rel] = out;
  }
  return store;
}

function portraitFiles(): string[] {
  return listFolder('portraits').filter((rel) => Array.isArray(labels.files[rel]?.faces) && (labels.files[rel].faces as unknown[]).length > 0);
}

/**
 * Ensembles, fixed in advance (not picked from results): the two FaceRes networks averaged (age
 * distributions and P(male)), under each input convention, and all four.
 */
export const ENSEMBLES: Record<string, string[]> = {
  'faceres+deep-caffe': ['faceres-caffe', 'faceres-deep-caffe'],
  'faceres+deep': ['faceres', 'faceres-deep'],
  'faceres-all4': ['faceres', 'faceres-caffe', 'faceres-deep', 'faceres-deep-caffe'],
};

/** Adds the ensembles' outputs to `store`: the members' outputs averaged per chip, crop and view. */
export function addEnsembles(store: RawStore): void {
  const meanRaw = meanAttributes;
  for (const [id, members] of Object.entries(ENSEMBLES)) {
    store.raw[id] = {};
    for (const crop of CROPS) {
      store.raw[id][crop] = {};
      for (const rel of Object.keys(store.raw[members[0]][crop])) {
        const m = members.map((sp) => store.raw[sp][crop][rel]);
        store.raw[id][crop][rel] = { plain: meanRaw(m.map((v) => v.plain)), flip: meanRaw(m.map((v) => v.flip)) };
      }
    }
    for (const faces of Object.values(store.portraits)) {
      for (const f of faces) {
        f.raw[id] = Object.fromEntries(Object.keys(f.raw[members[0]]).map((crop) => {
          const m = members.map((sp) => f.raw[sp][crop]);
          return [crop, { plain: meanRaw(m.map((v) => v.plain)), flip: meanRaw(m.map((v) => v.flip)) }];
        }));
      }
    }
  }
}
