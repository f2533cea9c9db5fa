/**
 * A photo's model outputs for apparel parsing (subject alpha, faces, keypoints, objects, hair), kept on
 * disk so that quality runs and training redo only the parse. One JSON and two raw masks per photo.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { State } from '../engine/effects/apparel-background-removal/steps.ts';

export const APPAREL_CACHE = '/tmp/apparel-cache';

const base = (dir: string, rel: string) => path.join(dir, rel.replace(/[^\w.-]/g, '_'));

export function saveCached(dir: string, rel: string, v: State) {
  mkdirSync(dir, { recursive: true });
  const b = base(dir, rel);
  writeFileSync(`${b}.alpha`, v.alpha!);
  if (v.hair) writeFileSync(`${b}.hair`, v.hair);
  writeFileSync(`${b}.json`, JSON.stringify({ faces: v.faces, points: v.points, objects: v.objects, hair: !!v.hair }));
}

export function loadCached(dir: string, rel: string): State | null {
  const b = base(dir, rel);
  if (!existsSync(`${b}.json`)) return null;
  const j = JSON.parse(readFileSync(`${b}.json`, 'utf8'));
  const bytes = (f: string) => { const buf = readFileSync(f); return new Uint8Array(buf.buffer, buf.byteOffset, buf.length); };
  return { faces: j.faces, points: j.points, objects: j.objects, alpha: bytes(`${b}.alpha`), hair: j.hair ? bytes(`${b}.hair`) : undefined };
}
