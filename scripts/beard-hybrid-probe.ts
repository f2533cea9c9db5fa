/**
 * What in a drawn beard costs the face descriptor, by the quality script's own measure (retouch-identity.ts
 * engineDescriber): per photo and preset, the similarity of the edit and of hybrids that paste back the
 * shaved face (the effect's own beard removal) in one place (the moustache part, the chin below the lower
 * lip, the jaw line's band, the cheeks above the mouth corners, below the face outline), and of
 * drawing variants (the beard at half opacity; coloured a fixed dark brown). Writes a sheet of the lower
 * faces at twice their size when --sheet is given.
 *   tsx scripts/beard-hybrid-probe.ts --photos REL,REL --presets A,B [--sheet FILE]
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp, { type OverlayOptions, type Region } from 'sharp';
import { BEARD_PRESETS, type BeardPreset } from '../engine/effects/ai-beard-styling/presets.ts';
import { drawPreset } from '../engine/effects/ai-beard-styling/steps.ts';
import type { RasterImage } from '../engine/image/raster.ts';
import { ModelRegistry } from '../engine/vision/models/registry.ts';
import { faceRegions } from '../engine/vision/regions/face-regions.ts';
import { convexHull, meshFaceWidth } from '../engine/vision/regions/skin-mask.ts';
import { shavedPhoto } from './beard-probe-photo.ts';
import { engineDescriber } from './retouch-identity.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const args = process.argv.slice(2);
const opt = (n: string) => { const i = args.indexOf(n); return i >= 0 ? args[i + 1] : undefined; };
const photos = opt('--photos')!.split(','), presetNames = opt('--presets')!.split(','), sheet = opt('--sheet');
const models = new ModelRegistry({ threads: 2 });
const engine = await engineDescriber(models);

const copy = (img: RasterImage) => ({ ...img, data: Buffer.from(img.data) });
/** `img` with `base` pasted back where keep is true. */
function pasted(img: RasterImage, base: RasterImage, keep: (i: number) => boolean) {
  const o = copy(img);
  for (let i = 0; i < img.width * img.height; i++) if (keep(i)) for (let c = 0; c < 3; c++) o.data[i * 3 + c] = base.data[i * 3 + c];
  return o;
}
/** Mixed: a share `t` of the way from base to img. */
function mixed(img: RasterImage, base: RasterImage, t: number) {
  const o = copy(img);
  for (let i = 0; i < o.data.length; i++) o.data[i] = Math.round(base.data[i] + (img.data[i] - base.data[i]) * t);
  return o;
}
const tiles: { label: string; img: RasterImage; crop: Region }[][] = [];

