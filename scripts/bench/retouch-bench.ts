/**
 * What the face beauty and smart skin benches share: their photos (the 1 MP fixture, and a 2-face portrait
 * at 1.9 MP when the shared test data is there), the HTTP timing of a real engine after a warm-up, and the
 * step-by-step split in this process (decode, faces with mesh, parsing, the retouch, encoding). Medians in ms.
 */
import path from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import {
  type Face, type FaceParsing, httpForm as form, httpGet as get, httpPost as post, jobFacts, ModelRegistry,
  type RasterImage, type Rect, retouchWindow, startTestEngine, waitReady
} from '../../engine/for-scripts.ts';

export interface RetouchBench {
  /** The endpoint's path, and the form fields beside the image. */
  path: string;
  fields: Record<string, string>;
  /** Sync endpoints answer with the result URL; async ones are polled every 50 ms until done. */
  async: boolean;
  /** The step split, as the effect runs it. */
  faces: (facts: ReturnType<typeof jobFacts>) => Promise<Face[]>;
  parsing: (facts: ReturnType<typeof jobFacts>, face: Face) => Promise<FaceParsing>;
  retouch: (px: Buffer, face: Face, parsing: FaceParsing, win: Rect, image: RasterImage) => void;
  encode: (image: RasterImage) => Promise<unknown>;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const mid = (v: number[]) => [...v].sort((x, y) => x - y)[v.length >> 1];

export async function benchRetouch(b: RetouchBench, runs: number): Promise<void> {
  const photos: { name: string; jpeg: Buffer }[] = [
    { name: 'obama_official_portrait.jpg (1.0 MP, 1 face)', jpeg: await sharp(path.join(root, 'engine/test/fixtures/obama_official_portrait.jpg')).jpeg({ quality: 92 }).toBuffer() },
  ];
  const biden = path.join(testdata, 'portraits/biden_obama_laughing_whitehouse.jpg');
  if (existsSync(biden)) photos.push({ name: 'biden_obama_laughing at 1600x1200 (1.9 MP, 2 faces)', jpeg: await sharp(biden).resize(1600, 1200).jpeg({ quality: 92 }).toBuffer() });
  else console.log(`(no ${biden}: only the fixture is timed)`);

  const e = await startTestEngine();
  await waitReady(e);
  console.log(['photo', b.async ? 'task done, median ms' : 'HTTP median ms', 'min', 'max'].join('\t'));
  for (const p of photos) {
    const once = async () => {
      const t0 = performance.now();
      const r = await post(e, b.path, form({ image: p.jpeg, ...b.fields }));
      if (r.status !== 200) throw new Error(`${p.name}: ${r.status} ${JSON.stringify(r.body.error_detail)}`);
      let url: string = r.body.data?.image_url;
      while (b.async) {
        const q = await get(e, `/api/common/query-async-task-result?task_id=${r.body.task_id}`);
        if (q.body.task_status === 2) {
          if (q.body.error_detail.code) throw new Error(`${p.name}: ${JSON.stringify(q.body.error_detail)}`);
          url = q.body.data.result_urls[0];
          break;
        }
        await new Promise((res) => setTimeout(res, 50));
      }
      // The client has its answer when the result URL is fetched.
      await (await fetch(url)).arrayBuffer();
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
      const faces = await b.faces(facts);
      lap();
      const parsings: FaceParsing[] = [];
      for (const f of faces) parsings.push(await b.parsing(facts, f));
      lap();
      const out = Buffer.from(image.data);
      faces.forEach((f, i) => {
        const win = retouchWindow(f, image);
        if (!win) return;
        const px = Buffer.alloc(win.w * win.h * 3);
        for (let y = 0; y < win.h; y++) out.copy(px, y * win.w * 3, ((win.y0 + y) * image.width + win.x0) * 3, ((win.y0 + y) * image.width + win.x0 + win.w) * 3);
        b.retouch(px, f, parsings[i], win, image);
        for (let y = 0; y < win.h; y++) px.copy(out, ((win.y0 + y) * image.width + win.x0) * 3, y * win.w * 3, (y + 1) * win.w * 3);
      });
      lap();
      await b.encode({ data: out, width: image.width, height: image.height, channels: 3 });
      lap();
      return [...ms, ...cpu];
    };
    await split();
    const all: number[][] = [];
    for (let i = 0; i < runs; i++) all.push(await split());
    console.log([p.name, ...all[0].map((_, k) => mid(all.map((r) => r[k])).toFixed(0))].join('\t'));
  }
}
