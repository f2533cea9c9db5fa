/**
 * Each labelled apparel photo as training rows for the garment model (scripts/train/apparel.ts): its model
 * outputs (from the quality cache, APPAREL_CACHE, or run now and cached), the rules' parse, the feature row of
 * each candidate region and per region the ground-truth pixel counts per class, kept in FEATURE_CACHE so later
 * runs only train; and the per-class IoU of a classing of those regions, with the best any classing could do.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import {
  apparelEffect as effect, type ApparelParams as P, type ApparelState as State, candidateFeatures, candidateNeighbours,
  candidateRegions, FEATURES, GARMENT_LABEL as L, garmentClasses, MODEL_CLASSES, ModelRegistry, parseByRules,
  parseFacesAround, parseInput, stepContext
} from '../../engine/for-scripts.ts';
import { APPAREL_CACHE, loadCached, needsHeads, saveCached } from '../datasets/apparel-cache.ts';
import { IGNORE, testdata, truth, type ApparelPhoto, type Half } from '../datasets/apparel-split.ts';
import { viewOf, type View } from './apparel-views.ts';

export const FEATURE_CACHE = '/tmp/apparel-features';
/** Count slots per region: MODEL_CLASSES, then ignored pixels. */
export const SLOTS = MODEL_CLASSES.length + 1, IGN = MODEL_CLASSES.length;
export const F = FEATURES.length;

export interface PhotoRows {
  rel: string; half: Half; person: boolean; scored: string[];
  /** Candidate regions' feature rows. */
  rows: Float32Array; count: number;
  /** The rules' class (MODEL_CLASSES index) per candidate region. */
  rule: Uint8Array;
  /** Per candidate region: ground-truth pixels per slot on the matte (>= 128) and in all. */
  onMatte: Uint32Array; inAll: Uint32Array;
  /** Ground-truth pixels per slot over the whole photo. */
  totals: number[];
  neighbours: number[][];
  /** A training-only view of the photo (--augment), or none: the photo itself. */
  view?: string;
}

export const version = createHash('sha1').update(`${FEATURES.join()} neighbours, pieces in the subject`).digest('hex').slice(0, 8);
const models = new ModelRegistry({ threads: 2 });
const kit = { models, signal: new AbortController().signal };

/** The best any classing of a photo's regions could do (each its majority class): the matte and superpixels' bound. */
export function regionOracle(d: PhotoRows): Uint8Array {
  return Uint8Array.from({ length: d.count }, (_, i) => {
    let best = 0;
    for (let k = 1; k < IGN; k++) if (d.inAll[i * SLOTS + k] > d.inAll[i * SLOTS + best]) best = k;
    return best;
  });
}

export function key(rel: string) { return rel.replace(/[^\w.-]/g, '_'); }
export function labelled(d: PhotoRows, i: number) { let n = 0; for (let k = 0; k < IGN; k++) n += d.inAll[i * SLOTS + k]; return n; }
export function usable(d: PhotoRows, i: number) { return labelled(d, i) > d.inAll[i * SLOTS + IGN]; }

/** IoU at work size per garment class, their mean and all-clothing IoU of a classing of the photos' candidate regions. */
export function figures(ds: PhotoRows[], classify: (d: PhotoRows) => Uint8Array) {
  const I = new Float64Array(SLOTS), Pr = new Float64Array(SLOTS), T = new Float64Array(SLOTS);
  for (const d of ds) {
    const cls = d.person ? classify(d) : d.rule;
    const scored = (k: number) => k === 0 || d.scored.includes(MODEL_CLASSES[k]);
    for (let k = 1; k < IGN; k++) if (scored(k)) T[k] += d.totals[k];
    for (let i = 0; i < d.count; i++) {
      const k = cls[i];
      if (k === 0) continue;
      let on = 0, onGarment = 0;
      for (let j = 0; j < IGN; j++) { on += d.onMatte[i * SLOTS + j]; if (j > 0) onGarment += d.onMatte[i * SLOTS + j]; }
      if (scored(k)) { I[k] += d.onMatte[i * SLOTS + k]; Pr[k] += on; }
      I[0] += onGarment; Pr[0] += on;
    }
    for (let k = 1; k < IGN; k++) T[0] += d.totals[k];
  }
  const iou = (k: number) => (Pr[k] + T[k] - I[k] > 0 ? I[k] / (Pr[k] + T[k] - I[k]) : 0);
  const per = garmentClasses.map((_, c) => iou(c + 1));
  return { per, mean: per.reduce((t, v) => t + v, 0) / 7, all: iou(0) };
}

