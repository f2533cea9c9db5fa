/**
 * Face parsing on the shared portraits, for people to look at: per photo one PNG (the photo | the parsing
 * as a coloured overlay, each pixel's most likely class tinted as strongly as it is likely, with each
 * face's crop square | the parts combined with the mesh: skin orange, forehead red, what covers the
 * forehead cyan, beard area green, hair violet, hat dark green, glasses yellow),
 * each face's window at full resolution (NAME.faceK.png) and one contact sheet of all of them with the
 * colour legend. Prints the time per face (crop + model,
 * back to image pixels with edges).
 *
 *   npx tsx scripts/render/face-parsing.ts [out-folder=/tmp/face-parsing] [--input 384|512] [--all-ages] [--only REGEX]
 *
 * Reads ../shared/testdata/portraits and a few of faces_age_gender (all with --all-ages) from the
 * repository root (ATELIER_TESTDATA overrides).
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp, { type OverlayOptions } from 'sharp';
import {
  combineWithMesh, detectFaces, type FaceParser, type FaceParsing, type Mask, ModelRegistry, parseFace,
  PARSING_CLASSES, type PartName, type RasterImage, renderDebug, roiPoint
} from '../../engine/for-scripts.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const args = process.argv.slice(2);
const flag = (name: string) => { const i = args.indexOf(name); return i >= 0 ? args.splice(i, 2)[1] : undefined; };
const input = Number(flag('--input') ?? 512);
const only = flag('--only');
const allAges = args.includes('--all-ages') ? (args.splice(args.indexOf('--all-ages'), 1), true) : false;
const out = args[0] ?? '/tmp/face-parsing';

/** One colour per class, in PARSING_CLASSES order (background is not drawn). */
export const PALETTE: [number, number, number][] = [
  [0, 0, 0], [255, 170, 60], [140, 70, 20], [200, 110, 40], [0, 90, 255], [0, 200, 255], [255, 255, 0], [180, 0, 255], [255, 0, 200], [255, 0, 0],
  [0, 255, 120], [0, 80, 40], [230, 0, 60], [150, 0, 30], [120, 180, 255], [255, 110, 180], [90, 90, 90], [120, 40, 160], [0, 160, 0],
];

const TINT = 0.6;

/** The combined parts drawn in the third panel (combine.ts). */
const PARTS: [PartName, [number, number, number]][] = [
  ['skin', [255, 170, 60]], ['forehead', [255, 40, 40]], ['foreheadCover', [0, 255, 255]], ['beardArea', [40, 200, 40]],
  ['hair', [150, 0, 255]], ['hat', [0, 120, 0]], ['glasses', [255, 255, 0]],
];

/**
 * The photo with each face's most likely class per pixel blended in, as strongly as that class is likely
 * (so edges and unsure areas show soft); background is not drawn.
 */
function overlay(image: RasterImage, parsings: FaceParsing[]): Buffer {
  const { width, height, channels: ch } = image;
  const rgb = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) for (let c = 0; c < 3; c++) rgb[3 * i + c] = image.data[i * ch + c];
  // Where crops overlap, each pixel shows the parsing of the face whose crop centre is nearest (in crop sizes).
  const near = (p: FaceParsing, x: number, y: number) => Math.hypot(x - p.roi.cx, y - p.roi.cy) / p.roi.size;
  for (const p of parsings) {
    const { x0, y0, w, h } = p.win;
    const planes = PARSING_CLASSES.map((n) => p.classes[n]);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const d = near(p, x0 + x, y0 + y);
      if (parsings.some((q) => q !== p && near(q, x0 + x, y0 + y) < d)) continue;
      let best = 0, top = 0;
      planes.forEach((plane, c) => { if (plane && plane[i] > top) { top = plane[i]; best = c; } });
      if (best === 0 || top === 0) continue;
      const k = (top / 255) * TINT, j = 3 * ((y0 + y) * width + x0 + x), col = PALETTE[best];
      for (let c = 0; c < 3; c++) rgb[j + c] = Math.round(rgb[j + c] * (1 - k) + col[c] * k);
    }
  }
  return rgb;
}

