/**
 * Where beard removal spends its time on one photo: faces, parsing, regions, the mask, the removal's steps,
 * each as wall and CPU ms (process.cpuUsage, so a loaded machine's figures stay comparable), and the whole
 * effect end to end (runEffect, in process).
 *
 *   npx tsx scripts/profile-beard-removal.ts [photo under the shared testdata] [runs=3]
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { effectModules } from '../engine/effects/registry.ts';
import type { RasterImage } from '../engine/image/raster.ts';
import type { Effect } from '../engine/pipeline/effect.ts';
import { jobFacts } from '../engine/pipeline/facts.ts';
import { runEffect } from '../engine/pipeline/run.ts';
import { ModelRegistry } from '../engine/vision/models/registry.ts';
import { BEARD_PARSING, BEARD_REGIONS, beardMask } from '../engine/looks/beard/mask.ts';
import { removeBeard } from '../engine/looks/beard/removal.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const rel = process.argv[2] ?? 'landmarks/helen_3248846504_1.jpg';
const runs = Number(process.argv[3] ?? 3);

async function load(file: string, mp: number): Promise<RasterImage> {
  const m = await sharp(file).metadata();
  const k = Math.max(1, Math.sqrt((mp * 1e6) / (m.width! * m.height!)));
  const { data, info } = await sharp(file).rotate().resize(Math.round(m.width! * k)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}
const img = await load(path.join(testdata, rel), 1);
const models = new ModelRegistry({ threads: 2 });
const effect = (await import(effectModules['ai-beard-removal'])).default as Effect;

const timed = async <T>(rows: Record<string, [number, number][]>, name: string, f: () => T | Promise<T>): Promise<T> => {
  const c0 = process.cpuUsage(), t0 = performance.now();
  const v = await f();
  const c = process.cpuUsage(c0);
  (rows[name] ??= []).push([performance.now() - t0, (c.user + c.system) / 1000]);
  return v;
};
const rows: Record<string, [number, number][]> = {};
for (let k = 0; k <= runs; k++) {
  const r: Record<string, [number, number][]> = k === 0 ? {} : rows; // the first run warms the models
  const facts = jobFacts(img, models);
  const faces = await timed(r, 'faces', () => facts.faces());
  const face = faces[0];
  const parsing = await timed(r, 'parsing', () => facts.parsing(face, BEARD_PARSING));
  const regions = await timed(r, 'regions', () => facts.regions(face, BEARD_REGIONS));
  const mask = await timed(r, 'mask', () => beardMask(img, face, parsing, regions));
  const copy = { ...img, data: Buffer.from(img.data) };
  const st = await timed(r, 'removal', () => mask && mask.coverage ? removeBeard(copy, mask) : null);
  if (st && k) for (const [name, ms] of Object.entries(st.ms)) (rows[`  removal.${name} (wall)`] ??= []).push([ms, NaN]);
  await timed(r, 'effect end to end', () => runEffect(effect, { image: img, params: {} }, { models, signal: new AbortController().signal }));
}
const med = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1];
console.log(`${rel} ${img.width}x${img.height}, load ${(await import('node:os')).loadavg().map((v) => v.toFixed(2)).join(' ')}`);
console.log('step\twall ms\tCPU ms (medians of ' + runs + ')');
for (const [name, v] of Object.entries(rows)) console.log(`${name}\t${med(v.map((x) => x[0])).toFixed(0)}\t${Number.isNaN(v[0][1]) ? '-' : med(v.map((x) => x[1])).toFixed(0)}`);
