/**
 * Speed of the skin analysis: end to end over HTTP (a real engine, one worker, as in production) on
 * 2 MP portraits with every map and rectangle confidences, after a warm-up, medians in ms; then where the
 * time goes, in this process (decode, faces+mesh, parsing, frame, each part of the analysis, maps).
 * The target is 3 s end to end on this 2-core machine; the load average is printed beside the figures
 * because the machine is shared.
 *
 * The engine runs in this process (its workers and model host are threads of it), so the process's CPU
 * time per request is the whole answer's, beside the wall time.
 *
 *   npm run bench:skin-analysis -- [runs=3] [--split]
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { skinMaps } from '../../contract/endpoints/skin-analysis-advanced.ts';
import {
  analyseSkin, type FaceParser, httpForm as form, httpPost as post, jobFacts, labFrame, makeFrame, ModelRegistry,
  parseFaceAt, type RasterImage, renderMaps, SKIN_PARSING, startTestEngine, waitReady, zoneGrid
} from '../../engine/for-scripts.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const args = process.argv.slice(2);
const runs = Number(args.find((a) => /^\d+$/.test(a)) ?? 3);
/** --split: only the split in this process (the HTTP part takes a minute more). */
const httpToo = !args.includes('--split');
const PATH = '/api/portrait/analysis/skin-analysis-advanced';
const ALL = skinMaps.join(',');

/** 2 MP: the fixture portrait enlarged to 1274x1592 (its face then 2.2 px/mm, analysed at that scale). */
const photos: { name: string; jpeg: Buffer }[] = [
  { name: 'obama_official_portrait at 1274x1592 (2.0 MP)', jpeg: await sharp(path.join(root, 'engine/test/fixtures/obama_official_portrait.jpg')).resize(1274, 1592).jpeg({ quality: 92 }).toBuffer() },
];
const headscarf = path.join(testdata, 'portraits/woman_headscarf_eyes_that_speak.jpg');
// Its face is 4.5 px/mm at this size: the frame is scaled down to 3 px/mm, the largest frame a face gets.
if (existsSync(headscarf)) photos.push({ name: 'woman_headscarf at 1638x1229 (2.0 MP)', jpeg: await sharp(headscarf).resize(1638, 1229).jpeg({ quality: 92 }).toBuffer() });
else console.log(`(no ${headscarf}: only the fixture is timed)`);

const mid = (v: number[]) => [...v].sort((x, y) => x - y)[v.length >> 1];
const load = () => os.loadavg()[0].toFixed(1);

if (httpToo) {
  const e = await startTestEngine();
  await waitReady(e);
  console.log(['photo', 'HTTP median ms', 'min', 'max', 'CPU median ms', 'load'].join('\t'));
  for (const p of photos) {
    const once = async () => {
      const t0 = performance.now(), c0 = process.cpuUsage();
      const r = await post(e, PATH, form({ image: p.jpeg, return_maps: ALL, return_rect_confidence: '1' }));
      if (r.status !== 200) throw new Error(`${p.name}: ${r.status} ${JSON.stringify(r.body.error_detail)}`);
      const c = process.cpuUsage(c0);
      return { ms: performance.now() - t0, cpu: (c.user + c.system) / 1000 };
    };
    await once();
    const t: number[] = [], cpu: number[] = [];
    for (let i = 0; i < runs; i++) { const r = await once(); t.push(r.ms); cpu.push(r.cpu); }
    console.log([p.name, mid(t).toFixed(0), Math.min(...t).toFixed(0), Math.max(...t).toFixed(0), mid(cpu).toFixed(0), load()].join('\t'));
  }
  await e.close();
}

const models = new ModelRegistry({ threads: 2 });
const parts = ['decode', 'faces+mesh', 'frame', 'parsing', 'zones', 'ridges', 'lines', 'pigment+shine', 'colour+type', 'pores', 'lesions', 'maps'];
// CPU time (this process, every thread: the models' and sharp's too) beside the wall times: on a shared
// machine it moves far less with the others' load than wall time does.
console.log(['photo', ...parts, 'CPU all parts', 'load'].join('\t'));
for (const p of photos) {
  const split = async () => {
    const ms: Record<string, number> = {};
    const cpu0 = process.cpuUsage();
    let t = performance.now(), c = cpu0;
    const lap = (k: string) => {
      const n = performance.now(), u = process.cpuUsage();
      ms[k] = n - t; ms[`${k} cpu`] = (u.user - c.user + u.system - c.system) / 1000;
      t = n; c = u;
    };
    const { data, info } = await sharp(p.jpeg).raw().toBuffer({ resolveWithObject: true });
    const image: RasterImage = { data, width: info.width, height: info.height, channels: 3 };
    lap('decode');
    const facts = jobFacts(image, models);
    const face = (await facts.faces({ meshFaces: 1 }))[0];
    lap('faces+mesh');
    const frame = await makeFrame(image, face);
    const lab = labFrame(frame);
    lap('frame');
    // As the effect's measure step does: the parsing only where the zones read it.
    const parsing = await parseFaceAt(await models.get<FaceParser>('bisenet-face-parsing'), image, face, zoneGrid(frame).at, SKIN_PARSING);
    lap('parsing');
    const a = analyseSkin(frame, face, parsing, lab, ms);
    t = performance.now(); c = process.cpuUsage();
    await renderMaps(image, a, skinMaps);
    lap('maps');
    const cpu = process.cpuUsage(cpu0);
    ms.cpu = (cpu.user + cpu.system) / 1000;
    return ms;
  };
  await split();
  const all: Record<string, number>[] = [];
  for (let i = 0; i < runs; i++) all.push(await split());
  console.log([p.name, ...[...parts, 'cpu'].map((k) => mid(all.map((r) => r[k] ?? 0)).toFixed(0)), load()].join('\t'));
  console.log([`${p.name}, CPU ms`, ...parts.map((k) => mid(all.map((r) => r[`${k} cpu`] ?? 0)).toFixed(0)), mid(all.map((r) => r.cpu)).toFixed(0), load()].join('\t'));
}
process.exit(0);
