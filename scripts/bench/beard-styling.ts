/**
 * End-to-end timings of ai-beard-styling over HTTP on a real engine (one worker, as the tests start it):
 * submit to task done, per preset, on 1-2 MP portraits, after a warm-up request (models loaded). Target:
 * each edit done in ≤ 8 s. Prints per photo and preset the time in ms, then per photo the median and the
 * slowest preset; and one template transfer (a beard this endpoint drew on the fixture, carried over).
 *
 *   npm run bench:beard-styling -- [--presets A,B] [--runs 1]
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { beardPresets } from '../../contract/endpoints/ai-beard-styling.ts';
import {
  httpForm as form, httpGet as get, httpPost as post, pollTask, startTestEngine, waitReady
} from '../../engine/for-scripts.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const args = process.argv.slice(2);
const opt = (name: string) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const presets = opt('--presets')?.split(',') ?? [...beardPresets];
const runs = Number(opt('--runs') ?? 1);
const files = [path.join(root, 'engine/test/fixtures/obama_official_portrait.jpg')];
if (existsSync(testdata)) {
  for (const f of ['landmarks/helen_3248846504_1.jpg', 'landmarks/helen_3166944042_1.jpg']) files.push(path.join(testdata, f));
} else console.log(`(no ${testdata}: only the fixture is timed)`);

const BEARD = '/api/portrait/editing/ai-beard-styling';
const TARGET_MS = 8000;
const e = await startTestEngine();
await waitReady(e);

async function once(fields: Record<string, string | Buffer>): Promise<{ ms: number; result: Buffer }> {
  const t0 = performance.now();
  const s = await post(e, BEARD, form(fields, 'photo.jpg'));
  if (s.status !== 200) throw new Error(`${s.status}: ${JSON.stringify(s.body.error_detail)}`);
  const done = await pollTask(e, s.body.task_id, 120_000);
  if (!done.body.data) throw new Error(JSON.stringify(done.body.error_detail));
  const ms = performance.now() - t0;
  const result = (await get(e, new URL(done.body.data.result_urls[0]).pathname, {})).body as Buffer;
  return { ms, result };
}

const median = (v: number[]) => { const s = [...v].sort((a, b) => a - b); return s[s.length >> 1]; };
let over = 0;
try {
  await once({ image: readFileSync(files[0]), beard: 'Goatee' });
  console.log('image\tsize\tpreset\tms');
  for (const file of files) {
    const image = readFileSync(file);
    const m = await sharp(image).metadata();
    const size = `${m.width}x${m.height} (${((m.width! * m.height!) / 1e6).toFixed(1)} MP)`;
    const all: { name: string; ms: number }[] = [];
    for (const name of presets) {
      const times: number[] = [];
      for (let r = 0; r < runs; r++) times.push((await once({ image, beard: name })).ms);
      const ms = median(times);
      all.push({ name, ms });
      if (ms > TARGET_MS) over++;
      console.log(`${path.basename(file)}\t${size}\t${name}\t${ms.toFixed(0)}`);
    }
    const slow = all.reduce((a, b) => (b.ms > a.ms ? b : a));
    console.log(`${path.basename(file)} ${size}: median ${median(all.map((x) => x.ms)).toFixed(0)} ms, slowest ${slow.name} ${slow.ms.toFixed(0)} ms (target ≤ ${TARGET_MS})`);
  }
  const template = (await once({ image: readFileSync(files[0]), beard: 'FullBeardClassic' })).result;
  const target = readFileSync(files[files.length - 1]);
  const t = await once({ image: target, image_template: template });
  if (t.ms > TARGET_MS) over++;
  console.log(`template transfer onto ${path.basename(files[files.length - 1])}: ${t.ms.toFixed(0)} ms`);
  console.log(over ? `${over} edits over ${TARGET_MS} ms` : `every edit within ${TARGET_MS} ms`);
} finally {
  await e.close();
}
