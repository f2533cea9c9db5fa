/**
 * Calibrates the int8 face parser (engine/vision/models/onnx-qdq.ts): runs the float BiSeNetV2 at 512 px with every
 * tensor the int8 network quantises as an output, on the faces of the fit half of the shared photos (portraits and
 * UTKFace chips, split by file name as scripts/datasets/face-parts-data.ts; every other photo, up to three meshed
 * faces each, cut as the parser cuts them), and writes each tensor's [min, max] to
 * engine/vision/models/bisenet-int8-ranges.ts. No check-half photo is read.
 *
 *   npx tsx scripts/train/bisenet-ranges.ts
 */
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import {
  BISENET_ONNX_INPUT, BISENET_ONNX_LOGITS, bisenetOnnxBytes, cropRoiPixels, detectFaces, type HumanLike, ModelRegistry, parsingRoi
} from '../../engine/for-scripts.ts';
import { half, loadImage } from '../datasets/face-parts-data.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const SIDE = 512;
const list = (dir: string) => readdirSync(path.join(testdata, dir)).filter((f) => /\.(jpe?g|png)$/i.test(f)).sort().map((f) => `${dir}/${f}`);
const fit = [...list('portraits'), ...list('faces_age_gender')].filter((rel) => half(rel) === 'fit').filter((_, i) => i % 2 === 0);

const session = await ort.InferenceSession.create(await bisenetOnnxBytes(SIDE, { probe: true }), { intraOpNumThreads: 2, graphOptimizationLevel: 'all' });
const names = session.outputNames.filter((n) => n !== BISENET_ONNX_LOGITS);
const ranges: Record<string, [number, number]> = Object.fromEntries(names.map((n) => [n, [Infinity, -Infinity]]));
const human = await new ModelRegistry().get<HumanLike>('human');
let faces = 0;
for (const rel of fit) {
  const image = await loadImage(testdata, rel);
  for (const face of (await detectFaces(human, image)).filter((f) => f.mesh).slice(0, 3)) {
    const input = new ort.Tensor('float32', cropRoiPixels(image, parsingRoi(face), SIDE, false, 127.5), [1, SIDE, SIDE, 3]);
    const out = await session.run({ [BISENET_ONNX_INPUT]: input }, names);
    for (const n of names) {
      const d = out[n].data as Float32Array, r = ranges[n];
      for (let i = 0; i < d.length; i++) { const v = d[i]; if (v < r[0]) r[0] = v; if (v > r[1]) r[1] = v; }
    }
    faces++;
  }
}
const fmt = (v: number) => Number(v.toPrecision(6));
const body = names.map((n) => `  ${JSON.stringify(n)}: [${fmt(ranges[n][0])}, ${fmt(ranges[n][1])}],`).join('\n');
writeFileSync(path.join(root, 'engine/vision/models/bisenet-int8-ranges.ts'), `/**
 * The int8 face parser's activation ranges (onnx-qdq.ts): each quantised tensor's [min, max] over ${faces} faces of the
 * fit half of the shared photos, the float network at ${SIDE} px. Written by scripts/train/bisenet-ranges.ts; do not edit.
 */
export const INT8_RANGES: Record<string, [number, number]> = {
${body}
};
`);
console.log(`${names.length} tensors, ${faces} faces of ${fit.length} fit-half photos`);
process.exit(0);
