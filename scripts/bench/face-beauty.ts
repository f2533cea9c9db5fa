/**
 * Speed of face beauty: end to end over HTTP (a real engine, one worker, as in production) on 1-2 MP
 * portraits after a warm-up, medians in ms; then where the time goes, step by step in this process
 * (detection with mesh, face parsing, the retouch itself, PNG encoding).
 *
 *   npm run bench:face-beauty -- [runs=5]
 */
import path from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import {
  BEAUTY_FACES, BEAUTY_PARSING, beautyRetouchFace as retouchFace, encodePngFast, type FaceParsing, httpForm as form,
  httpPost as post, jobFacts, ModelRegistry, type RasterImage, retouchWindow, startTestEngine, waitReady
} from '../../engine/for-scripts.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const runs = Number(process.argv[2] ?? 5);
const PATH = '/api/portrait/effects/face-beauty';

const photos: { name: string; jpeg: Buffer }[] = [
  { name: 'obama_official_portrait.jpg (1.0 MP, 1 face)', jpeg: await sharp(path.join(root, 'engine/test/fixtures/obama_official_portrait.jpg')).jpeg({ quality: 92 }).toBuffer() },
];
const biden = path.join(testdata, 'portraits/biden_obama_laughing_whitehouse.jpg');
if (existsSync(biden)) photos.push({ name: 'biden_obama_laughing at 1600x1200 (1.9 MP, 2 faces)', jpeg: await sharp(biden).resize(1600, 1200).jpeg({ quality: 92 }).toBuffer() });
else console.log(`(no ${biden}: only the fixture is timed)`);

const mid = (v: number[]) => [...v].sort((x, y) => x - y)[v.length >> 1];

const e = await startTestEngine();
await waitReady(e);
console.log(['photo', 'HTTP median ms', 'min', 'max'].join('\t'));
for (const p of photos) {
  const once = async () => {
    const t0 = performance.now();
    const r = await post(e, PATH, form({ image: p.jpeg }));
    if (r.status !== 200) throw new Error(`${p.name}: ${r.status} ${JSON.stringify(r.body.error_detail)}`);
    // The client has its answer when the result URL is fetched.
    const img = await fetch(r.body.data.image_url);
    await img.arrayBuffer();
    return performance.now() - t0;
  };
  await once();
  const t: number[] = [];
  for (let i = 0; i < runs; i++) t.push(await once());
  console.log([p.name, mid(t).toFixed(0), Math.min(...t).toFixed(0), Math.max(...t).toFixed(0)].join('\t'));
}
await e.close();

// Where the time goes, in this process (the same code the worker runs).
const models = new ModelRegistry({ threads: 2 });
const STEPS = ['decode', 'faces+mesh', 'parsing', 'retouch', 'encode'];
// Wall ms, then CPU ms of this process (onnxruntime's and sharp's threads included): on a shared machine
// the CPU figures are the ones to compare between versions.
console.log(['photo', ...STEPS, ...STEPS.map((s) => `${s} CPU`)].join('\t'));
for (const p of photos) {
  const split = async () => {
    const ms: number[] = [], cpu: number[] = [];
    let t = performance.now(), u = process.cpuUsage();
    const lap = () => {
      const n = performance.now(), v = process.cpuUsage();
      ms.push(n - t); cpu.push((v.user - u.user + v.system - u.system) / 1000); t = n; u = v;
    };
    const { data, info } = await sharp(p.jpeg).raw().toBuffer({ resolveWithObject: true });
    const image: RasterImage = { data, width: info.width, height: info.height, channels: 3 };
    lap();
    const facts = jobFacts(image, models);
    const faces = (await facts.faces({ meshFaces: BEAUTY_FACES })).slice(0, BEAUTY_FACES);
    lap();
    const parsings: FaceParsing[] = [];
    // As the effect parses: its own input size and classes.
    for (const f of faces) parsings.push(await facts.parsing(f, BEAUTY_PARSING));
    lap();
    const out = Buffer.from(image.data);
    faces.forEach((f, i) => {
      const win = retouchWindow(f, image);
      if (!win) return;
      const px = Buffer.alloc(win.w * win.h * 3);
      for (let y = 0; y < win.h; y++) out.copy(px, y * win.w * 3, ((win.y0 + y) * image.width + win.x0) * 3, ((win.y0 + y) * image.width + win.x0 + win.w) * 3);
      retouchFace(px, 3, f, parsings[i], win, {});
    });
    lap();
    await encodePngFast({ data: out, width: image.width, height: image.height, channels: 3 });
    lap();
    return [...ms, ...cpu];
  };
  await split();
  const all: number[][] = [];
  for (let i = 0; i < runs; i++) all.push(await split());
  console.log([p.name, ...all[0].map((_, k) => mid(all.map((r) => r[k])).toFixed(0))].join('\t'));
}
process.exit(0);
