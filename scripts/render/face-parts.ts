/**
 * Contact sheets of the shared test faces for by-eye labelling (scripts/datasets/face-parts-labels.json): per face
 * the crop around the head and the same with hair (red, from the hair mask), hat (blue), glasses (green)
 * and skin (yellow, faint) from the parsing. Writes /tmp/face-parts/sheet-*.png; also fills the cache
 * scripts/quality/face-parts.ts reads.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { classMask, ModelRegistry, renderDebug } from '../../engine/for-scripts.ts';
import { half, photoData, photoList } from '../datasets/face-parts-data.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const out = '/tmp/face-parts';
mkdirSync(out, { recursive: true });
const models = new ModelRegistry();
const tiles: { buf: Buffer; key: string }[] = [];
const T = 200;
for (const rel of photoList(testdata)) {
  const d = await photoData(models, testdata, rel);
  for (let i = 0; i < d.faces.length; i++) {
    const f = d.faces[i], p = d.parsings[i]!;
    const side = Math.round(Math.max(f.box.w, f.box.h) * 2.6);
    const cx = f.box.x0 + f.box.w / 2, cy = f.box.y0 + f.box.h / 2 + 0.1 * side;
    const left = Math.max(0, Math.round(cx - side / 2)), top = Math.max(0, Math.round(cy - side / 2));
    const w = Math.min(d.image.width - left, side), h = Math.min(d.image.height - top, side);
    const over = await renderDebug(d.image, { masks: [
      { mask: d.hair, color: [255, 0, 0] }, { mask: classMask(p, 'hat', d.image), color: [0, 0, 255] },
      { mask: classMask(p, 'glasses', d.image), color: [0, 255, 0] }, { mask: classMask(p, 'hair', d.image), color: [255, 0, 255] },
    ] });
    const a = await sharp(d.image.data, { raw: { width: d.image.width, height: d.image.height, channels: 3 } }).extract({ left, top, width: w, height: h }).resize(T, T, { fit: 'contain' }).png().toBuffer();
    const b = await sharp(over).extract({ left, top, width: w, height: h }).resize(T, T, { fit: 'contain' }).png().toBuffer();
    const key = `${rel}#${i}`;
    const label = Buffer.from(`<svg width="${2 * T}" height="16"><rect width="100%" height="16" fill="white"/><text x="2" y="12" font-size="11" font-family="sans-serif">${tiles.length} ${half(rel)} ${rel.split('/')[1].slice(0, 40)}#${i}</text></svg>`);
    const tile = await sharp({ create: { width: 2 * T, height: T + 16, channels: 3, background: '#fff' } })
      .composite([{ input: a, left: 0, top: 16 }, { input: b, left: T, top: 16 }, { input: label, left: 0, top: 0 }]).png().toBuffer();
    tiles.push({ buf: tile, key });
  }
}
const per = 12, cols = 3;
for (let s = 0; s * per < tiles.length; s++) {
  const part = tiles.slice(s * per, (s + 1) * per);
  const sheet = await sharp({ create: { width: cols * 2 * T, height: Math.ceil(part.length / cols) * (T + 16), channels: 3, background: '#fff' } })
    .composite(part.map((t, j) => ({ input: t.buf, left: (j % cols) * 2 * T, top: Math.floor(j / cols) * (T + 16) }))).png().toBuffer();
  writeFileSync(`${out}/sheet-${s}.png`, sheet);
}
writeFileSync(`${out}/keys.json`, JSON.stringify(tiles.map((t) => t.key), null, 1));
console.log(`${tiles.length} faces, ${Math.ceil(tiles.length / per)} sheets in ${out}`);
