/**
 * The hand mask alone (engine/vision/regions/hands.ts), no effect: on the occluded photos the share of each
 * outlined occluder it covers (recall) and the share of the mask outside the outline, on every photo (the
 * shared exemplars too, where nothing covers the face) the share of the mesh oval it marks that no outline
 * explains (a face part an effect would leave unedited), and the time of the hand search per face.
 *
 *   npx tsx scripts/quality/hand-mask.ts [occ]     (occ: the occluded photos only)
 *   OUT=DIR ...                                    (the mask over each photo with a hand, green; the outline red)
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { decodeImage, detectFaces, faceRegions, handPlane, handsAtFace, type HumanLike, ModelRegistry } from '../../engine/for-scripts.ts';
const models = new ModelRegistry({ threads: 2 });
const human = await models.get<HumanLike>('human');
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const occ = path.join(root, 'engine/test/fixtures/occluded');
const shared = path.resolve(root, '../shared/testdata');
const only = process.argv[2];
const files = [
  ...readdirSync(occ).filter((f) => f.endsWith('.jpg')).sort().map((f) => path.join(occ, f)),
  ...(only === 'occ' ? [] : readdirSync(path.join(shared, 'exemplars')).filter((f) => /\.(jpg|png)$/.test(f)).sort().map((f) => path.join(shared, 'exemplars', f))),
];
for (const file of files) {
  const image = await decodeImage(readFileSync(file), file.endsWith('png') ? 'png' : 'jpeg', 50e6);
  const f = (await detectFaces(human, image))[0];
  if (!f?.mesh) { console.log(path.basename(file), 'noface'); continue; }
  const m = f.mesh, fw = Math.hypot(m[454][0] - m[234][0], m[454][1] - m[234][1]);
  const t0 = performance.now();
  const hands = await handsAtFace(human, image, f);
  const ms = performance.now() - t0;
  const win = { x0: 0, y0: 0, w: image.width, h: image.height };
  const { plane } = handPlane(hands, win, fw);
  const oval = faceRegions(f, image, image, ['faceOval']).faceOval!.data;
  let outline: Uint8Array | undefined;
  const mp = file.replace(/\.jpg$/, '.mask.png');
  if (file.startsWith(occ)) outline = Uint8Array.from(await sharp(mp).extractChannel(0).raw().toBuffer(), (v) => (v >= 128 ? 1 : 0));
  let occN = 0, occHit = 0, ovalN = 0, ovalFalse = 0, maskN = 0, maskFalse = 0;
  for (let i = 0; i < plane.length; i++) {
    const o = outline ? outline[i] : 0;
    if (o) { occN++; if (plane[i]) occHit++; }
    if (plane[i]) { maskN++; if (!o) maskFalse++; }
    if (oval[i] > 127 && !o) { ovalN++; if (plane[i]) ovalFalse++; }
  }
  console.log(path.basename(file).padEnd(48), `hands ${hands.map((h) => h.score.toFixed(2)).join(',') || '-'}`, `recall ${(100 * occHit / Math.max(1, occN)).toFixed(1)}%`,
    `mask-outside-outline ${(100 * maskFalse / Math.max(1, maskN)).toFixed(1)}%`, `oval-false ${(100 * ovalFalse / Math.max(1, ovalN)).toFixed(2)}%`, `${ms.toFixed(0)}ms`);
  if (process.env.OUT && hands.length) {
    const rgb = Buffer.alloc(image.width * image.height * 3);
    for (let i = 0; i < plane.length; i++) for (let c = 0; c < 3; c++) {
      let v = image.data[i * image.channels + c];
      if (plane[i]) v = c === 1 ? Math.min(255, v * 0.5 + 128) : v * 0.5;
      if (outline && outline[i] && c === 0) v = Math.min(255, v + 80);
      rgb[i * 3 + c] = v;
    }
    await sharp(rgb, { raw: { width: image.width, height: image.height, channels: 3 } }).png().toFile(path.join(process.env.OUT, path.basename(file).replace(/\.\w+$/, '.png')));
  }
}
