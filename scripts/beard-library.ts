/**
 * Builds beard styling's exemplar library (engine/effects/ai-beard-styling/exemplars/): each listed portrait's
 * beard cut by beard removal's mask (looks/beard/mask.ts, the largest face) and stored in the canonical face
 * frame (exemplar.ts) as an RGBA PNG, with library.json naming its file, resolution and style. The portraits
 * are read from ../shared/testdata/exemplars (CC0 / CC BY-SA; credits in the library's SOURCES.md).
 *
 *   npx tsx scripts/beard-library.ts [--preview DIR]
 *
 * --preview DIR also writes each cut over grey to DIR, to look at.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { BEARD_REGIONS, beardMask, cutExemplar, encodeCanonical, type ExemplarInfo, jobFacts, ModelRegistry, type RasterImage, STYLING_PARSING } from '../engine/for-scripts.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const from = process.env.ATELIER_TESTDATA ? path.join(process.env.ATELIER_TESTDATA, 'exemplars') : path.resolve(root, '../shared/testdata/exemplars');
const out = path.join(root, 'engine/effects/ai-beard-styling/exemplars');
const args = process.argv.slice(2);
const preview = args.includes('--preview') ? args[args.indexOf('--preview') + 1] : undefined;

/** The portraits taken, with the kind of hair each holds. */
const PICKS: { file: string; style: ExemplarInfo['style'] }[] = [
  // The render takes the first entry's texture (exemplar.ts exemplarOf). Three more were cut and dropped
  // (docs/experiments/ai-beard-styling.md): bald_shaved_beard_full_black_darkskin_01 and
  // beard_full_black_furhat_05 ('long'), stubble_heavy_black_olive_03 ('stubble').
  { file: 'beard_full_short_black_glasses_03.jpg', style: 'short' },
];
/** The most pixels per canonical unit stored (about a face this wide in pixels): keeps the assets small. */
const MAX_RES = 320;

const models = new ModelRegistry({ threads: 2 });
const entries: ExemplarInfo[] = [];
mkdirSync(out, { recursive: true });
if (preview) mkdirSync(preview, { recursive: true });
for (const pick of PICKS) {
  const { data, info } = await sharp(path.join(from, pick.file)).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const image: RasterImage = { data, width: info.width, height: info.height, channels: 3 };
  const facts = jobFacts(image, models);
  const face = (await facts.faces()).find((f) => f.mesh);
  if (!face) throw new Error(`${pick.file}: no face`);
  const parsing = await facts.parsing(face, STYLING_PARSING);
  const mask = beardMask(image, face, parsing, facts.regions(face, BEARD_REGIONS));
  if (!mask) throw new Error(`${pick.file}: no beard mask`);
  const m = face.mesh!;
  const fw = Math.hypot(m[454][0] - m[234][0], m[454][1] - m[234][1]);
  const res = Math.min(MAX_RES, Math.round(fw));
  const cut = cutExemplar(image, face, parsing, mask, res);
  const name = pick.file.replace(/\.jpg$/, '.png');
  writeFileSync(path.join(out, name), await encodeCanonical(cut));
  entries.push({ file: name, res, style: pick.style, source: `../shared/testdata/exemplars/${pick.file}` });
  console.log(`${pick.file}\tface ${fw.toFixed(0)} px\tres ${res}\tcoverage ${mask.coverage.toFixed(2)}\thidden ${mask.hidden.toFixed(2)}`);
  if (preview) {
    const rgb = Buffer.alloc(cut.w * cut.h * 3);
    for (let i = 0; i < cut.w * cut.h; i++) for (let c = 0; c < 3; c++) rgb[i * 3 + c] = Math.round(128 + (cut.rgb[i * 3 + c] - 128) * cut.alpha[i]);
    await sharp(rgb, { raw: { width: cut.w, height: cut.h, channels: 3 } }).png().toFile(path.join(preview, name));
  }
}
writeFileSync(path.join(out, 'library.json'), `${JSON.stringify({ frame: 'exemplar.ts FRAME', exemplars: entries }, null, 2)}\n`);
