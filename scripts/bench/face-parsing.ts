/**
 * Face parsing's network on onnxruntime (the graph converted in memory) against the same graph on
 * tfjs-wasm, per face crop: one warm-up, then the median of `runs` interleaved runs each, wall and CPU ms,
 * at 320 and 512 px, with the load average; and how far the two runtimes' logits differ (max abs diff,
 * argmax agreement over the logit cells), and the tfjs crop every parse pays besides. Faces from the fixtures, plus a few portraits from the shared
 * test data when it is there.
 *
 *   npx tsx scripts/bench/face-parsing.ts [runs=5] [threads=1]
 */
import path from 'node:path';
import os from 'node:os';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import {
  cropRoi, detectFaces, type FaceParser, type HumanLike, ModelRegistry, parserLogitsData, PARSING_CLASSES,
  parsingRoi, type RasterImage, type TensorLike
} from '../../engine/for-scripts.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const runs = Number(process.argv[2] ?? 5);
const threads = Number(process.argv[3] ?? 1);

const files = [path.join(root, 'engine/test/fixtures/obama_official_portrait.jpg'), path.join(root, 'engine/test/fixtures/astronaut_eileen_collins.png')];
for (const f of ['two_men_glasses_jobs_gates.jpg', 'woman_speaker_rania_wef.jpg']) {
  const p = path.join(testdata, 'portraits', f);
  if (existsSync(p)) files.push(p);
}
if (files.length === 2) console.log(`(no ${testdata}/portraits: only the fixtures are timed)`);

async function load(file: string): Promise<RasterImage> {
  const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}

/** Median wall and CPU ms of f over `runs` runs after one warm-up. */
async function timed(f: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  await f();
  const wall: number[] = [], cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now(), c0 = process.cpuUsage();
    await f();
    const c = process.cpuUsage(c0);
    wall.push(performance.now() - t0);
    cpu.push((c.user + c.system) / 1000);
  }
  const med = (a: number[]) => a.sort((x, y) => x - y)[a.length >> 1];
  return { wall: med(wall), cpu: med(cpu) };
}

function agreement(a: Float32Array, b: Float32Array) {
  const C = PARSING_CLASSES.length;
  let maxDiff = 0, same = 0;
  for (let i = 0; i < a.length; i++) maxDiff = Math.max(maxDiff, Math.abs(a[i] - b[i]));
  for (let p = 0; p < a.length / C; p++) {
    let ia = 0, ib = 0;
    for (let c = 1; c < C; c++) {
      if (a[p * C + c] > a[p * C + ia]) ia = c;
      if (b[p * C + c] > b[p * C + ib]) ib = c;
    }
    if (ia === ib) same++;
  }
  return { maxDiff, agree: same / (a.length / C) };
}

const models = new ModelRegistry({ threads });
const human = await models.get<HumanLike>('human');
const parser = await models.get<FaceParser>('bisenet-face-parsing');
const tfjsOnly: FaceParser = { ...parser, onnx: undefined };
const fmt = (v: number, d = 0) => v.toFixed(d);

console.log(`onnxruntime intra-op threads ${threads}; tfjs-wasm 1 thread; ${runs} runs; ${os.cpus().length} cores`);
console.log('file                              side  tfjs wall/cpu ms   onnx wall/cpu ms   speed-up(cpu)  max|diff|  argmax agree  crop wall/cpu ms  load');
for (const file of files) {
  const image = await load(file);
  const [face] = await detectFaces(human, image);
  if (!face) { console.log(`${path.basename(file)}: no face`); continue; }
  for (const side of [320, 512]) {
    const crop: TensorLike = await cropRoi(parser.tf, image, parsingRoi(face), side, false, 127.5);
    try {
      const a = await parserLogitsData(tfjsOnly, crop, side), b = await parserLogitsData(parser, crop, side);
      const eq = agreement(a, b);
      // Interleaved so both see about the same load.
      const t = await timed(() => parserLogitsData(tfjsOnly, crop, side));
      const o = await timed(() => parserLogitsData(parser, crop, side));
      // The crop itself (tfjs-wasm), which every parse pays on top of the network.
      const c = await timed(async () => parser.tf.dispose([await cropRoi(parser.tf, image, parsingRoi(face), side, false, 127.5)]));
      console.log(`${path.basename(file).padEnd(34)}${String(side).padStart(4)}  ${fmt(t.wall).padStart(7)} /${fmt(t.cpu).padStart(6)}   ${fmt(o.wall).padStart(7)} /${fmt(o.cpu).padStart(6)}   ${fmt(t.cpu / o.cpu, 1).padStart(8)}x     ${eq.maxDiff.toExponential(1)}   ${(100 * eq.agree).toFixed(2)} %   ${fmt(c.wall).padStart(6)} /${fmt(c.cpu).padStart(5)}    ${os.loadavg()[0].toFixed(1)}`);
    } finally {
      parser.tf.dispose([crop]);
    }
  }
}
