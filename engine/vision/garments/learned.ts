/**
 * The learned garment parse: gradient-boosted trees (apparel-model.json, trained by
 * scripts/train-apparel.ts on the fit half of the shared street photos) name each superpixel of the
 * person none or one of the seven garment classes, from apparel-features.ts: colour, texture, matte,
 * place on the body and against the face, colour against the person's skin, torso and legs, and the
 * rules' own label for it. The rules' skin, hair and face stay where the model sees no garment.
 */
import { readFileSync } from 'node:fs';
import { garmentClasses } from '../../../contract/endpoints/apparel-background-removal.ts';
import { FEATURES, regionFeatures } from './apparel-features.ts';
import { predictProba, readModel, type BoostedTrees } from './boosted-trees.ts';
import type { ParseInput, RuleParse } from './parse.ts';
import { groups } from './regions.ts';
import { areaOf, L } from './scene.ts';

/** Model classes: nothing to wear, then the seven garment classes. */
export const MODEL_CLASSES = ['none', ...garmentClasses] as const;
const GARMENT_LABELS = new Set(garmentClasses.map((c) => L[c]));

let loaded: BoostedTrees | undefined;
/** The committed model (read once per thread). */
export function apparelModel(): BoostedTrees {
  if (!loaded) {
    const m = readModel(JSON.parse(readFileSync(new URL('./apparel-model.json', import.meta.url), 'utf8')));
    if (m.features.join() !== FEATURES.join() || m.classes.join() !== MODEL_CLASSES.join()) throw new Error('apparel-model.json was trained on other features or classes: run npm run train:apparel');
    loaded = m;
  }
  return loaded;
}

/** Regions the model decides: the main subject's, and any the rules made a garment (a bag off the matte). */
export function candidateRegions(r: RuleParse): number[] {
  const out: number[] = [];
  for (let i = 0; i < r.fg.length; i++) if (r.fg[i] || GARMENT_LABELS.has(r.s.label[i])) out.push(i);
  return out;
}

/** Feature rows of the candidate regions, in candidateRegions order. */
export function candidateFeatures(r: RuleParse, input: ParseInput, regions: number[]): Float32Array {
  return regionFeatures({ s: r.s, fg: r.fg, person: r.person, frame: r.frame, face: r.face, hair: input.hair, objects: input.objects }, regions);
}

/** Neighbours among the candidate regions, as candidate indices. */
export function candidateNeighbours(r: RuleParse, regions: number[]): number[][] {
  const index = new Map(regions.map((reg, i) => [reg, i]));
  return regions.map((reg) => r.s.neighbours[reg].filter((q) => index.has(q)).map((q) => index.get(q)!));
}

/** How far class probabilities spread to neighbours of like colour, and how many times (chosen by the check half). */
export const SMOOTHING = { share: 0.5, passes: 2, colour: 12 };

/**
 * Spreads class probabilities between neighbouring regions of like colour (a garment is one piece of
 * cloth; a lone region of another class inside it is mostly a mistake): each pass mixes a region's
 * probabilities with the colour-weighted mean of its neighbours'.
 */
export function smooth(p: Float32Array, K: number, rows: Float32Array, F: number, neighbours: number[][], o = SMOOTHING): Float32Array {
  let cur = p;
  for (let pass = 0; pass < o.passes; pass++) {
    const next = new Float32Array(cur.length);
    for (let i = 0; i < neighbours.length; i++) {
      let wsum = 0;
      const acc = new Float64Array(K);
      for (const q of neighbours[i]) {
        const d = Math.hypot(rows[i * F] - rows[q * F], rows[i * F + 1] - rows[q * F + 1], rows[i * F + 2] - rows[q * F + 2]);
        const w = Math.exp(-((d / o.colour) ** 2));
        wsum += w;
        for (let k = 0; k < K; k++) acc[k] += w * cur[q * K + k];
      }
      const share = wsum > 0 ? o.share : 0;
      for (let k = 0; k < K; k++) next[i * K + k] = (1 - share) * cur[i * K + k] + (wsum > 0 ? (share * acc[k]) / wsum : 0);
    }
    cur = next;
  }
  return cur;
}

/** Class index (MODEL_CLASSES) per candidate region. */
export function predictClasses(model: BoostedTrees, rows: Float32Array, count: number, neighbours?: number[][], o = SMOOTHING): Uint8Array {
  const K = model.classes.length, out = new Uint8Array(count);
  let p = predictProba(model, rows, count);
  if (neighbours) p = smooth(p, K, rows, model.features.length, neighbours, o);
  for (let i = 0; i < count; i++) {
    let best = 0;
    for (let k = 1; k < K; k++) if (p[i * K + k] > p[i * K + best]) best = k;
    out[i] = best;
  }
  return out;
}

/** Relabels the rules' parse of a person with the model's classes. */
export function relabel(r: RuleParse, input: ParseInput, model = apparelModel()) {
  const regions = candidateRegions(r);
  const cls = predictClasses(model, candidateFeatures(r, input, regions), regions.length, candidateNeighbours(r, regions));
  regions.forEach((reg, i) => {
    if (cls[i] > 0) r.s.label[reg] = L[MODEL_CLASSES[cls[i]] as keyof typeof L];
    else if (GARMENT_LABELS.has(r.s.label[reg])) r.s.label[reg] = L.background;
  });
  // A hat covers a good part of a head: a speck of hat smaller than a quarter of the face is a mistake
  // (a few superpixels of short dark hair on the official portrait).
  if (r.face) {
    const least = 0.25 * r.face.box.width * r.face.box.height;
    for (const piece of groups(r.s, regions.filter((reg) => r.s.label[reg] === L.hat))) if (areaOf(r.s, piece) < least) for (const q of piece) r.s.label[q] = L.background;
  }
}