/** The crop squares as SVG outlines. */
function squares(width: number, height: number, parsings: FaceParsing[]): string {
  const unit = Math.max(1, Math.min(width, height) / 400);
  const polys = parsings.map((p) => {
    const pts = [[0, 0], [1, 0], [1, 1], [0, 1]].map(([u, v]) => roiPoint(p.roi, 1, u, v).map((q) => q.toFixed(1)).join(','));
    return `<polygon points="${pts.join(' ')}" fill="none" stroke="#00ff66" stroke-width="${(1.2 * unit).toFixed(1)}"/>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${polys.join('')}</svg>`;
}

function legend(width: number): string {
  const items = PARSING_CLASSES.slice(1).map((n, k) => {
    const [r, g, b] = PALETTE[k + 1];
    const x = 10 + (k % 9) * (width / 9 - 2), y = 8 + Math.floor(k / 9) * 26;
    return `<rect x="${x}" y="${y}" width="18" height="18" fill="rgb(${r},${g},${b})"/><text x="${x + 24}" y="${y + 14}" font-family="sans-serif" font-size="14">${n}</text>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="60"><rect width="100%" height="100%" fill="#fff"/>${items.join('')}</svg>`;
}

async function main() {
  if (!existsSync(testdata)) {
    console.log(`No test photos: ${testdata} does not exist (set ATELIER_TESTDATA to the shared testdata folder). Nothing rendered.`);
    return;
  }
  mkdirSync(out, { recursive: true });
  const files: string[] = [];
  const list = (folder: string, pick?: (names: string[]) => string[]) => {
    const dir = path.join(testdata, folder);
    if (!existsSync(dir)) { console.log(`(no ${dir})`); return; }
    const names = readdirSync(dir).filter((n) => /\.(jpe?g|png)$/i.test(n)).sort();
    for (const n of pick ? pick(names) : names) files.push(path.join(folder, n));
  };
  list('portraits');
  // Every tenth of the age/gender crops (babies to seniors), all with --all-ages.
  list('faces_age_gender', (names) => (allAges ? names : names.filter((_, i) => i % 10 === 0)));
  if (only) files.splice(0, files.length, ...files.filter((f) => new RegExp(only).test(f)));
  if (files.length === 0) { console.log(`No photos in ${testdata}/portraits or faces_age_gender.`); return; }

  const models = new ModelRegistry();
  const human = await models.get('human');
  const parser = await models.get<FaceParser>('bisenet-face-parsing');
  const tiles: { file: string; png: Buffer }[] = [];
  const perFace: number[] = [], perFaceCpu: number[] = [];
  console.log(`model input ${input}x${input}`);
  for (const rel of files) {
    const { data, info } = await sharp(path.join(testdata, rel)).rotate().raw().toBuffer({ resolveWithObject: true });
    const image: RasterImage = { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 };
    const faces = await detectFaces(human, image, { searchRotations: true });
    const parsings: FaceParsing[] = [];
    const times: string[] = [];
    // Every face, also those beyond detectFaces' meshFaces (parsed on a crop from their box and roll).
    for (const face of faces) {
      const t0 = performance.now(), c0 = process.cpuUsage();
      const p = await parseFace(parser, image, face, { input });
      const wall = performance.now() - t0, cpu = process.cpuUsage(c0);
      parsings.push(p);
      perFace.push(wall);
      perFaceCpu.push((cpu.user + cpu.system) / 1000);
      times.push(`${wall.toFixed(0)} (${p.ms.model.toFixed(0)} + ${p.ms.warp.toFixed(0)}; cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)})`);
    }
    console.log(`${rel}\t${image.width}x${image.height}\t${faces.length} face(s), ${parsings.length} parsed\tms per face, wall (model + warp; cpu): ${times.join(', ') || '-'}`);
    const { width, height } = image;
    const left = await sharp(image.data, { raw: { width, height, channels: image.channels } }).removeAlpha().png().toBuffer();
    const right = await sharp(overlay(image, parsings), { raw: { width, height, channels: 3 } })
      .composite([{ input: Buffer.from(squares(width, height, parsings)), top: 0, left: 0 }]).png().toBuffer();
    const parts = parsings.map((p, k) => combineWithMesh(p, faces[k], image, { others: faces, names: PARTS.map(([n]) => n) }));
    const third = await renderDebug(image, { masks: parts.flatMap((r) => PARTS.map(([n, color]) => ({ mask: r[n] as Mask, color }))).filter((m) => m.mask) });
    const h = Math.min(720, height);
    const panels = await Promise.all([left, right, third].map((p) => sharp(p).resize({ height: h }).toBuffer({ resolveWithObject: true })));
    const name = rel.replace(/[\\/]/g, '__').replace(/\.\w+$/, '.png');
    let x = 0;
    const placed = panels.map((p) => { const o = { input: p.data, left: x, top: 0 }; x += p.info.width + 8; return o; });
    await sharp({ create: { width: x - 8, height: h, channels: 3, background: '#ffffff' } }).composite(placed).png().toFile(path.join(out, name));
    // Each face's window at full resolution (at most 720 px), to judge the edges.
    for (const [k, p] of parsings.entries()) {
      const side = Math.max(p.win.w, p.win.h);
      await sharp(right).extract({ left: p.win.x0, top: p.win.y0, width: p.win.w, height: p.win.h })
        .resize(side > 720 ? { width: Math.round((p.win.w * 720) / side) } : {}).toFile(path.join(out, name.replace(/\.png$/, `.face${k}.png`)));
    }
    tiles.push({ file: rel, png: right });
  }
  await contactSheet(tiles, path.join(out, 'contact-sheet.png'));
  const summary = (v: number[]) => {
    const s = [...v].sort((x, y) => x - y);
    return `mean ${(s.reduce((a, b) => a + b, 0) / s.length).toFixed(0)}, median ${s[s.length >> 1].toFixed(0)}, max ${s[s.length - 1].toFixed(0)}`;
  };
  if (perFace.length) {
    // Wall time counts whatever else shares the cores; CPU time (this process) is the work itself.
    console.log(`${perFace.length} faces, input ${input}, ms per face: wall ${summary(perFace)}; cpu ${summary(perFaceCpu)}`);
  }
  console.log(`${tiles.length} photos -> ${out}/ (contact sheet: ${out}/contact-sheet.png)`);
}

/** All overlays in a grid of TILE x TILE cells with the file name under each, and the legend on top. */
async function contactSheet(tiles: { file: string; png: Buffer }[], file: string) {
  const TILE = 300, CAPTION = 16, COLS = 6;
  const rows = Math.ceil(tiles.length / COLS);
  const W = COLS * TILE, H = 60 + rows * (TILE + CAPTION);
  const parts: OverlayOptions[] = [{ input: Buffer.from(legend(W)), top: 0, left: 0 }];
  for (const [k, t] of tiles.entries()) {
    const x = (k % COLS) * TILE, y = 60 + Math.floor(k / COLS) * (TILE + CAPTION);
    const img = await sharp(t.png).resize(TILE, TILE, { fit: 'contain', background: '#ffffff' }).toBuffer();
    parts.push({ input: img, left: x, top: y });
    const label = path.basename(t.file).replace(/\.\w+$/, '').slice(0, 40).replace(/&/g, '&amp;');
    parts.push({ input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${TILE}" height="${CAPTION}"><text x="4" y="12" font-family="sans-serif" font-size="11">${label}</text></svg>`), left: x, top: y + TILE });
  }
  await sharp({ create: { width: W, height: H, channels: 3, background: '#ffffff' } }).composite(parts).png().toFile(file);
}

await main();
