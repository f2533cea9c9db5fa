/**
 * A photo's model outputs for apparel parsing (subject alpha, faces, keypoints, objects, hair, the face
 * parser's classes around the largest faces), kept on disk so that quality runs and training redo only the
 * parse. One JSON and up to three raw files per photo. A photo with faces but no `.heads` file was cached
 * before the face parser was read: `needsHeads` says so and the caller runs that step alone.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type ApparelState as State, HEAD_CLASSES, type HeadClass } from '../../engine/for-scripts.ts';

export const APPAREL_CACHE = '/tmp/apparel-cache';

const base = (dir: string, rel: string) => path.join(dir, rel.replace(/[^\w.-]/g, '_'));

export function saveCached(dir: string, rel: string, v: State) {
  mkdirSync(dir, { recursive: true });
  const b = base(dir, rel);
  writeFileSync(`${b}.alpha`, v.alpha!);
  if (v.hair) writeFileSync(`${b}.hair`, v.hair);
  if (v.heads) writeFileSync(`${b}.heads`, Buffer.concat([...HEAD_CLASSES.map((c) => v.heads!.planes[c]), v.heads.covered]));
  const heads = v.heads ? { width: v.heads.width, height: v.heads.height } : null;
  writeFileSync(`${b}.json`, JSON.stringify({ faces: v.faces, points: v.points, objects: v.objects, hair: !!v.hair, heads }));
}

export function loadCached(dir: string, rel: string): State | null {
  const b = base(dir, rel);
  if (!existsSync(`${b}.json`)) return null;
  const j = JSON.parse(readFileSync(`${b}.json`, 'utf8'));
  // A cache written before boxes were Rects ({x0, y0, w, h}) is stale: the photo is run again.
  if ([...(j.faces ?? []), ...(j.objects ?? [])].some((f: { box: object }) => !('x0' in f.box))) return null;
  const bytes = (f: string) => { const buf = readFileSync(f); return new Uint8Array(buf.buffer, buf.byteOffset, buf.length); };
  let heads: State['heads'];
  if (j.heads) {
    const all = bytes(`${b}.heads`), n = j.heads.width * j.heads.height;
    const planes = Object.fromEntries(HEAD_CLASSES.map((c, k) => [c, all.subarray(k * n, (k + 1) * n)])) as Record<HeadClass, Uint8Array>;
    heads = { width: j.heads.width, height: j.heads.height, planes, covered: all.subarray(HEAD_CLASSES.length * n, (HEAD_CLASSES.length + 1) * n) };
  }
  return { faces: j.faces, points: j.points, objects: j.objects, alpha: bytes(`${b}.alpha`), hair: j.hair ? bytes(`${b}.hair`) : undefined, heads };
}

/** A cached photo with faces whose face parsing was not kept (cached before it was read). */
export function needsHeads(dir: string, rel: string, v: State): boolean {
  return !v.heads && !!v.faces?.length && !existsSync(`${base(dir, rel)}.heads`);
}