export async function rowsOf(photo: ApparelPhoto, view?: View): Promise<PhotoRows> {
  const file = path.join(FEATURE_CACHE, version, key(photo.rel) + (view ? `~${view.name}` : ''));
  if (existsSync(`${file}.json`)) {
    const j = JSON.parse(readFileSync(`${file}.json`, 'utf8'));
    const buf = readFileSync(`${file}.bin`);
    const b = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length);
    const n = j.count;
    return { ...j, half: photo.half, view: view?.name, rows: new Float32Array(b, 0, n * F), rule: new Uint8Array(b, n * F * 4 + 2 * n * SLOTS * 4, n), onMatte: new Uint32Array(b, n * F * 4, n * SLOTS), inAll: new Uint32Array(b, n * F * 4 + n * SLOTS * 4, n * SLOTS) };
  }
  const { data: px, info } = await sharp(path.join(testdata, photo.rel)).rotate().raw().toBuffer({ resolveWithObject: true });
  let image = { data: px, width: info.width, height: info.height, channels: info.channels as 3 | 4 };
  const cached = loadCached(APPAREL_CACHE, photo.rel);
  // A view needs the photo's own model outputs (a view is only of a fit photo, after the photo's own rows).
  if (view && !cached) throw new Error(`--augment: ${photo.rel} has no cached model outputs`);
  const at = view && viewOf(view, image.width, image.height);
  if (at) image = { ...image, data: Buffer.from(at.raster(image.data, image.channels).buffer), width: at.width, height: at.height };
  const c = stepContext<P, State>(image, { out_mode: 0, cloth_class: [...garmentClasses], return_form: 'mask' } as P, models);
  if (cached) {
    Object.assign(c.state, at ? at.state(cached) : cached);
    if (needsHeads(APPAREL_CACHE, photo.rel, c.state)) { await parseFacesAround(c, kit); saveCached(APPAREL_CACHE, photo.rel, c.state); }
  } else { for (const step of effect.steps.slice(0, 3)) await step(c, kit); saveCached(APPAREL_CACHE, photo.rel, c.state); }
  const input = await parseInput(c);
  const rules = parseByRules(input);
  const regions = candidateRegions(rules);
  const rows = candidateFeatures(rules, input, regions);
  const gt = await truth(photo);
  let gtRaw = { data: gt.cls, width: gt.width, height: gt.height };
  if (at) {
    // The labels at the photo's size, then through the view.
    const full = await sharp(gt.cls, { raw: { width: gt.width, height: gt.height, channels: 1 } }).resize(info.width, info.height, { fit: 'fill', kernel: 'nearest' }).extractChannel(0).raw().toBuffer();
    gtRaw = { data: at.raster(full, 1), width: at.width, height: at.height };
  }
  const small = await sharp(gtRaw.data, { raw: { width: gtRaw.width, height: gtRaw.height, channels: 1 } }).resize(input.width, input.height, { fit: 'fill', kernel: 'nearest' }).extractChannel(0).raw().toBuffer();
  const slot = (v: number) => (v === IGNORE ? IGN : v);
  const index = new Int32Array(rules.s.regions.length).fill(-1);
  regions.forEach((r, i) => { index[r] = i; });
  const n = regions.length;
  const onMatte = new Uint32Array(n * SLOTS), inAll = new Uint32Array(n * SLOTS), totals = new Array<number>(SLOTS).fill(0);
  for (let p = 0; p < small.length; p++) {
    const k = slot(small[p]);
    totals[k]++;
    const i = index[rules.s.sp[p]];
    if (i < 0) continue;
    inAll[i * SLOTS + k]++;
    if (input.matte[p] >= 128 || rules.offMatte?.[p]) onMatte[i * SLOTS + k]++;
  }
  const toClass = new Map(garmentClasses.map((g, k) => [L[g], k + 1]));
  const rule = Uint8Array.from(regions, (r) => toClass.get(rules.s.label[r]) ?? 0);
  const meta = { rel: photo.rel, person: rules.person, scored: gt.scored, count: n, totals, neighbours: candidateNeighbours(rules, regions) };
  writeFileSync(`${file}.json`, JSON.stringify(meta));
  writeFileSync(`${file}.bin`, Buffer.concat([Buffer.from(rows.buffer), Buffer.from(onMatte.buffer), Buffer.from(inAll.buffer), Buffer.from(rule.buffer)]));
  return { ...meta, half: photo.half, view: view?.name, rows, rule, onMatte, inAll };
}
