/**
 * The skin analysis' full answers over HTTP on the benchmark's two 2 MP photos, written as JSON (maps as
 * decoded-pixel hashes beside their byte lengths), for diffing before and after a speed change.
 *
 *   tsx scripts/dump-skin-analysis.ts OUT_DIR
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { skinMaps } from '../contract/endpoints/skin-analysis-advanced.ts';
import { form, post, startTestEngine, waitReady } from '../engine/test/helpers.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const out = process.argv[2];
mkdirSync(out, { recursive: true });
const photos: { name: string; jpeg: Buffer }[] = [
  { name: 'obama', jpeg: await sharp(path.join(root, 'engine/test/fixtures/obama_official_portrait.jpg')).resize(1274, 1592).jpeg({ quality: 92 }).toBuffer() },
];
const headscarf = path.join(testdata, 'portraits/woman_headscarf_eyes_that_speak.jpg');
if (existsSync(headscarf)) photos.push({ name: 'headscarf', jpeg: await sharp(headscarf).resize(1638, 1229).jpeg({ quality: 92 }).toBuffer() });
const e = await startTestEngine();
await waitReady(e);
for (const p of photos) {
  const r = await post(e, '/api/portrait/analysis/skin-analysis-advanced', form({ image: p.jpeg, return_maps: skinMaps.join(','), return_rect_confidence: '1' }));
  const body = r.body as { face_maps?: Record<string, string>; request_id?: string; time_used?: number };
  const maps: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body.face_maps ?? {})) {
    const { data, info } = await sharp(Buffer.from(v, 'base64')).raw().toBuffer({ resolveWithObject: true });
    maps[k] = { bytes: v.length, size: `${info.width}x${info.height}`, pixels: createHash('sha1').update(data).digest('hex') };
    writeFileSync(path.join(out, `${p.name}-${k}.jpg`), Buffer.from(v, 'base64'));
  }
  delete body.request_id; delete (body as { log_id?: string }).log_id; delete body.time_used;
  writeFileSync(path.join(out, `${p.name}.json`), JSON.stringify({ ...body, face_maps: maps }, null, 1));
  console.log(p.name, r.status);
}
await e.close();
process.exit(0);
