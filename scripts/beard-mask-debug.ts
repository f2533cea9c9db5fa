/**
 * Debug render of the beard mask on a few photos: per face, the lower face and the mask's planes (zone,
 * texture, dark, grey, parser hair, pooled evidence, beard, fill sources) side by side, one row a face.
 *
 *   npx tsx scripts/beard-mask-debug.ts OUT_DIR REL [REL ...]
 */
import path from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';
import type { RasterImage } from '../engine/image/raster.ts';
import { jobFacts } from '../engine/pipeline/facts.ts';
import { ModelRegistry } from '../engine/vision/models/registry.ts';
import { BEARD_PARSING, BEARD_REGIONS, beardMask, beardTuning } from '../engine/looks/beard/mask.ts';

const [out, ...rels] = process.argv.slice(2);
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(import.meta.dirname, '../../shared/testdata');
Object.assign(beardTuning, JSON.parse(process.env.BT ?? '{}'));
const models = new ModelRegistry({ threads: 2 });
const T = 260, COLS = 6;
for (const rel of rels) {
  const { data, info } = await sharp(path.join(testdata, rel)).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const img: RasterImage = { data, width: info.width, height: info.height, channels: 3 };
  const facts = jobFacts(img, models);
  const faces = (await facts.faces()).slice(0, 5).filter((f) => f.mesh);
  const comp: OverlayOptions[] = [];
  let row = 0;
  for (const face of faces) {
    const m = beardMask(img, face, await facts.parsing(face, BEARD_PARSING), facts.regions(face, BEARD_REGIONS));
    if (!m) continue;
    const { win } = m;
    const photo = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } }).extract({ left: win.x0, top: win.y0, width: win.w, height: win.h }).resize(T, T, { fit: 'fill' }).png().toBuffer();
    comp.push({ input: photo, left: 0, top: row * 2 * T });
    const planes: Float32Array[] = [m.zone, m.evidence.texture, m.evidence.dark, m.evidence.grey, m.evidence.hair, m.evidence.pooled, m.beard, m.skin, m.evidence.pixel];
    for (const [k, p] of planes.entries()) {
      const g = Buffer.alloc(p.length);
      for (let i = 0; i < p.length; i++) g[i] = Math.max(0, Math.min(255, Math.round(255 * p[i])));
      comp.push({ input: await sharp(g, { raw: { width: win.w, height: win.h, channels: 1 } }).resize(T, T, { fit: 'fill' }).png().toBuffer(), left: ((k + 1) % COLS) * T, top: (row * 2 + Math.floor((k + 1) / COLS)) * T });
    }
    console.log(rel, 'face', row, 'coverage', m.coverage.toFixed(3), 'hidden', m.hidden.toFixed(2), m.dense ? 'dense' : '', 'fw', m.faceWidth.toFixed(0));
    row++;
  }
  if (!row) continue;
  await sharp({ create: { width: COLS * T, height: row * 2 * T, channels: 3, background: '#303' } }).composite(comp).png().toFile(path.join(out, `${path.basename(rel)}.png`));
}
