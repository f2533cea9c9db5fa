/**
 * Memory over many runs of the face pipeline and the person matte on one portrait (sharp's test/leak
 * idea): prints RSS, heap and tfjs' live tensor count every 50 runs. Both must stay flat.
 *
 *   npx tsx scripts/bench/leak-vision.ts [runs=500] [--faces-only] [--parsing]
 *
 * --parsing adds face parsing (parseFace + combineWithMesh) to every run.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import {
  combineWithMesh, detectFaces, type FaceParser, faceRegions, type HumanLike, ModelRegistry, parseFace, personMatte
} from '../../engine/for-scripts.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const runs = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 500);
const facesOnly = process.argv.includes('--faces-only');
const parsing = process.argv.includes('--parsing');

const models = new ModelRegistry();
const human = await models.get<HumanLike>('human');
const parser = parsing ? await models.get<FaceParser>('bisenet-face-parsing') : undefined;
const { data, info } = await sharp(path.join(root, 'engine/test/fixtures/obama_official_portrait.jpg')).raw().toBuffer({ resolveWithObject: true });
const report = (i: number) => {
  const m = process.memoryUsage();
  const mb = (v: number) => (v / 2 ** 20).toFixed(1).padStart(7);
  console.log(`${String(i).padStart(5)}  rss ${mb(m.rss)} MB  heap ${mb(m.heapUsed)} MB  external ${mb(m.external)} MB  tensors ${human.tf.memory().numTensors}`);
};
console.log(`${runs} runs of detectFaces + faceRegions${parsing ? ' + parseFace + combineWithMesh' : ''}${facesOnly ? '' : ' + personMatte'} on a 910x1137 portrait`);
for (let i = 0; i <= runs; i++) {
  if (i % 50 === 0) { (globalThis as { gc?: () => void }).gc?.(); report(i); }
  if (i === runs) break;
  // A fresh image object each run, as a request would bring (and so no cached matte).
  const image = { data: Buffer.from(data), width: info.width, height: info.height, channels: 3 as const };
  const faces = await detectFaces(human, image);
  faceRegions(faces[0], image, image);
  if (parser) combineWithMesh(await parseFace(parser, image, faces[0]), faces[0], image);
  if (!facesOnly) await personMatte(models, image);
}
