/**
 * The pure half of `npm run soak` (scripts/bench/soak.ts): which photos and parameters each endpoint gets,
 * whether a URL is loopback, and the statistics it prints. Kept apart so the test can check every
 * endpoint's parameters against the contract without starting an engine.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { Endpoint } from '../../contract/endpoint.ts';
import type { Field, ImageField } from '../../contract/fields.ts';
import type { ImageFormat } from '../../contract/limits.ts';
import { readHeader, sniffFormat } from '../../engine/for-scripts.ts';

/** Folders of ../shared/testdata whose photos suit an endpoint, by contract group (apparel and products by slug). */
export function photoFolders(endpoint: Endpoint): string[] {
  if (endpoint.slug === 'apparel-background-removal') return ['apparel'];
  if (endpoint.slug === 'commodity-background-removal') return ['products', 'segmentation', 'matting'];
  if (endpoint.group === 'image-editing') return ['portraits', 'products', 'segmentation'];
  return ['portraits', 'landmarks'];
}

export interface Photo { name: string; bytes: Buffer }

/** At most this many photos per endpoint: enough variety in size and content, few enough to cycle through. */
const PHOTOS_PER_ENDPOINT = 12;

/** Ground-truth files beside the photos (masks, alphas, label maps) are not inputs. */
const isInput = (f: string) => /\.(jpe?g|png|bmp|webp)$/i.test(f) && !/_(alpha|mask|labels)\.png$/i.test(f);

/**
 * Photos of the right kind that the field's limits accept, checked the way the engine checks an upload
 * (format sniffed from the bytes, sides from the header, refused PNG depths), so the soak measures work
 * and not 400s. Spread over each folder rather than its first files.
 */
export function photosFor(endpoint: Endpoint, field: ImageField, testdata: string): Photo[] {
  const out: Photo[] = [];
  for (const folder of photoFolders(endpoint)) {
    const dir = path.join(testdata, folder);
    if (!existsSync(dir)) continue;
    const files = readdirSync(dir).filter(isInput).sort();
    const step = Math.max(1, Math.floor(files.length / PHOTOS_PER_ENDPOINT));
    for (let i = 0; i < files.length && out.length < PHOTOS_PER_ENDPOINT; i += step) {
      const bytes = readFileSync(path.join(dir, files[i]));
      if (accepts(field, bytes)) out.push({ name: `${folder}/${files[i]}`, bytes });
    }
  }
  return out;
}

export function accepts(field: ImageField, bytes: Buffer): boolean {
  const { limits } = field;
  if (bytes.length > limits.maxBytes) return false;
  const format = sniffFormat(bytes);
  if (!format || !limits.formats.includes(format as ImageFormat)) return false;
  try {
    const h = readHeader(bytes, format as ImageFormat);
    if (Math.min(h.width, h.height) < limits.minSide || Math.max(h.width, h.height) > limits.maxSide) return false;
    if (format === 'png' && h.bitsPerPixel && limits.pngRejectBitsPerPixel?.includes(h.bitsPerPixel)) return false;
    return true;
  } catch {
    return false;
  }
}

/**
 * Text values for request number `i` of an endpoint: fields with an explicit choice below rotate
 * through it, others take a valid value from their contract description. `undefined` leaves a field unset.
 */
const choices: Record<string, Record<string, (string | undefined)[]>> = {
  'commodity-background-removal': { return_form: [undefined, 'mask', 'whiteBK', 'crop'] },
  'apparel-background-removal': {
    out_mode: ['0', '1', '0', '1', '1'],
    cloth_class: ['tops', 'tops,pants', 'coat,skirt', 'pants', 'shoes,bag,hat'],
    return_form: [undefined, 'mask', 'whiteBK'],
  },
  'image-cropping': { width: ['512', '800', '300', '1080'], height: ['512', '600', '400', '1350'] },
  'face-analyzer': { max_face_num: ['1', '5', '10'] },
  'lips-color-changer': {
    lip_color_infos: [
      JSON.stringify([{ rgba: { r: 200, g: 30, b: 60, a: 70 } }]),
      JSON.stringify([{ rgba: { r: 150, g: 40, b: 90, a: 50 } }]),
    ],
  },
  'ai-colored-contacts': { name: ['Ocean Blue', 'Hazel'], desc: ['subtle blue', 'warm hazel with a dark limbal ring'] },
};

export function paramsFor(endpoint: Endpoint, i: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, f] of Object.entries(endpoint.fields)) {
    if (f.kind === 'image') continue;
    const list = choices[endpoint.slug]?.[name];
    const v = list ? list[i % list.length] : generic(f, i);
    if (v !== undefined) out[name] = v;
  }
  return out;
}

/** A valid value for a field with no explicit choice: required or one-of fields always get one. */
function generic(f: Field, i: number): string | undefined {
  const needed = f.required || f.oneOf !== undefined;
  switch (f.kind) {
    case 'enum': return needed ? f.values[i % f.values.length] : f.default;
    case 'int': return String(f.default ?? f.min + (i % (Math.min(f.max, f.min + 3) - f.min + 1)));
    case 'number': return String(f.default ?? (f.min + f.max) / 2);
    case 'csv-set': return (f.default ?? [f.values[i % f.values.length]]).join(',');
    case 'lip-colors': return JSON.stringify([{ rgba: { r: 200, g: 30, b: 60, a: 70 } }]);
    case 'text': return needed ? 'soak' : undefined;
    case 'image': return undefined;
  }
}

/** The soak talks to this machine only: localhost, 127.0.0.0/8 or ::1. */
export function isLoopbackUrl(url: string): boolean {
  let u: URL;
  try { u = new URL(url); } catch { return false; }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
  const host = u.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Nearest-rank percentile of unsorted values (p in 0..100); NaN when there are none. */
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** VmRSS and VmHWM (peak) of a process in MB, from /proc; covers all its threads (workers included). */
export function procMemory(pid: number): { rss: number; hwm: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k: string) => Number(status.match(new RegExp(`^${k}:\\s+(\\d+)`, 'm'))?.[1] ?? NaN);
    return { rss: Math.round(kb('VmRSS') / 1024), hwm: Math.round(kb('VmHWM') / 1024) };
  } catch {
    return undefined;
  }
}

/**
 * The variables package.json's engine script sets before node (glibc's malloc tunables, which only a
 * process's environment at start can set), so a bench that spawns node itself runs what `npm run engine` runs.
 */
export function engineScriptEnv(packageJson: string): Record<string, string> {
  const words = (JSON.parse(readFileSync(packageJson, 'utf8')) as { scripts: Record<string, string> }).scripts.engine.trim().split(/\s+/);
  const env: Record<string, string> = {};
  for (const w of words) {
    if (!/^[A-Z_][A-Z0-9_]*=/.test(w)) break;
    env[w.slice(0, w.indexOf('='))] = w.slice(w.indexOf('=') + 1);
  }
  return env;
}
