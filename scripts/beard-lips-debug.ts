/**
 * Debug render of beard removal around the mouth and jaw: per face, the lower face before | after | after
 * with the mesh's lip contours (outer yellow, inner cyan) and face outline (magenta) drawn, nearest-neighbour
 * zoomed so single pixels show.
 *
 *   [CROP=0.8] [RT='{...}'] npx tsx scripts/beard-lips-debug.ts OUT_DIR REL [REL ...]   (CROP: crop side in face widths; RT: removalTuning overrides)
 */
import path from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';
import { effectModules } from '../engine/effects/registry.ts';
import type { RasterImage } from '../engine/image/raster.ts';
import { removalTuning } from '../engine/looks/beard/removal.ts';
import type { Effect } from '../engine/pipeline/effect.ts';
import { jobFacts } from '../engine/pipeline/facts.ts';
import { runEffect } from '../engine/pipeline/run.ts';
import { FACE_OVAL, LIPS_LOWER_INNER, LIPS_LOWER_OUTER, LIPS_UPPER_INNER, LIPS_UPPER_OUTER } from '../engine/vision/faces/landmarks.ts';
import { ModelRegistry } from '../engine/vision/models/registry.ts';
import { meshFaceWidth } from '../engine/vision/regions/skin-mask.ts';

const [out, ...rels] = process.argv.slice(2);
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(import.meta.dirname, '../../shared/testdata');
Object.assign(removalTuning, JSON.parse(process.env.RT ?? '{}'));
const models = new ModelRegistry({ threads: 2 });
const effect = (await import(effectModules['ai-beard-removal'])).default as Effect;
const Z = 420;
for (const rel of rels) {
  const { data, info } = await sharp(path.join(testdata, rel)).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const img: RasterImage = { data, width: info.width, height: info.height, channels: 3 };
  const res = await runEffect(effect, { image: img, params: {} }, { models, signal: new AbortController().signal });
  const after = await sharp(res.images.result.data).removeAlpha().png().toBuffer();
  const faces = (await jobFacts(img, models).faces()).slice(0, 5).filter((f) => f.mesh);
  const comp: OverlayOptions[] = [];
  for (const [row, face] of faces.entries()) {
    const m = face.mesh!, fw = meshFaceWidth(m);
    const s = Math.max(8, Math.min(img.width, img.height, Math.round(Number(process.env.CROP ?? 0.8) * fw)));
    const left = Math.max(0, Math.min(img.width - s, Math.round(m[17][0] - s / 2))), top = Math.max(0, Math.min(img.height - s, Math.round(m[17][1] + 0.08 * fw - s / 2)));
    const box = { left, top, width: s, height: s };
    const k = Z / s;
    const poly = (idx: readonly number[], colour: string, closed = true) => `<polyline fill="none" stroke="${colour}" stroke-width="1.5" points="${[...idx, ...(closed ? [idx[0]] : [])].map((i) => `${((m[i][0] - left) * k).toFixed(1)},${((m[i][1] - top) * k).toFixed(1)}`).join(' ')}"/>`;
    const svg = Buffer.from(`<svg width="${Z}" height="${Z}">${poly([...LIPS_UPPER_OUTER, ...[...LIPS_LOWER_OUTER].reverse()], '#ff0')}${poly([...LIPS_UPPER_INNER, ...[...LIPS_LOWER_INNER].reverse()], '#0ff')}${poly(FACE_OVAL, '#f0f')}</svg>`);
    const b = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } }).extract(box).resize(Z, Z, { kernel: 'nearest' }).png().toBuffer();
    const a = await sharp(after).extract(box).resize(Z, Z, { kernel: 'nearest' }).png().toBuffer();
    comp.push({ input: b, left: 0, top: row * Z }, { input: a, left: Z, top: row * Z }, { input: a, left: 2 * Z, top: row * Z }, { input: svg, left: 2 * Z, top: row * Z });
    console.log(rel, 'face', row, 'fw', fw.toFixed(0));
  }
  const file = path.join(out, `${path.basename(rel).replace(/\./g, '_')}.png`);
  await sharp({ create: { width: 3 * Z, height: Math.max(1, faces.length) * Z, channels: 3, background: '#202020' } }).composite(comp).png().toFile(file);
  console.log(file);
}
