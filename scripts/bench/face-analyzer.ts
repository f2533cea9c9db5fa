/**
 * Speed of the face analyzer with every attribute against a bare human.detect() with human's own attribute
 * models switched on (faceres description, emotion) on the same images: interleaved runs, medians in ms,
 * and the ratio; beside them the same in CPU time of this process (the models run on one thread, so on a
 * loaded shared machine CPU time says more than wall time), and the load average before and after. The
 * analyzer also runs face parsing and the geometry and colour measures, which human has no counterpart
 * for; the ratio says what they cost. The ONNX networks run in a model host thread of this process, as in the
 * engine's workers (so the analyzer's tfjs work and its ONNX runs overlap as they do there; the host's CPU is this
 * process's); `--in-thread` runs them in this thread instead, each run blocking it, as before 2026-12-08.
 *
 *   npm run bench:face-analyzer -- [runs=3] [--in-thread]
 */
import path from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { faceAttributeTypes } from '../../contract/endpoints/face-analyzer.ts';
import {
  faceAnalyzerEffect as effect, faceConfig, type HumanLike, ModelRegistry, type RasterImage, runEffect, scriptModelHost
} from '../../engine/for-scripts.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const args = process.argv.slice(2);
const runs = Number(args.find((a) => !a.startsWith('--')) ?? 3);
const inThread = args.includes('--in-thread');

const files = [path.join(root, 'engine/test/fixtures/obama_official_portrait.jpg'), path.join(root, 'engine/test/fixtures/astronaut_eileen_collins.png')];
if (existsSync(path.join(testdata, 'portraits'))) {
  for (const f of ['group3_voc_2008_001322.jpg', 'two_men_glasses_jobs_gates.jpg', 'woman_speaker_rania_wef.jpg']) files.push(path.join(testdata, 'portraits', f));
} else console.log(`(no ${testdata}: only the fixtures are timed)`);

// Two threads a run, as the engine's host on this 2-core machine (config.ts: all cores).
const models = new ModelRegistry({ threads: 2, ...(inThread ? {} : { host: scriptModelHost({ threads: 2, idleMs: 0, preload: [] }).host }) });
const human = await models.get<HumanLike>('human');
const all = faceAttributeTypes.filter((t) => t !== 'None');
// Human's own face pipeline with its attribute models: faceres (age, gender, descriptor) and emotion.
const bare = {
  face: { ...faceConfig, detector: { ...faceConfig.detector, rotation: false, maxDetected: 5 }, description: { enabled: true, modelPath: 'faceres.json' }, emotion: { enabled: true, modelPath: 'emotion.json' } },
  body: { enabled: false }, hand: { enabled: false }, object: { enabled: false }, segmentation: { enabled: false }, gesture: { enabled: false },
};
// Human loads a family's models only through load(); detect() with a new family enabled would not.
await human.load(bare);
const mid = (v: number[]) => [...v].sort((x, y) => x - y)[v.length >> 1];

console.log(`load ${readFileSync('/proc/loadavg', 'utf8').trim()}; ONNX ${inThread ? 'in this thread' : 'in a model host thread'}`);
console.log(['image', 'faces', 'analyzer ms', 'human.detect+attributes ms', 'ratio', 'analyzer CPU ms', 'human CPU ms', 'CPU ratio'].join('\t'));
let sumOurs = 0, sumBare = 0, cpuOurs = 0, cpuBare = 0;
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
for (const file of files) {
  const { data, info } = await sharp(file).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const image: RasterImage = { data, width: info.width, height: info.height, channels: 3 };
  let faces = 0;
  const runOurs = async () => {
    const out = await runEffect(effect, { image, params: { max_face_num: 5, face_attributes_type: all } }, { models, signal: new AbortController().signal });
    faces = (out.data?.face_detail_infos as unknown[]).length;
  };
  const runBare = async () => {
    const input = human.tf.tensor4d(new Uint8Array(data.buffer, data.byteOffset, data.length), [1, info.height, info.width, 3], 'int32');
    try { await human.detect(input, bare); } finally { input.dispose(); }
  };
  await runOurs(); await runBare();
  const a: number[] = [], b: number[] = [], ca: number[] = [], cb: number[] = [];
  for (let i = 0; i < runs; i++) {
    let t0 = performance.now(), c0 = cpu(); await runOurs(); a.push(performance.now() - t0); ca.push(cpu() - c0);
    t0 = performance.now(); c0 = cpu(); await runBare(); b.push(performance.now() - t0); cb.push(cpu() - c0);
  }
  sumOurs += mid(a); sumBare += mid(b); cpuOurs += mid(ca); cpuBare += mid(cb);
  console.log([path.basename(file), faces, mid(a).toFixed(0), mid(b).toFixed(0), (mid(a) / mid(b)).toFixed(2), mid(ca).toFixed(0), mid(cb).toFixed(0), (mid(ca) / mid(cb)).toFixed(2)].join('\t'));
}
console.log(`total\t\t${sumOurs.toFixed(0)}\t${sumBare.toFixed(0)}\t${(sumOurs / sumBare).toFixed(2)}\t${cpuOurs.toFixed(0)}\t${cpuBare.toFixed(0)}\t${(cpuOurs / cpuBare).toFixed(2)}`);
console.log(`load ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
process.exit(0);
