/**
 * Why beard styling lowers human's face-descriptor similarity: per photo and preset, the similarity of
 * variants of the edit (removal only; the preset; the preset with the lips restored; with everything above
 * the mouth corners restored; beard part only; moustache part only), the descriptor's box before / after,
 * and a contact sheet of the box crops the descriptor reads.
 *   tsx scripts/beard-identity-probe.ts --photos REL,REL --presets A,B --sheet FILE
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp, { type OverlayOptions } from 'sharp';
import { BEARD_PRESETS, type BeardPreset } from '../engine/effects/ai-beard-styling/presets.ts';
import { drawPreset } from '../engine/effects/ai-beard-styling/steps.ts';
import type { RasterImage } from '../engine/image/raster.ts';
import { ModelRegistry } from '../engine/vision/models/registry.ts';
import { convexHull, parsingPlane } from '../engine/vision/regions/skin-mask.ts';
import { shavedPhoto } from './beard-probe-photo.ts';
import { faceDescriber, type Described } from './retouch-identity.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const args = process.argv.slice(2);
const opt = (n: string) => { const i = args.indexOf(n); return i >= 0 ? args[i + 1] : undefined; };
const photos = opt('--photos')!.split(',');
const presetNames = opt('--presets')!.split(',');
const sheet = opt('--sheet');
const models = new ModelRegistry({ threads: 2 });
const { described } = await faceDescriber(models);
const human = await models.get<{ match: { similarity(a: number[], b: number[]): number } }>('human');
const sim = (a: number[], b: number[]) => human.match.similarity(a, b);
const iou = (a: number[], b: number[]) => {
  const x0 = Math.max(a[0], b[0]), y0 = Math.max(a[1], b[1]), x1 = Math.min(a[0] + a[2], b[0] + b[2]), y1 = Math.min(a[1] + a[3], b[1] + b[3]);
  const i = Math.max(0, x1 - x0) * Math.max(0, y1 - y0); return i / (a[2] * a[3] + b[2] * b[3] - i);
};
const tiles: { label: string; img: RasterImage; box: number[] }[][] = [];
const mouths: { label: string; img: RasterImage; box: number[] }[][] = [];

for (const rel of photos) {
  const { image, faces, parsings, shaved } = await shavedPhoto(path.join(testdata, rel), models);
  const before = await described(image);
  const variants = async (name: string, drawOn: RasterImage) => {
    const out = { ...drawOn, data: Buffer.from(drawOn.data) };
    faces.forEach((f, i) => drawPreset(drawOn, out, f, parsings[i], name, i));
    return out;
  };
  // Restore from `base` where keep(x, y, faceIndex) is true.
  const restored = (img: RasterImage, base: RasterImage, keep: (x: number, y: number) => boolean) => {
    const o = { ...img, data: Buffer.from(img.data) };
    for (let y = 0; y < img.height; y++) for (let x = 0; x < img.width; x++) if (keep(x, y)) for (let c = 0; c < 3; c++) o.data[(y * img.width + x) * 3 + c] = base.data[(y * img.width + x) * 3 + c];
    return o;
  };
  const lips = new Uint8Array(image.width * image.height);
  faces.forEach((f, i) => {
    const p = parsings[i];
    const pl = parsingPlane(p, ['upperLip', 'lowerLip', 'mouth'], p.win);
    for (let y = 0; y < p.win.h; y++) for (let x = 0; x < p.win.w; x++) if (pl[y * p.win.w + x] > 0.25) {
      // grown by 2 px
      for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) {
        const X = p.win.x0 + x + dx, Y = p.win.y0 + y + dy;
        if (X >= 0 && Y >= 0 && X < image.width && Y < image.height) lips[Y * image.width + X] = 1;
      }
    }
  });
  // Above the mouth-corner line of each face (in the face's own frame: above the line through mesh 61 and 291).
  const aboveMouth = (x: number, y: number) => faces.some((f) => {
    const m = f.mesh!; const a = m[61], b = m[291];
    const fw = Math.hypot(m[454][0] - m[234][0], m[454][1] - m[234][1]);
    if (Math.abs(x - (a[0] + b[0]) / 2) > fw || Math.abs(y - (a[1] + b[1]) / 2) > fw) return false;
    const cross = (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]);
    return cross < 0;
  });
  const report = (label: string, after: Described[]) => {
    return before.map((f, k) => {
      const g = after.reduce<Described | undefined>((best, x) => (iou(x.box, f.box) > (best ? iou(best.box, f.box) : 0.5) ? x : best), undefined);
      if (!g) return `f${k}: lost`;
      return `f${k}: sim ${sim(f.embedding, g.embedding).toFixed(3)} iou ${iou(f.box, g.box).toFixed(2)} ${f.gender}->${g.gender}`;
    }).join('  ');
  };
  console.log(`\n${rel}: faces ${before.map((f) => `${f.gender}(${f.genderScore.toFixed(2)}) box ${f.box.map(Math.round).join(',')}`).join('; ')}`);
  const dShaved = await described(shaved);
  console.log(`  removal only         ${report('removal', dShaved)}`);
  const row: { label: string; img: RasterImage; box: number[] }[] = [{ label: 'before', img: image, box: before[0]?.box }, { label: 'removed', img: shaved, box: dShaved[0]?.box ?? before[0]?.box }];
  for (const name of presetNames) {
    const preset = BEARD_PRESETS.find((p) => p.name === name)!;
    const full = await variants(name, shaved);
    const dFull = await described(full);
    console.log(`  ${name.padEnd(20)} ${report(name, dFull)}`);
    row.push({ label: name.slice(0, 14), img: full, box: dFull[0]?.box ?? before[0]?.box });
    const noLips = restored(full, shaved, (x, y) => lips[y * image.width + x] === 1);
    console.log(`    lips restored      ${report('', await described(noLips))}`);
    const noUpper = restored(full, shaved, aboveMouth);
    const dUpper = await described(noUpper);
    console.log(`    above-mouth restored ${report('', dUpper)}`);
    row.push({ label: 'no>mouth', img: noUpper, box: dUpper[0]?.box ?? before[0]?.box });
    // Outside the mesh's face outline (the beard hanging below the jaw onto the neck, which moves the box).
    const hulls = faces.map((f) => convexHull(f.mesh!.map((q) => [q[0], q[1]] as [number, number])));
    const inside = (x: number, y: number) => hulls.some((h) => h.every((a, i) => { const b = h[(i + 1) % h.length]; return (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]) >= 0; }));
    const dOut = await described(restored(full, shaved, (x, y) => !inside(x, y)));
    console.log(`    outside-face restored ${report('', dOut)}`);
    if (preset.parts.length > 1) {
      for (const [k, part] of preset.parts.entries()) {
        const tmp: BeardPreset = { name: `${name}#${k}`, kind: preset.kind, parts: [part] };
        (BEARD_PRESETS as BeardPreset[]).push(tmp);
        const only = await variants(tmp.name, shaved);
        console.log(`    part ${k} (${part.flow}) only ${report('', await described(only))}`);
        (BEARD_PRESETS as BeardPreset[]).pop();
      }
    }
  }
  tiles.push(row);
  const m = faces[0].mesh!; const fw = Math.hypot(m[454][0] - m[234][0], m[454][1] - m[234][1]);
  const mbox = [m[13][0] - 0.35 * fw, m[13][1] - 0.25 * fw, 0.7 * fw, 0.5 * fw];
  mouths.push(row.filter((t) => t.label !== 'no>mouth').map((t) => ({ ...t, box: mbox })));
}
async function write(tiles: { label: string; img: RasterImage; box: number[] }[][], sheet: string, TILE: number) {
  const cols = Math.max(...tiles.map((r) => r.length));
  const over: OverlayOptions[] = [];
  for (const [r, row] of tiles.entries()) for (const [c, t] of row.entries()) {
    if (!t.box) continue;
    const [x, y, w, h] = t.box.map(Math.round);
    const left = Math.max(0, x), top = Math.max(0, y);
    const crop = { left, top, width: Math.min(w, t.img.width - left), height: Math.min(h, t.img.height - top) };
    over.push({ input: await sharp(t.img.data, { raw: { width: t.img.width, height: t.img.height, channels: 3 } }).extract(crop).resize(TILE, Math.round(TILE * crop.height / crop.width), { fit: 'fill' }).png().toBuffer(), left: c * TILE, top: r * (TILE + 16) + 16 });
    over.push({ input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${TILE}" height="16"><rect width="100%" height="100%" fill="#222"/><text x="3" y="12" font-family="sans-serif" font-size="11" fill="#fff">${t.label}</text></svg>`), left: c * TILE, top: r * (TILE + 16) });
  }
  await sharp({ create: { width: cols * TILE, height: tiles.length * (TILE + 16), channels: 3, background: '#000' } }).composite(over).png().toFile(sheet);
  console.log(`sheet ${sheet}`);
}
if (sheet) { await write(tiles, sheet, 160); await write(mouths, sheet.replace('.png', '-mouth.png'), 300); }
process.exit(0);
