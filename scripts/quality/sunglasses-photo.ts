/**
 * Makes engine/test/fixtures/senior_white_hair_sunglasses_02.jpg (read by the face analyzer's glasses test):
 * exemplars/senior_white_hair_glasses_02.jpg (CC0, clear glasses) with its lenses made dark, as a sunglass
 * lens is: every pixel the face parser calls glasses at 50 % or more, filled in between the frame's rims
 * (the parser's glasses class covers the lens area of this photo) and its light multiplied by 0.12 with a
 * slight brown tint, edges softened over 1.5 px. The clear original is copied beside it.
 *
 *   npx tsx scripts/quality/sunglasses-photo.ts     (exits 2 when ../shared/testdata is absent)
 */
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { decodeImage, detectFaces, type FaceParser, ModelRegistry, parseFace } from '../../engine/for-scripts.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const SOURCE = 'exemplars/senior_white_hair_glasses_02.jpg';
if (!existsSync(path.join(testdata, SOURCE))) {
  console.error(`sunglasses-photo: the shared test data is absent (looked in ${testdata}); nothing was made.`);
  process.exit(2);
}
const fixtures = path.join(root, 'engine/test/fixtures');
const models = new ModelRegistry({ threads: 2 });
const image = await decodeImage(readFileSync(path.join(testdata, SOURCE)), 'jpeg', 1e8);
const [face] = await detectFaces(await models.get('human'), image);
if (!face?.mesh) throw new Error(`${SOURCE}: no face with a mesh`);
const parsing = await parseFace(await models.get<FaceParser>('bisenet-face-parsing'), image, face, { classes: ['glasses'] });
const glasses = parsing.classes.glasses;
if (!glasses) throw new Error(`${SOURCE}: the parser saw no glasses`);
const { width, height, channels } = image;
const mask = Buffer.alloc(width * height);
const { x0, y0, w, h } = parsing.win;
for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (glasses[y * w + x] >= 128) mask[(y0 + y) * width + x0 + x] = 255;
// Between the rims: per row, every pixel between two glasses pixels close together (gaps in the parser's lens, not the bridge's)
const lens = Math.round(0.06 * Math.hypot(face.mesh[454][0] - face.mesh[234][0], face.mesh[454][1] - face.mesh[234][1]));
for (let y = 0; y < height; y++) {
  let last = -1;
  for (let x = 0; x < width; x++) {
    if (mask[y * width + x] !== 255) continue;
    if (last >= 0 && x - last > 1 && x - last <= lens) for (let k = last + 1; k < x; k++) mask[y * width + k] = 255;
    last = x;
  }
}
// One channel out (sharp would widen a blurred grey plane to three).
const soft = await sharp(mask, { raw: { width, height, channels: 1 } }).blur(1.5).extractChannel(0).raw().toBuffer();
const out = Buffer.from(image.data);
const tint = [1.1, 1.0, 0.85];
for (let i = 0; i < width * height; i++) {
  const a = soft[i] / 255;
  if (a === 0) continue;
  for (let c = 0; c < 3; c++) out[i * channels + c] = Math.round(image.data[i * channels + c] * (1 - a + a * 0.12 * tint[c]));
}
await sharp(out, { raw: { width, height, channels } }).jpeg({ quality: 92 }).toFile(path.join(fixtures, 'senior_white_hair_sunglasses_02.jpg'));
copyFileSync(path.join(testdata, SOURCE), path.join(fixtures, 'senior_white_hair_glasses_02.jpg'));
console.log(`wrote ${path.join(fixtures, 'senior_white_hair_sunglasses_02.jpg')} and the clear original beside it`);
process.exit(0);
