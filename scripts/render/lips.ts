/**
 * Before/after contact sheets of the lip effects on the shared portraits, one PNG per photo under
 * /tmp/lips-sheets (or the folder given): the whole photo before and after lips-color-changer (three
 * colours on up to three faces), then a mouth close-up of every face: before, each colour, and the red gloss.
 *
 *   npm run render:lips -- [out-folder] [only files whose path contains this]
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp, { type OverlayOptions } from 'sharp';
import {
  detectFaces, lipsColorEffect as lips, ModelRegistry, type RasterImage, redLipGlossEffect as gloss, runEffect
} from '../../engine/for-scripts.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
if (!existsSync(path.join(testdata, 'portraits'))) {
  console.error(`render-lips: the shared test data is absent (looked in ${testdata}); nothing was rendered.`);
  process.exit(2);
}
const out = process.argv[2] ?? '/tmp/lips-sheets';
/** Optional: only files whose path contains this. */
const only = process.argv[3];
mkdirSync(out, { recursive: true });
export const COLOURS = [[200, 20, 60], [150, 40, 120], [235, 120, 110]] as const;

const models = new ModelRegistry({ threads: 2 });
const kit = { models, signal: new AbortController().signal };
const raw = async (bytes: Buffer): Promise<RasterImage> => {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 };
};
const png = (img: RasterImage) => sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } });

const files = [...readdirSync(path.join(testdata, 'portraits')).map((f) => `portraits/${f}`), ...readdirSync(path.join(testdata, 'landmarks')).filter((f) => /\.(jpg|png)$/.test(f)).map((f) => `landmarks/${f}`)];
for (const rel of files.filter((f) => !only || f.includes(only))) {
  const { data, info } = await sharp(path.join(testdata, rel)).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const image: RasterImage = { data, width: info.width, height: info.height, channels: 3 };
  const faces = (await detectFaces(await models.get('human'), image)).slice(0, 3);
  if (!faces.length) { console.log(`${rel}: no face`); continue; }
  const rect = (i: number) => ({ x: faces[i].box.x0, y: faces[i].box.y0, width: faces[i].box.w, height: faces[i].box.h });
  const mixed = faces.map((_, i) => ({ rgba: { r: COLOURS[i][0], g: COLOURS[i][1], b: COLOURS[i][2], a: 100 }, face_rect: rect(i) }));
  const runs = [
    await runEffect(lips, { image, params: { lip_color_infos: mixed } }, kit),
    ...await Promise.all([0, 1, 2].map(async (k) => {
      const infos = faces.map((_, i) => ({ rgba: { r: COLOURS[k][0], g: COLOURS[k][1], b: COLOURS[k][2], a: 100 }, face_rect: rect(i) }));
      return runEffect(lips, { image, params: { lip_color_infos: infos } }, kit);
    })),
    await runEffect(gloss, { image, params: {} }, kit),
  ];
  const after = await Promise.all(runs.map((r) => raw(r.images.result.data)));
  const W = 600, tiles: OverlayOptions[] = [];
  const fullH = Math.round((W * image.height) / image.width);
  tiles.push({ input: await png(image).resize(W).png().toBuffer(), left: 0, top: 0 });
  tiles.push({ input: await png(after[0]).resize(W).png().toBuffer(), left: W + 10, top: 0 });
  const Z = 240;
  let top = fullH + 10;
  for (const f of faces) {
    const m = f.mesh;
    if (!m) continue;
    const cx = (m[61][0] + m[291][0]) / 2, cy = (m[13][1] + m[14][1]) / 2;
    const half = Math.max(12, Math.round(0.6 * Math.hypot(m[291][0] - m[61][0], m[291][1] - m[61][1])));
    const box = { left: Math.max(0, Math.round(cx - half)), top: Math.max(0, Math.round(cy - half * 0.75)) };
    const ext = { ...box, width: Math.min(image.width - box.left, 2 * half), height: Math.min(image.height - box.top, Math.round(1.5 * half)) };
    const zh = Math.round((Z * ext.height) / ext.width);
    const views = [image, after[1], after[2], after[3], after[4]];
    for (let k = 0; k < views.length; k++) {
      tiles.push({ input: await png(views[k]).extract(ext).resize(Z, zh, { kernel: 'nearest' }).png().toBuffer(), left: k * (Z + 4), top });
    }
    top += zh + 6;
  }
  const sheet = await sharp({ create: { width: Math.max(2 * W + 10, 5 * (Z + 4)), height: top, channels: 3, background: '#333' } }).composite(tiles).png().toBuffer();
  const name = rel.replace(/[/.]/g, '_') + '.png';
  await sharp(sheet).toFile(path.join(out, name));
  console.log(`${rel}: ${faces.length} face(s) → ${name}`);
}
