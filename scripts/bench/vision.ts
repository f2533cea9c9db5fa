/**
 * Speed of our face pipeline against a bare human.detect() with the same models (blazeface, facemesh,
 * iris; nothing else) on the same images: one warm-up, then the median of a few interleaved runs each, in
 * ms, and the ratio. Also the person matte and body keypoints, for reference.
 *
 *   npx tsx scripts/bench/vision.ts [runs=5]
 */
import path from 'node:path';
import { readdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import {
  bodyKeypoints, detectFaces, faceConfig, type HumanLike, ModelRegistry, personMatte, type RasterImage
} from '../../engine/for-scripts.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const runs = Number(process.argv[2] ?? 5);

const files = [path.join(root, 'engine/test/fixtures/obama_official_portrait.jpg'), path.join(root, 'engine/test/fixtures/astronaut_eileen_collins.png')];
if (existsSync(path.join(testdata, 'portraits'))) {
  for (const f of ['group3_voc_2008_001322.jpg', 'group7_family_voc_2007_007763.jpg', 'two_men_glasses_jobs_gates.jpg', 'biden_obama_laughing_whitehouse.jpg', 'woman_speaker_rania_wef.jpg']) {
    if (readdirSync(path.join(testdata, 'portraits')).includes(f)) files.push(path.join(testdata, 'portraits', f));
  }
} else console.log(`(no ${testdata}: only the fixtures are timed)`);

const median = async (f: () => Promise<unknown>) => {
  await f();
  const t: number[] = [];
  for (let i = 0; i < runs; i++) { const t0 = performance.now(); await f(); t.push(performance.now() - t0); }
  return t.sort((a, b) => a - b)[runs >> 1];
};

const models = new ModelRegistry();
const human = await models.get<HumanLike>('human');
// The bare call: Human's own face pipeline with the same three models, no caching between calls.
const bare = { face: { ...faceConfig, detector: { ...faceConfig.detector, rotation: false } }, body: { enabled: false }, hand: { enabled: false }, object: { enabled: false }, segmentation: { enabled: false }, gesture: { enabled: false } };
console.log(['image', 'ours ms', 'human.detect ms', 'ratio', 'faces ours/human', 'person ms', 'keypoints ms'].join('\t'));
let sumOurs = 0, sumBare = 0;
for (const file of files) {
  const { data, info } = await sharp(file).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const image: RasterImage = { data, width: info.width, height: info.height, channels: 3 };
  let ours = 0, theirs = 0;
  const runOurs = async () => { ours = (await detectFaces(human, image)).length; };
  const runBare = async () => {
    const input = human.tf.tensor4d(new Uint8Array(data.buffer, data.byteOffset, data.length), [1, info.height, info.width, 3], 'int32');
    try { theirs = (await human.detect(input, bare)).face.length; } finally { input.dispose(); }
  };
  // Interleaved, so both see the same load on a shared machine.
  await runOurs(); await runBare();
  const a: number[] = [], b: number[] = [];
  for (let i = 0; i < runs; i++) {
    let t0 = performance.now(); await runOurs(); a.push(performance.now() - t0);
    t0 = performance.now(); await runBare(); b.push(performance.now() - t0);
  }
  const mid = (v: number[]) => v.sort((x, y) => x - y)[v.length >> 1];
  const tOurs = mid(a), tBare = mid(b);
  const tPerson = await median(() => personMatte(models, { ...image, data: Buffer.from(data) }));
  const tKeys = await median(() => bodyKeypoints(models, image));
  sumOurs += tOurs; sumBare += tBare;
  console.log([path.basename(file), tOurs.toFixed(0), tBare.toFixed(0), (tOurs / tBare).toFixed(2), `${ours}/${theirs}`, tPerson.toFixed(0), tKeys.toFixed(0)].join('\t'));
}
console.log(`total\t${sumOurs.toFixed(0)}\t${sumBare.toFixed(0)}\t${(sumOurs / sumBare).toFixed(2)}`);
