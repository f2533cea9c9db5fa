/**
 * Quality of the square-face avatar (issue 11) on the shared portraits and landmark photos, per half of the
 * retouch split (retouch-identity.ts's half(), fixed before tuning): is the avatar still found as a face by
 * human, of the same gender as the photo's largest face? Human's descriptor similarity is printed beside it
 * for reading, not as a target (a cartoon is meant to change the pixels a descriptor reads).
 * Also times each run in-process (the HTTP figures are scripts/bench/square-face.ts's) and writes a contact sheet,
 * photo | avatar, of every photo to /tmp/square-face-sheet.png (--sheet FILE overrides, --no-sheet skips).
 *
 *   npm run quality:square-face -- [--sheet FILE] [--no-sheet] [name-filter ...]
 *
 * Reads ../shared/testdata from the repository root (ATELIER_TESTDATA overrides); exits 2 without it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp, { type OverlayOptions } from 'sharp';
import { ModelRegistry, type RasterImage, runEffect, squareFaceEffect as effect } from '../../engine/for-scripts.ts';
import { faceDescriber, half, retouchPhotos } from './retouch-identity.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
if (!existsSync(path.join(testdata, 'labels.json'))) {
  console.error(`quality-square-face: the shared test data is absent (looked in ${testdata}); nothing was measured.`);
  process.exit(2);
}
const args = process.argv.slice(2);
const sheetAt = args.indexOf('--sheet');
const sheet = args.includes('--no-sheet') ? undefined : sheetAt >= 0 ? args[sheetAt + 1] : '/tmp/square-face-sheet.png';
const filters = args.filter((a, i) => !a.startsWith('--') && !(sheetAt >= 0 && i === sheetAt + 1));
const photos = retouchPhotos(testdata).filter((rel) => !filters.length || filters.some((f) => rel.includes(f)));

const models = new ModelRegistry({ threads: 2 });
const { described, similarity } = await faceDescriber(models);
const raw = async (input: Buffer | string): Promise<RasterImage> => {
  const { data, info } = await sharp(input).rotate().flatten({ background: '#ffffff' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
};

type Tally = { n: number; found: number; sameGender: number; flipped: number; sims: number[]; ms: number[] };
const tallies: Record<string, Tally> = {};
const tiles: { photo: Buffer; avatar: Buffer; label: string }[] = [];
console.log(['photo', 'half', 'face px', 'gender before', 'avatar faces', 'gender after', 'similarity', 'ms'].join('\t'));
for (const rel of photos) {
  const h = half(rel);
  const image = await raw(path.join(testdata, rel));
  const before = (await described(image)).sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])[0];
  if (!before) { console.log(`${rel}\t${h}\t(human finds no face to compare against; skipped)`); continue; }
  const t0 = performance.now();
  let png: Buffer;
  try {
    png = (await runEffect(effect, { image, params: {} }, { models, signal: new AbortController().signal })).images.result.data;
  } catch (e) { console.log(`${rel}\t${h}\t(${(e as Error).message})`); continue; }
  const ms = performance.now() - t0;
  const after = (await described(await raw(png))).sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]);
  const t = (tallies[h] ??= { n: 0, found: 0, sameGender: 0, flipped: 0, sims: [], ms: [] });
  t.n++; t.ms.push(ms);
  const a = after[0];
  if (a) {
    t.found++;
    if (a.gender === before.gender) t.sameGender++;
    // Human says "unknown" below its confidence; a flip is male ↔ female, both said.
    else if (a.gender !== 'unknown' && before.gender !== 'unknown') t.flipped++;
    t.sims.push(similarity(before.embedding, a.embedding));
  }
  console.log([rel, h, Math.round(before.box[2]), `${before.gender} ${(before.genderScore ?? 0).toFixed(2)}`, after.length,
    a ? `${a.gender} ${(a.genderScore ?? 0).toFixed(2)}` : '-', a ? t.sims[t.sims.length - 1].toFixed(3) : '-', ms.toFixed(0)].join('\t'));
  if (sheet) tiles.push({ photo: await sharp(path.join(testdata, rel)).rotate().resize(256, 256, { fit: 'contain', background: '#ffffff' }).png().toBuffer(), avatar: await sharp(png).resize(256, 256).png().toBuffer(), label: path.basename(rel) });
}

const median = (v: number[]) => { const s = [...v].sort((x, y) => x - y); return s.length ? s[s.length >> 1] : NaN; };
console.log(['half', 'photos', 'avatar found as a face', 'same gender', 'gender flipped', 'similarity median', 'ms median', 'ms max'].join('\t'));
for (const [h, t] of Object.entries(tallies).sort()) {
  console.log([h, t.n, `${t.found}/${t.n}`, `${t.sameGender}/${t.n}`, `${t.flipped}/${t.n}`, median(t.sims).toFixed(3), median(t.ms).toFixed(0), Math.max(...t.ms).toFixed(0)].join('\t'));
}

if (sheet && tiles.length) {
  const cols = 4, tw = 512 + 8, th = 256 + 8;
  const rows = Math.ceil(tiles.length / cols);
  const overlays: OverlayOptions[] = [];
  tiles.forEach((t, i) => {
    const x = (i % cols) * tw, y = Math.floor(i / cols) * th;
    overlays.push({ input: t.photo, left: x, top: y }, { input: t.avatar, left: x + 256, top: y });
  });
  await sharp({ create: { width: cols * tw, height: rows * th, channels: 3, background: '#d0d0d0' } }).composite(overlays).png().toFile(sheet);
  console.log(`contact sheet: ${sheet}`);
}
process.exit(0);
