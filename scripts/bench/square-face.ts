/**
 * End-to-end timings of the square-face avatar over HTTP on a real engine (one worker, as the tests start
 * it): submit to task done, on 1-2 MP portraits, after one warm-up request; target ≤ 8 s (issue 11).
 *
 *   npm run bench:square-face -- [runs=3]
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { httpForm as form, httpPost as post, pollTask, startTestEngine, waitReady } from '../../engine/for-scripts.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const runs = Number(process.argv[2] ?? 3);
const files = [path.join(root, 'engine/test/fixtures/obama_official_portrait.jpg')];
if (existsSync(testdata)) {
  for (const f of ['landmarks/helen_3248846504_1.jpg', 'landmarks/helen_3067126321_1.jpg', 'portraits/biden_obama_laughing_whitehouse.jpg']) files.push(path.join(testdata, f));
} else console.log(`(no ${testdata}: only the fixture is timed)`);

const e = await startTestEngine();
await waitReady(e);
const PATH = '/api/portrait/effects/ai-square-face-filter';
const once = async (image: Buffer) => {
  const t0 = performance.now();
  const s = await post(e, PATH, form({ image }));
  if (s.status !== 200) throw new Error(`submit ${s.status}: ${JSON.stringify(s.body.error_detail)}`);
  const done = await pollTask(e, s.body.task_id);
  if (!done.body.data) throw new Error(`ai-square-face-filter: ${JSON.stringify(done.body.error_detail)}`);
  return performance.now() - t0;
};

console.log('image\tsize\tms median\tms max');
try {
  for (const file of files) {
    const image = readFileSync(file);
    const m = await sharp(image).metadata();
    await once(image);
    const t: number[] = [];
    for (let i = 0; i < runs; i++) t.push(await once(image));
    t.sort((a, b) => a - b);
    console.log(`${path.basename(file)}\t${m.width}x${m.height} (${((m.width! * m.height!) / 1e6).toFixed(1)} MP)\t${t[t.length >> 1].toFixed(0)}\t${t[t.length - 1].toFixed(0)}`);
  }
} finally {
  await e.close();
}
