/**
 * A gallery of what the vision core finds on the shared test photos, for people to look at: per photo
 * one PNG with two panels (left: faces, mesh, body keypoints, person matte in blue, hair in magenta;
 * right: face regions in colours) and an index.html.
 *
 *   npx tsx scripts/render/vision-gallery.ts [out-folder=/tmp/vision-gallery] [folder ...]
 *
 * Reads ../shared/testdata from the repository root (ATELIER_TESTDATA overrides).
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import {
  bodyKeypoints, detectFaces, faceRegions, hairMask, type Mask, ModelRegistry, personMatte, type RasterImage,
  type RegionName, renderDebug
} from '../../engine/for-scripts.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const args = process.argv.slice(2);
const out = args[0] && !args[0].match(/^[a-z_]+$/) ? args.shift()! : '/tmp/vision-gallery';
const folders = args.length ? args : ['portraits', 'products', 'apparel', 'landmarks', 'segmentation', 'matting'];

const COLORS: [RegionName, [number, number, number]][] = [
  ['upperLip', [255, 0, 0]], ['lowerLip', [255, 0, 160]], ['mouthOpening', [0, 255, 255]], ['leftEye', [0, 0, 255]], ['rightEye', [0, 0, 255]],
  ['leftIris', [0, 255, 0]], ['rightIris', [0, 255, 0]], ['leftPupil', [255, 255, 0]], ['rightPupil', [255, 255, 0]], ['leftBrow', [255, 128, 0]],
  ['rightBrow', [255, 128, 0]], ['forehead', [200, 0, 0]], ['leftCheek', [0, 200, 0]], ['rightCheek', [0, 120, 255]], ['nose', [255, 230, 0]],
  ['chin', [220, 0, 220]], ['leftUnderEye', [0, 220, 220]], ['rightUnderEye', [0, 220, 220]],
];

async function main() {
  if (!existsSync(testdata)) {
    console.log(`No test photos: ${testdata} does not exist (set ATELIER_TESTDATA to the shared testdata folder).`);
    return;
  }
  mkdirSync(out, { recursive: true });
  const models = new ModelRegistry();
  const human = await models.get('human');
  const items: string[] = [];
  for (const folder of folders) {
    const dir = path.join(testdata, folder);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      if (!/\.(jpe?g|png)$/i.test(name) || /_(labels|mask|alpha|garments)\.png$/.test(name)) continue;
      const { data, info } = await sharp(path.join(dir, name)).rotate().raw().toBuffer({ resolveWithObject: true });
      const image: RasterImage = { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 };
      const t0 = performance.now();
      const faces = await detectFaces(human, image, { searchRotations: true });
      const person = await personMatte(models, image);
      const hair = await hairMask(models, image, faces);
      const keypoints = await bodyKeypoints(models, image);
      const regions = faces.filter((f) => f.mesh).map((f) => faceRegions(f, image, image, COLORS.map(([n]) => n)));
      const ms = performance.now() - t0;
      const left = await renderDebug(image, { faces, keypoints, masks: [{ mask: person, color: [0, 110, 255] }, { mask: hair, color: [255, 0, 200] }] });
      const right = await renderDebug(image, { masks: regions.flatMap((r) => COLORS.map(([n, color]) => ({ mask: r[n] as Mask, color }))) });
      const h = Math.min(720, image.height);
      const [a, b] = await Promise.all([left, right].map((p) => sharp(p).resize({ height: h }).toBuffer({ resolveWithObject: true })));
      const file = `${folder}__${name.replace(/\.\w+$/, '')}.png`;
      await sharp({ create: { width: a.info.width + b.info.width + 8, height: h, channels: 3, background: '#ffffff' } })
        .composite([{ input: a.data, left: 0, top: 0 }, { input: b.data, left: a.info.width + 8, top: 0 }]).png().toFile(path.join(out, file));
      items.push(`<figure><img src="${file}" loading="lazy"><figcaption>${folder}/${name}: ${faces.length} face(s), ${ms.toFixed(0)} ms</figcaption></figure>`);
      console.log(`${folder}/${name}\t${faces.length} faces\t${ms.toFixed(0)} ms`);
    }
  }
  writeFileSync(path.join(out, 'index.html'), `<!doctype html><meta charset="utf-8"><title>vision gallery</title><style>body{font:14px sans-serif}img{max-width:100%}figure{margin:0 0 24px}</style>${items.join('\n')}`);
  console.log(`${items.length} photos -> ${out}/index.html`);
}

await main();
