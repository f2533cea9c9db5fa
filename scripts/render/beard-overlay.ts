/**
 * The beard mask over each photo's largest faces, at 100 %: per face the lower face as sent beside the same with
 * the mask tinted red (zone outlined in blue), for judging the mask by eye.
 *
 *   [BT='{...}'] npx tsx scripts/render/beard-overlay.ts OUT_DIR REL [REL ...]
 */
import path from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';
import { BEARD_PARSING, BEARD_REGIONS, beardMask, beardTuning, jobFacts, ModelRegistry, type RasterImage } from '../../engine/for-scripts.ts';

const [out, ...rels] = process.argv.slice(2);
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(import.meta.dirname, '../../../shared/testdata');
Object.assign(beardTuning, JSON.parse(process.env.BT ?? '{}'));
const models = new ModelRegistry({ threads: 2 });
for (const rel of rels) {
  const { data, info } = await sharp(path.join(testdata, rel)).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const img: RasterImage = { data, width: info.width, height: info.height, channels: 3 };
  const facts = jobFacts(img, models);
  const faces = (await facts.faces()).slice(0, 3).filter((f) => f.mesh);
  for (const [k, face] of faces.entries()) {
    const m = beardMask(img, face, await facts.parsing(face, BEARD_PARSING), facts.regions(face, BEARD_REGIONS));
    if (!m) continue;
    const { win } = m;
    const crop = { left: win.x0, top: win.y0 + Math.round(win.h * 0.35), width: win.w, height: win.h - Math.round(win.h * 0.35) };
    const tint = Buffer.alloc(crop.width * crop.height * 3);
    for (let y = 0; y < crop.height; y++) for (let x = 0; x < crop.width; x++) {
      const i = (crop.top - win.y0 + y) * win.w + x, s = ((crop.top + y) * img.width + crop.left + x) * 3, o = (y * crop.width + x) * 3;
      const b = m.beard[i], zEdge = m.zone[i] > 0.5 && (m.zone[i - 1] <= 0.5 || m.zone[i + 1] <= 0.5 || m.zone[i - win.w] <= 0.5 || m.zone[i + win.w] <= 0.5);
      tint[o] = Math.round(img.data[s] * (1 - 0.6 * b) + 255 * 0.6 * b);
      tint[o + 1] = Math.round(img.data[s + 1] * (1 - 0.6 * b));
      tint[o + 2] = zEdge ? 255 : Math.round(img.data[s + 2] * (1 - 0.6 * b));
    }
    const comp: OverlayOptions[] = [
      { input: await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } }).extract(crop).png().toBuffer(), left: 0, top: 0 },
      { input: await sharp(tint, { raw: { width: crop.width, height: crop.height, channels: 3 } }).png().toBuffer(), left: crop.width + 4, top: 0 },
    ];
    console.log(`${rel} face ${k} fw ${m.faceWidth.toFixed(0)} coverage ${m.coverage.toFixed(2)} dense ${m.dense} hidden ${m.hidden.toFixed(2)}`);
    await sharp({ create: { width: 2 * crop.width + 4, height: crop.height, channels: 3, background: '#202020' } }).composite(comp).png().toFile(path.join(out, `${path.basename(rel).replace(/\.\w+$/, '')}-${k}.png`));
  }
}
