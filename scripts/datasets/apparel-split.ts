/**
 * The labelled apparel photos of the shared test data, their ground truth in the seven garment classes,
 * and the fixed fit/check split that scripts/quality/apparel.ts and scripts/train/apparel.ts both use.
 *
 * The split is by photo: sha1 of the path relative to the test data (e.g. `apparel/ccp_0001.jpg`), its
 * first 32 bits below 60 % of the range → fit (training, choices), else check (figures on photos the
 * model and the choices never saw). It was fixed before any learning or tuning on the 225 photos.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { garmentClasses } from '../../engine/for-scripts.ts';

export type Half = 'fit' | 'check';
export const FIT_SHARE = 0.6;
export const half = (rel: string): Half => (createHash('sha1').update(rel).digest().readUInt32BE(0) / 2 ** 32 < FIT_SHARE ? 'fit' : 'check');

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(repoRoot, '../shared/testdata');

/** Ground-truth value of pixels that count for nothing (labels under `ignore`: dresses, tights, ...). */
export const IGNORE = 255;

export interface ApparelPhoto { rel: string; half: Half; entry: Record<string, any> }

/** The labelled apparel photos present on disk, sorted by path; null when the test data is absent. */
export function apparelPhotos(): ApparelPhoto[] | null {
  if (!existsSync(path.join(testdata, 'labels.json')) || !existsSync(path.join(testdata, 'apparel-classes.json'))) return null;
  const labels = JSON.parse(readFileSync(path.join(testdata, 'labels.json'), 'utf8'));
  return Object.entries<Record<string, any>>(labels.files)
    .filter(([f, v]) => v.kind === 'apparel_parsing_image' && existsSync(path.join(testdata, f)) && existsSync(path.join(testdata, v.labels_png)))
    .map(([rel, entry]) => ({ rel, half: half(rel), entry: { ...entry, names: labels.label_maps[entry.label_map] } }))
    .sort((a, b) => a.rel.localeCompare(b.rel));
}

export interface Truth {
  /** Per pixel: 0 not a garment, k + 1 for garmentClasses[k], IGNORE. */
  cls: Uint8Array; width: number; height: number;
  /** Classes the photo's dataset labels (CIHP has no bags). */
  scored: string[];
}

let mapping: Record<string, Record<string, string[]>> | undefined;

export async function truth(photo: ApparelPhoto): Promise<Truth> {
  mapping ??= JSON.parse(readFileSync(path.join(testdata, 'apparel-classes.json'), 'utf8'));
  const { entry } = photo;
  const lm = entry.names;
  const names: [number, string][] = Array.isArray(lm) ? lm.map((n: string, i: number) => [i, n]) : Object.entries<string>(lm).map(([i, n]) => [Number(i), n]);
  const m = mapping![entry.label_map];
  const lut = new Uint8Array(256);
  for (const [i, n] of names) {
    garmentClasses.forEach((c, k) => { if (m[c]?.includes(n)) lut[i] = k + 1; });
    if (m.ignore?.includes(n)) lut[i] = IGNORE;
  }
  const { data, info } = await sharp(path.join(testdata, entry.labels_png)).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return { cls: data.map((v) => lut[v]), width: info.width, height: info.height, scored: garmentClasses.filter((c) => !(m.not_labelled ?? []).includes(c)) };
}
