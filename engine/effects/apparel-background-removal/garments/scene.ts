/**
 * The shared state of one garment parse: the work-size image in Lab, its superpixels with per-region
 * statistics and neighbours, the person matte, and the label given to each region so far.
 */
import { toLabInterleaved } from '../../../image/colour.ts';
import { slic, type Region } from './superpixels.ts';
import { SUPERPIXELS } from './tuning.ts';

/** Stand-in for a quantity that does not exist on this photo (no face, no body frame): far from any split. */
export const MISSING = -999;

export const LABELS = ['background', 'skin', 'hair', 'face', 'tops', 'coat', 'skirt', 'pants', 'bag', 'shoes', 'hat'] as const;
export type LabelName = (typeof LABELS)[number];
export const L = Object.fromEntries(LABELS.map((n, i) => [n, i])) as Record<LabelName, number>;

export interface Scene {
  width: number; height: number;
  lab: Float32Array;
  /** Superpixel index per pixel. */
  sp: Int32Array;
  regions: Region[];
  /** Mean matte (0..1) per region. */
  alpha: Float32Array;
  /** Neighbouring regions (sharing an edge). */
  neighbours: number[][];
  /** Current label per region (L.*); background until decided. */
  label: Uint8Array;
}

/**
 * What the parse reads of the photo alone: its Lab pixels, superpixels and their neighbours. No model output
 * goes into it, so the effect makes it while the networks run (steps.ts findPerson).
 */
export interface PhotoScene {
  width: number; height: number;
  lab: Float32Array; sp: Int32Array; regions: Region[]; neighbours: number[][];
}

export function photoScene(rgb: Uint8Array, channels: number, width: number, height: number): PhotoScene {
  const n = width * height;
  const lab = toLabInterleaved(rgb, channels, n);
  const { labels: sp, regions } = slic(lab, width, height, Math.max(SUPERPIXELS.minRegions, Math.round(n / SUPERPIXELS.pixelsPerRegion)));
  const sets = regions.map(() => new Set<number>());
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
    const i = y * width + x, a = sp[i];
    if (x + 1 < width && sp[i + 1] !== a) { sets[a].add(sp[i + 1]); sets[sp[i + 1]].add(a); }
    if (y + 1 < height && sp[i + width] !== a) { sets[a].add(sp[i + width]); sets[sp[i + width]].add(a); }
  }
  return { width, height, lab, sp, regions, neighbours: sets.map((s) => [...s]) };
}

/** The scene of a photo and its matte; `photo`: its photoScene made earlier (the parse only reads it). */
export function buildScene(rgb: Uint8Array, channels: number, width: number, height: number, matte: Uint8Array, photo?: PhotoScene): Scene {
  const n = width * height;
  const p = photo && photo.width === width && photo.height === height ? photo : photoScene(rgb, channels, width, height);
  const { lab, sp, regions, neighbours } = p;
  const alpha = new Float32Array(regions.length);
  for (let i = 0; i < n; i++) alpha[sp[i]] += matte[i] / 255;
  for (let r = 0; r < regions.length; r++) alpha[r] /= Math.max(1, regions[r].n);
  return { width, height, lab, sp, regions, alpha, neighbours, label: new Uint8Array(regions.length) };
}

/** Share of each region's pixels inside a pixel mask. */
export function regionShare(s: Scene, mask: Uint8Array): Float32Array {
  const out = new Float32Array(s.regions.length);
  for (let i = 0; i < mask.length; i++) if (mask[i]) out[s.sp[i]]++;
  for (let r = 0; r < out.length; r++) out[r] /= Math.max(1, s.regions[r].n);
  return out;
}

/** The per-pixel label map from region labels. */
export function labelMap(s: Scene): Uint8Array {
  const out = new Uint8Array(s.width * s.height);
  for (let i = 0; i < out.length; i++) out[i] = s.label[s.sp[i]];
  return out;
}

/** 1 on the pixels of the given regions. */
export function regionMask(s: Scene, rs: number[]): Uint8Array {
  const on = new Uint8Array(s.regions.length);
  for (const r of rs) on[r] = 1;
  const out = new Uint8Array(s.width * s.height);
  for (let i = 0; i < out.length; i++) out[i] = on[s.sp[i]];
  return out;
}

/** Area-weighted median colour of a set of regions (per channel); null when empty. */
export function medianLab(s: Scene, rs: number[]): [number, number, number] | null {
  if (rs.length === 0) return null;
  const out: number[] = [];
  for (let c = 0; c < 3; c++) {
    const v = rs.map((r) => ({ v: s.regions[r].lab[c], w: s.regions[r].n })).sort((a, b) => a.v - b.v);
    const half = v.reduce((t, e) => t + e.w, 0) / 2;
    let acc = 0, m = v[v.length - 1].v;
    for (const e of v) { acc += e.w; if (acc >= half) { m = e.v; break; } }
    out.push(m);
  }
  return out as [number, number, number];
}

export const areaOf = (s: Scene, rs: number[]) => rs.reduce((t, r) => t + s.regions[r].n, 0);