for (const rel of photos) {
  const { image, faces, parsings, shaved } = await shavedPhoto(path.join(testdata, rel), models);
  const before = await engine.described(image);
  const W = image.width;
  const sims = async (img: RasterImage) => {
    const id = engine.compare(before, await engine.described(img));
    return `${id.sims.map((s) => s.toFixed(2)).join('/')}${id.changes.length ? ` (gender ${id.changes.map((c) => `${c.maleBefore.toFixed(2)}->${c.maleAfter.toFixed(2)}`).join(',')})` : ''}${id.found < id.total ? ' LOST' : ''}`;
  };
  // Places, per pixel, over all faces.
  const chin = new Uint8Array(W * image.height), hull = new Uint8Array(W * image.height), above = new Uint8Array(W * image.height), jaw = new Uint8Array(W * image.height);
  for (const f of faces) {
    const c = faceRegions(f, image, image, ['chin']).chin!.data;
    for (let i = 0; i < c.length; i++) if (c[i] >= 128) chin[i] = 1;
    const m = f.mesh!, fw = meshFaceWidth(m);
    const h = convexHull(m.map((q) => [q[0], q[1]] as [number, number]));
    const a = m[61], b = m[291];
    for (let y = 0; y < image.height; y++) for (let x = 0; x < W; x++) {
      if (Math.abs(x - (a[0] + b[0]) / 2) > 1.2 * fw || Math.abs(y - (a[1] + b[1]) / 2) > 1.2 * fw) continue;
      const i = y * W + x;
      // Signed distance to the hull's edge (inside positive) gives the jaw line's band (±4 % of the face).
      let inside = true, d = Infinity;
      h.forEach((p, k) => {
        const q = h[(k + 1) % h.length], ex = q[0] - p[0], ey = q[1] - p[1], L = Math.hypot(ex, ey) || 1;
        const cross = (ex * (y - p[1]) - ey * (x - p[0])) / L;
        if (cross < 0) inside = false;
        const t = Math.max(0, Math.min(1, ((x - p[0]) * ex + (y - p[1]) * ey) / (L * L)));
        d = Math.min(d, Math.hypot(x - p[0] - t * ex, y - p[1] - t * ey));
      });
      if (inside) hull[i] = 1;
      if (d < 0.04 * fw && (y - a[1]) * (b[0] - a[0]) - (x - a[0]) * (b[1] - a[1]) > 0) jaw[i] = 1;
      if ((b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]) < 0) above[i] = 1;
    }
  }
  const m0 = faces[0].mesh!, fw0 = meshFaceWidth(m0);
  const cx = (m0[61][0] + m0[291][0]) / 2, cy = (m0[61][1] + m0[291][1]) / 2;
  const side = Math.round(1.3 * fw0);
  const crop = { left: Math.max(0, Math.round(cx - side / 2)), top: Math.max(0, Math.round(cy - 0.55 * side)), width: 0, height: 0 };
  crop.width = Math.min(side, W - crop.left); crop.height = Math.min(side, image.height - crop.top);
  console.log(`\n${rel}: ${before.map((f) => `${f.gender} p(male) ${f.male.toFixed(2)}`).join('; ')}`);
  console.log(`  removal only            ${await sims(shaved)}`);
  const row = [{ label: 'before', img: image, crop }, { label: 'shaved', img: shaved, crop }];
  const draw = (name: string, on: RasterImage) => { const o = copy(on); faces.forEach((f, i) => drawPreset(on, o, f, parsings[i], name, i)); return o; };
  for (const name of presetNames) {
    const preset = BEARD_PRESETS.find((p) => p.name === name)!;
    const full = draw(name, shaved);
    console.log(`  ${name.padEnd(24)}${await sims(full)}`);
    row.push({ label: name.slice(0, 16), img: full, crop });
    if (preset.parts.length > 1) {
      for (const [k, part] of preset.parts.entries()) {
        const tmp: BeardPreset = { name: `${name}#${k}`, kind: preset.kind, parts: [part] };
        (BEARD_PRESETS as BeardPreset[]).push(tmp);
        console.log(`    only part ${k} (${part.flow})`.padEnd(26) + await sims(draw(tmp.name, shaved)));
        (BEARD_PRESETS as BeardPreset[]).pop();
      }
    }
    console.log(`    chin pasted back      ${await sims(pasted(full, shaved, (i) => chin[i] === 1))}`);
    console.log(`    jaw band pasted back  ${await sims(pasted(full, shaved, (i) => jaw[i] === 1))}`);
    console.log(`    below outline pasted  ${await sims(pasted(full, shaved, (i) => hull[i] === 0))}`);
    console.log(`    above mouth pasted    ${await sims(pasted(full, shaved, (i) => above[i] === 1))}`);
    console.log(`    half opacity          ${await sims(mixed(full, shaved, 0.5))}`);
  }
  tiles.push(row);
}

if (sheet) {
  const T = 320, cols = Math.max(...tiles.map((r) => r.length));
  const over: OverlayOptions[] = [];
  for (const [r, row] of tiles.entries()) for (const [c, t] of row.entries()) {
    over.push({ input: await sharp(t.img.data, { raw: { width: t.img.width, height: t.img.height, channels: 3 } }).extract(t.crop).resize(T, T, { fit: 'fill', kernel: 'lanczos3' }).png().toBuffer(), left: c * T, top: r * (T + 16) + 16 });
    over.push({ input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${T}" height="16"><rect width="100%" height="100%" fill="#222"/><text x="3" y="12" font-family="sans-serif" font-size="12" fill="#fff">${t.label}</text></svg>`), left: c * T, top: r * (T + 16) });
  }
  await sharp({ create: { width: cols * T, height: tiles.length * (T + 16), channels: 3, background: '#000' } }).composite(over).png().toFile(sheet);
  console.log(`sheet ${sheet}`);
}
process.exit(0);
