/**
 * End-to-end timings of the lip effects over HTTP on a real engine (one worker, as the tests start it):
 * lips-color-changer (sync; target ≤ 1.0 s) and ai-red-lip-gloss (async, submit to task done; target ≤ 4 s)
 * on 1-2 MP portraits, after two warm-up requests. Medians and maxima in ms.
 *
 *   npm run bench:lips -- [runs=5]
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { httpForm as form, httpPost as post, pollTask, startTestEngine, waitReady } from '../../engine/for-scripts.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const runs = Number(process.argv[2] ?? 5);
const files = [path.join(root, 'engine/test/fixtures/obama_official_portrait.jpg')];
if (existsSync(testdata)) {
  for (const f of ['landmarks/helen_3248846504_1.jpg', 'landmarks/helen_3166944042_1.jpg', 'landmarks/afw_59354095.jpg']) files.push(path.join(testdata, f));
} else console.log(`(no ${testdata}: only the fixture is timed)`);

const e = await startTestEngine();
await waitReady(e);
const LIPS = '/api/portrait/effects/lips-color-changer', GLOSS = '/api/portrait/effects/ai-red-lip-gloss';
const infos = JSON.stringify([{ rgba: { r: 200, g: 20, b: 60, a: 80 } }]);
const stats = (v: number[]) => { const s = [...v].sort((a, b) => a - b); return `median ${s[s.length >> 1].toFixed(0)}  max ${s[s.length - 1].toFixed(0)}`; };

const lipsOnce = async (image: Buffer) => {
  const t0 = performance.now();
  const r = await post(e, LIPS, form({ image, lip_color_infos: infos }));
  if (r.status !== 200) throw new Error(`lips-color-changer ${r.status}: ${JSON.stringify(r.body.error_detail)}`);
  return performance.now() - t0;
};
const glossOnce = async (image: Buffer) => {
  const t0 = performance.now();
  const s = await post(e, GLOSS, form({ image }));
  const done = await pollTask(e, s.body.task_id);
  if (!done.body.data) throw new Error(`ai-red-lip-gloss: ${JSON.stringify(done.body.error_detail)}`);
  return performance.now() - t0;
};

console.log('image\tsize\tlips-color-changer ms\tai-red-lip-gloss ms');
try {
  for (const file of files) {
    const image = readFileSync(file);
    const m = await sharp(image).metadata();
    await lipsOnce(image); await lipsOnce(image); await glossOnce(image);
    const a: number[] = [], b: number[] = [];
    for (let i = 0; i < runs; i++) { a.push(await lipsOnce(image)); b.push(await glossOnce(image)); }
    console.log(`${path.basename(file)}\t${m.width}x${m.height} (${((m.width! * m.height!) / 1e6).toFixed(1)} MP)\t${stats(a)}\t${stats(b)}`);
  }
} finally {
  await e.close();
}
