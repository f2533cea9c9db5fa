/**
 * Beard styling at 100 %: for each photo (its largest meshed face) and each preset, the lower face before and
 * after side by side, unscaled, one PNG per photo and preset; to judge the texture as a customer sees it.
 *
 *   npx tsx scripts/render/beard-styling-crops.ts DIR [--photos REL,REL] [--presets A,B]
 *
 * Defaults: obama_official_portrait and biden_obama_laughing_whitehouse (check half), man_beard_smiling_lacamoire
 * (tune half); FullBeardClassic, Garibaldi, HeavyStubble, Goatee, ChevronMoustache (one of each family).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { BEARD_REGIONS, jobFacts, loadBeardLibrary, ModelRegistry, type RasterImage, styleFace, STYLING_PARSING as PARSE } from '../../engine/for-scripts.ts';
import { beardCrop } from '../quality/beard-sheet.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const args = process.argv.slice(2);
const opt = (name: string) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const dir = args[0];
if (!dir || dir.startsWith('--')) { console.error('usage: beard-styling-crops.ts DIR [--photos REL,REL] [--presets A,B]'); process.exit(1); }
const photos = opt('--photos')?.split(',') ?? ['portraits/obama_official_portrait.jpg', 'portraits/biden_obama_laughing_whitehouse.jpg', 'portraits/man_beard_smiling_lacamoire.png'];
const presets = opt('--presets')?.split(',') ?? ['FullBeardClassic', 'Garibaldi', 'HeavyStubble', 'Goatee', 'ChevronMoustache'];
mkdirSync(dir, { recursive: true });

const models = new ModelRegistry({ threads: 2 });
await loadBeardLibrary();
for (const rel of photos) {
  const { data, info } = await sharp(path.join(testdata, rel)).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const image: RasterImage = { data, width: info.width, height: info.height, channels: 3 };
  const facts = jobFacts(image, models);
  const face = (await facts.faces()).find((f) => f.mesh);
  if (!face) { console.log(`${rel}: no meshed face`); continue; }
  const parsing = await facts.parsing(face, PARSE);
  const regions = facts.regions(face, BEARD_REGIONS);
  const crop = beardCrop(face, image);
  const raw = (img: RasterImage) => sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } }).extract(crop).png().toBuffer();
  const before = await raw(image);
  for (const name of presets) {
    const result = { ...image, data: Buffer.from(image.data) };
    const t0 = performance.now();
    styleFace(image, result, face, parsing, regions, name, 0);
    const ms = Math.round(performance.now() - t0);
    const file = path.join(dir, `${path.basename(rel).replace(/\.[^.]+$/, '')}-${name}.png`);
    await sharp({ create: { width: crop.width * 2 + 4, height: crop.height, channels: 3, background: '#fff' } })
      .composite([{ input: before, left: 0, top: 0 }, { input: await raw(result), left: crop.width + 4, top: 0 }]).png().toFile(file);
    console.log(`${file} (${crop.width} px, ${ms} ms)`);
  }
}
process.exit(0);
