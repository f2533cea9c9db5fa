/**
 * Builds beard removal's library of clean-shaven lower faces (engine/effects/ai-beard-removal/skin/): the
 * largest face of each listed portrait, its bare skin (the parser's skin and neck) stored in the canonical
 * face frame (skin-library.ts) as an RGBA PNG, with library.json naming its file, resolution and source.
 * The portraits are public domain or CC0 (credits in the library's SOURCES.md).
 *
 *   npx tsx scripts/skin-library.ts [--interfaces DIR] [--preview DIR]
 *
 * --preview DIR also writes each cut over grey to DIR, to look at.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { BEARD_PARSING, BEARD_REGIONS, beardMask, cutSkin, encodeSkin, faceWindow, jobFacts, meshFaceWidth, ModelRegistry, parsingPlane, type RasterImage, SKIN_SKIRT, type SkinInfo } from '../engine/for-scripts.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'engine/effects/ai-beard-removal/skin');
const args = process.argv.slice(2);
const preview = args.includes('--preview') ? args[args.indexOf('--preview') + 1] : undefined;

/** cjdowner/interfaces's `1000 x 1000/` folder (CC0) checked out here: --interfaces DIR (it is not in the repository). */
const interfaces = args.includes('--interfaces') ? args[args.indexOf('--interfaces') + 1] : '/tmp/interfaces';
/** Clean-shaven men (freshly shaved: a shaved chin's dots are the grain wanted), near-frontal, mouth closed, nothing in front of the lower face. */
const PICKS = [
  { file: 'engine/test/fixtures/obama_official_portrait.jpg', name: 'obama_official_portrait.png' },
  { file: path.join(interfaces, '047.jpg'), name: 'interfaces_047.png' },
  { file: path.join(interfaces, '053.jpg'), name: 'interfaces_053.png' },
];
/** The most pixels per canonical unit stored (about a face this wide in pixels): keeps the assets small. */
const MAX_RES = 480;

const models = new ModelRegistry({ threads: 2 });
const entries: SkinInfo[] = [];
mkdirSync(out, { recursive: true });
if (preview) mkdirSync(preview, { recursive: true });
for (const pick of PICKS) {
  const { data, info } = await sharp(path.isAbsolute(pick.file) ? pick.file : path.join(root, pick.file)).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const image: RasterImage = { data, width: info.width, height: info.height, channels: 3 };
  const facts = jobFacts(image, models);
  const face = (await facts.faces()).find((f) => f.mesh);
  if (!face) throw new Error(`${pick.file}: no face`);
  const parsing = await facts.parsing(face, BEARD_PARSING);
  const beard = beardMask(image, face, parsing, facts.regions(face, BEARD_REGIONS));
  // A shaved chin's dots may read as stubble to the mask: said, not refused (they are the grain wanted).
  const found = beard?.coverage ?? 0;
  const m = face.mesh!, fw = meshFaceWidth(m);
  const win = faceWindow(m, image, SKIN_SKIRT);
  const bare = parsingPlane(parsing, ['skin', 'neck'], win);
  // Its own hands (none in the picks, but the parser calls a hand skin) are left out.
  const hands = await facts.hands(face);
  if (hands) for (let y = 0; y < win.h; y++) for (let x = 0; x < win.w; x++) if (hands.data[(win.y0 + y) * hands.width + win.x0 + x] > 64) bare[y * win.w + x] = 0;
  const res = Math.min(MAX_RES, Math.round(fw));
  const file = pick.file.startsWith(interfaces) ? `cjdowner/interfaces @ 2166b2273fd050699e112e95a251f0519cce58c3 : 1000 x 1000/${path.basename(pick.file)}` : pick.file;
  const cut = cutSkin(image, m, bare, win, res);
  writeFileSync(path.join(out, pick.name), await encodeSkin(cut));
  entries.push({ file: pick.name, res, source: file });
  console.log(`${file}\tface ${fw.toFixed(0)} px\tres ${res}\tbeard mask coverage ${found.toFixed(2)}`);
  if (preview) {
    const rgb = Buffer.alloc(cut.w * cut.h * 3);
    for (let i = 0; i < cut.w * cut.h; i++) for (let c = 0; c < 3; c++) rgb[i * 3 + c] = Math.round(128 + (cut.rgb[i * 3 + c] - 128) * cut.alpha[i]);
    await sharp(rgb, { raw: { width: cut.w, height: cut.h, channels: 3 } }).png().toFile(path.join(preview, pick.name));
  }
}
writeFileSync(path.join(out, 'library.json'), `${JSON.stringify({ frame: 'skin-library.ts SKIN_FRAME', exemplars: entries }, null, 2)}\n`);
