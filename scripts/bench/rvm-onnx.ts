/**
 * RVM (the person matte's network) on tfjs-wasm against its ONNX conversion (rvm-onnx.ts) on onnxruntime:
 * interleaved runs on the same input, medians of this process's CPU ms (onnxruntime's threads included)
 * and wall ms, per input size, with the largest difference of their alphas and the load average. The
 * conversion and the session's first open are timed once beside them (the engine pays them once).
 *
 *   npm run bench:rvm-onnx -- [runs=7] [WxH ...]   (default 256x176 176x256 512x384: the hair matte's and the person matte's sides)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import {
  type HumanLike, humanModel, ModelRegistry, openLocalOnnx, readTfGraph, RVM_ONNX_INPUT, RVM_ONNX_OUTPUT,
  rvmModelJson, rvmToOnnx, type TensorLike
} from '../../engine/for-scripts.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const runs = Number(process.argv[2] ?? 7);
const sizes = (process.argv.length > 3 ? process.argv.slice(3) : ['256x176', '176x256', '512x384']).map((s) => s.split('x').map(Number));
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1];

const threads = 2;
const human = await new ModelRegistry({ threads }).get<HumanLike>('human');
type Tf = Record<string, (...a: unknown[]) => TensorLike> & { dispose(t: unknown): void };
const tf = human.tf as unknown as Tf;
const model = await humanModel(human, 'rvm.json');
let t = performance.now();
const bytes = rvmToOnnx(await readTfGraph(rvmModelJson()));
const convertMs = performance.now() - t;
t = performance.now();
const net = await openLocalOnnx(bytes, threads);
console.log(`load ${load()}; graph read and conversion ${convertMs.toFixed(0)} ms, session open ${(performance.now() - t).toFixed(0)} ms (wall, once)`);
console.log(['WxH', 'tfjs CPU ms', 'onnx CPU ms', 'CPU ratio', 'tfjs ms', 'onnx ms', 'max |alpha diff|'].join('\t'));

const photo = path.join(root, 'engine/test/fixtures/obama_official_portrait.jpg');
for (const [w, h] of sizes) {
  const src = Float32Array.from(await sharp(photo).removeAlpha().resize(w, h, { fit: 'fill' }).raw().toBuffer(), (v) => v / 255);
  const T = { tfCpu: [] as number[], onCpu: [] as number[], tfMs: [] as number[], onMs: [] as number[] };
  let diff = 0;
  // Run 0 warms both up (the wasm kernels, the session's first run at this size) and is not counted.
  for (let r = 0; r <= runs; r++) {
    let c = cpu(), t0 = performance.now();
    const ins: Record<string, TensorLike> = { src: tf.tensor4d(src, [1, h, w, 3], 'float32'), downsample_ratio: tf.scalar(0.5) };
    for (const k of ['r1i', 'r2i', 'r3i', 'r4i']) ins[k] = tf.scalar(0);
    const out = await model.executeAsync(ins, ['pha', 'r1o', 'r2o', 'r3o', 'r4o']) as TensorLike[];
    const want = await out[0].data();
    tf.dispose([...Object.values(ins), ...out]);
    if (r) { T.tfCpu.push(cpu() - c); T.tfMs.push(performance.now() - t0); }
    c = cpu(); t0 = performance.now();
    const got = (await net.run({ [RVM_ONNX_INPUT]: { data: src, dims: [1, h, w, 3] } }, [RVM_ONNX_OUTPUT]))[RVM_ONNX_OUTPUT].data;
    if (r) { T.onCpu.push(cpu() - c); T.onMs.push(performance.now() - t0); }
    for (let i = 0; i < got.length; i++) diff = Math.max(diff, Math.abs(got[i] - want[i]));
  }
  const [a, b] = [median(T.tfCpu), median(T.onCpu)];
  console.log([`${w}x${h}`, a.toFixed(0), b.toFixed(0), (a / b).toFixed(1), median(T.tfMs).toFixed(0), median(T.onMs).toFixed(0), diff.toExponential(1)].join('\t'));
}
console.log(`load ${load()}`);
