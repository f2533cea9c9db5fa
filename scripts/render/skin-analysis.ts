/**
 * Contact sheets of the skin analysis for looking at: per portrait, the photo with the zones outlined
 * and the lesion rectangles (acne red, closed comedones white, moles blue, skin spots orange, forehead
 * and other lines green), beside the six maps, under /tmp/skin-analysis-sheets.
 *
 * With --chips fit|check: one sheet of that half's UTKFace chips (ages in the file names), youngest first,
 * each enlarged 3x with its line boxes (green: flagged member's lines) and its age, skin_age and flags.
 * With --ridges: one row per photo (UTKFace chip names or paths), the frame 4x, again with the line zones
 * and line boxes, and the dark-line depth (ridgeField) at σ 0.3, 1.2 and 2.4 mm, 12 grey levels per L*.
 *
 *   npm run render:skin-analysis [-- file ...] [--chips fit|check] [--ridges file ...]
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { skinMaps } from '../../contract/endpoints/skin-analysis-advanced.ts';
import {
  analyseSkin, frameToImage as toImage, labFrame, type LesionKind, makeFrame, ModelRegistry, renderMaps,
  RIDGE_SIGMAS, ridgeField
} from '../../engine/for-scripts.ts';
import { half } from '../datasets/face-parts-data.ts';
import { faceData, rasterOf, utkAge } from '../datasets/skin-analysis-data.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const OUT = '/tmp/skin-analysis-sheets';
mkdirSync(OUT, { recursive: true });
const models = new ModelRegistry({ threads: 2 });
const COLOURS: Record<LesionKind, string> = { acne: '#ff2020', closed_comedones: '#ffffff', mole: '#2060ff', skin_spot: '#ff9900' };
const ZONE_COLOURS: Record<string, string> = { forehead: '#ffff00', glabella: '#ff00ff', rightCrowsFeet: '#00ffff', leftCrowsFeet: '#00ffff', rightUnderEye: '#80ff80', leftUnderEye: '#80ff80',
  rightCheek: '#ff8080', leftCheek: '#ff8080', rightNasolabial: '#8080ff', leftNasolabial: '#8080ff', nose: '#ffffff', chin: '#ffa500', jaw: '#a0a0a0' };

const CHIPS = process.argv.includes('--chips') ? process.argv[process.argv.indexOf('--chips') + 1] : null;
if (CHIPS) await chipSheet(CHIPS);
if (process.argv.includes('--ridges')) { await ridgeSheet(process.argv.slice(process.argv.indexOf('--ridges') + 1)); process.exit(0); }
const args = CHIPS ? [] : process.argv.slice(2);
const files = CHIPS ? [] : args.length ? args : [
  ...['obama_official_portrait.jpg', 'astronaut_eileen_collins.png'].map((f) => path.join(root, 'engine/test/fixtures', f)),
  ...(existsSync(path.join(testdata, 'portraits')) ? readdirSync(path.join(testdata, 'portraits')).filter((f) => /headscarf|superbomba|rania|biden/.test(f)).map((f) => path.join(testdata, 'portraits', f)) : []),
];
for (const file of files) {
  const image = await rasterOf(file);
  const d = await faceData(models, image, `render/${path.basename(file)}`);
  if (!d) { console.log(`${file}: no face`); continue; }
  const f = await makeFrame(image, d.face);
  const a = analyseSkin(f, d.face, d.parsing, labFrame(f));
  // Zone outlines: pixels of a zone with a neighbour outside it.
  const svg: string[] = [];
  for (const [name, colour] of Object.entries(ZONE_COLOURS)) {
    const z = a.zones[name as keyof typeof a.zones];
    const pts: string[] = [];
    for (let y = 1; y < f.h - 1; y += 1) for (let x = 1; x < f.w - 1; x += 1) {
      const i = y * f.w + x;
      if (z[i] >= 0.5 && (z[i - 1] < 0.5 || z[i + 1] < 0.5 || z[i - f.w] < 0.5 || z[i + f.w] < 0.5)) { const [ix, iy] = toImage(f, x, y); pts.push(`M${ix.toFixed(1)},${iy.toFixed(1)}h1`); }
    }
    svg.push(`<path d="${pts.join('')}" stroke="${colour}" stroke-width="1.5" opacity="0.8"/>`);
  }
  for (const l of a.lesions) svg.push(`<rect x="${l.rect.x0}" y="${l.rect.y0}" width="${l.rect.w}" height="${l.rect.h}" fill="none" stroke="${COLOURS[l.kind]}" stroke-width="1.5"/>`);
  for (const lines of Object.values(a.internals.lines)) for (const l of lines) {
    const [x0, y0] = toImage(f, l.x0, l.y0), [x1, y1] = toImage(f, l.x1 + 1, l.y1 + 1);
    svg.push(`<rect x="${x0}" y="${y0}" width="${x1 - x0}" height="${y1 - y0}" fill="none" stroke="#00ff60" stroke-width="1"/>`);
  }
  const overlay = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${image.width}" height="${image.height}">${svg.join('')}</svg>`);
  const marked = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } }).composite([{ input: overlay }]).png().toBuffer();
  const maps = await renderMaps(image, a, skinMaps);
  // Crop every panel to the face window so details are visible.
  const crop = { left: f.win.x0, top: f.win.y0, width: f.win.w, height: f.win.h };
  const H = 420, W = Math.round((crop.width / crop.height) * H);
  const panels = [marked, ...Object.values(maps).map((m) => m.data)];
  const tiles = await Promise.all(panels.map((p) => sharp(p).extract(crop).resize(W, H).png().toBuffer()));
  const sheet = await sharp({ create: { width: W * 4, height: H * 2, channels: 3, background: '#202020' } })
    .composite(tiles.map((t, i) => ({ input: t, left: (i % 4) * W, top: Math.floor(i / 4) * H }))).png().toBuffer();
  const out = path.join(OUT, path.basename(file).replace(/\.\w+$/, '.png'));
  await sharp(sheet).toFile(out);
  const kinds: Record<string, number> = {};
  for (const l of a.lesions) kinds[l.kind] = (kinds[l.kind] ?? 0) + 1;
  console.log(out, JSON.stringify(Object.fromEntries(Object.entries(a.members).map(([k, v]) => [k, v.value]))), JSON.stringify(kinds));
}
process.exit(0);

/** The chips of one half, youngest first: 3x, line boxes of flagged members, age / skin_age / flags. */
async function chipSheet(which: string) {
  const dir = path.join(testdata, 'faces_age_gender');
  const chips = readdirSync(dir).filter((f) => /\.jpe?g$/i.test(f) && half(`faces_age_gender/${f}`) === which)
    .sort((a, b) => utkAge(a) - utkAge(b));
  const TILE = 300, tiles: Buffer[] = [];
  for (const file of chips) {
    const image = await rasterOf(path.join(dir, file));
    const d = await faceData(models, image, `faces_age_gender/${file}`);
    if (!d) continue;
    const f = await makeFrame(image, d.face);
    const a = analyseSkin(f, d.face, d.parsing, labFrame(f));
    const k = TILE / Math.max(image.width, image.height), svg: string[] = [];
    const flagged = Object.entries(a.internals.lines).filter(([m]) => a.members[m as keyof typeof a.members].value === 1);
    for (const [m, lines] of Object.entries(a.internals.lines)) for (const l of lines) {
      const [x0, y0] = toImage(f, l.x0, l.y0), [x1, y1] = toImage(f, l.x1 + 1, l.y1 + 1);
      const on = flagged.some(([n]) => n === m);
      svg.push(`<rect x="${x0 * k}" y="${y0 * k}" width="${(x1 - x0) * k}" height="${(y1 - y0) * k}" fill="none" stroke="${on ? '#00ff60' : '#ffff00'}" stroke-width="${on ? 2 : 1}"/>`);
    }
    for (const l of a.lesions) svg.push(`<rect x="${l.rect.x0 * k}" y="${l.rect.y0 * k}" width="${l.rect.w * k}" height="${l.rect.h * k}" fill="none" stroke="${COLOURS[l.kind]}" stroke-width="1"/>`);
    const flags = flagged.map(([m]) => m.replace(/_wrinkle|_fold/, '')).join(' ');
    svg.push(`<rect x="0" y="${TILE - 34}" width="${TILE}" height="34" fill="#000" opacity="0.6"/><text x="4" y="${TILE - 20}" font-size="13" fill="#fff" font-family="sans-serif">age ${utkAge(file)} skin_age ${a.skinAge} ${f.s.toFixed(2)} px/mm</text><text x="4" y="${TILE - 5}" font-size="12" fill="#8f8" font-family="sans-serif">${flags || '-'}</text>`);
    const W = Math.round(image.width * k), H = Math.round(image.height * k);
    tiles.push(await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } }).resize(W, H, { kernel: 'lanczos3' })
      .composite([{ input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${svg.join('')}</svg>`) }]).png().toBuffer());
  }
  const cols = 6, rows = Math.ceil(tiles.length / cols);
  const out = path.join(OUT, `chips-${which}.png`);
  await sharp({ create: { width: cols * TILE, height: rows * TILE, channels: 3, background: '#202020' } })
    .composite(tiles.map((t, i) => ({ input: t, left: (i % cols) * TILE, top: Math.floor(i / cols) * TILE }))).png().toFile(out);
  console.log(out);
}

/** Per photo, a row: the frame 4x, the frame with the line zones and line boxes, the ridge depth at three scales. */
async function ridgeSheet(names: string[]) {
  const K = 4, LINE_ZONES = ['forehead', 'glabella', 'rightCrowsFeet', 'leftCrowsFeet', 'rightUnderEye', 'leftUnderEye', 'rightNasolabial', 'leftNasolabial'];
  const rows: { row: Buffer; w: number; h: number }[] = [];
  for (const name of names) {
    const chip = !name.includes('/');
    const file = chip ? path.join(testdata, 'faces_age_gender', name) : name;
    const image = await rasterOf(file);
    const d = await faceData(models, image, chip ? `faces_age_gender/${name}` : `render/${path.basename(file)}`);
    if (!d) { console.log(`${file}: no face`); continue; }
    const f = await makeFrame(image, d.face);
    const a = analyseSkin(f, d.face, d.parsing, labFrame(f));
    const { w, h, s } = f, tw = w * K, th = h * K, svg: string[] = [];
    for (const zone of LINE_ZONES) {
      const z = a.zones[zone as keyof typeof a.zones];
      for (let y = 1; y < h - 1; y++) for (let x = 1; x < w - 1; x++) {
        const i = y * w + x;
        if (z[i] >= 0.5 && (z[i - 1] < 0.5 || z[i + 1] < 0.5 || z[i - w] < 0.5 || z[i + w] < 0.5)) svg.push(`<rect x="${x * K}" y="${y * K}" width="${K / 2}" height="${K / 2}" fill="${ZONE_COLOURS[zone]}" opacity="0.6"/>`);
      }
    }
    const flagged = Object.keys(a.internals.lines).filter((m) => a.members[m as keyof typeof a.members].value === 1);
    for (const [m, lines] of Object.entries(a.internals.lines)) for (const l of lines) {
      svg.push(`<rect x="${l.x0 * K}" y="${l.y0 * K}" width="${(l.x1 - l.x0 + 1) * K}" height="${(l.y1 - l.y0 + 1) * K}" fill="none" stroke="${flagged.includes(m) ? '#00ff60' : '#ffff00'}" stroke-width="2"/>`);
    }
    svg.push(`<text x="4" y="16" font-size="14" fill="#fff" font-family="sans-serif">${chip ? `age ${utkAge(name)} ` : ''}skin_age ${a.skinAge} ${s.toFixed(2)} px/mm ${flagged.join(' ')}</text>`);
    const photo = await sharp(Buffer.from(f.rgb), { raw: { width: w, height: h, channels: 3 } }).resize(tw, th, { kernel: 'lanczos3' }).png().toBuffer();
    const tiles = [photo, await sharp(photo).composite([{ input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${tw}" height="${th}">${svg.join('')}</svg>`) }]).png().toBuffer()];
    for (const sigma of [RIDGE_SIGMAS.fine[0], ...RIDGE_SIGMAS.coarse]) {
      const depth = ridgeField(a.internals.lab.L, w, h, [sigma * s]).depth, grey = Buffer.alloc(w * h);
      for (let i = 0; i < grey.length; i++) grey[i] = Math.min(255, Math.round(depth[i] * 12));
      tiles.push(await sharp(grey, { raw: { width: w, height: h, channels: 1 } }).resize(tw, th, { kernel: 'nearest' }).png().toBuffer());
    }
    rows.push({ row: await sharp({ create: { width: tw * tiles.length, height: th, channels: 3, background: '#202020' } }).composite(tiles.map((t, i) => ({ input: t, left: i * tw, top: 0 }))).png().toBuffer(), w: tw * tiles.length, h: th });
  }
  const out = path.join(OUT, 'ridges.png');
  let top = 0;
  await sharp({ create: { width: Math.max(1, ...rows.map((r) => r.w)), height: Math.max(1, rows.reduce((t, r) => t + r.h, 0)), channels: 3, background: '#202020' } })
    .composite(rows.map((r) => { const o = { input: r.row, left: 0, top }; top += r.h; return o; })).png().toFile(out);
  console.log(out);
}
