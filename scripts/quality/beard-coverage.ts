/**
 * The beard mask alone (no removal) on the beard-removal quality set (beard-removal.ts's photos: retouch-identity.ts's
 * set and the shared exemplars, same halves): per face the share of its beard zone the mask covers and whether it
 * reads dense; per half the bearded photos' largest-face coverage (wanted > 0 on every one) and the clean-shaven
 * photos' (wanted 0). Fast: detection and parsing only.
 *
 *   [BT='{...}'] npx tsx scripts/quality/beard-coverage.ts [--half tune|check] [name-filter ...]
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { BEARD_PARSING, BEARD_REGIONS, beardMask, beardTuning, jobFacts, ModelRegistry, type RasterImage } from '../../engine/for-scripts.ts';
import { half, retouchPhotos } from './retouch-identity.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
if (!existsSync(path.join(testdata, 'labels.json'))) {
  console.error(`beard-coverage: the shared test data is absent (looked in ${testdata}); nothing was measured.`);
  process.exit(2);
}
Object.assign(beardTuning, JSON.parse(process.env.BT ?? '{}'));
const args = process.argv.slice(2);
const halfArg = args.indexOf('--half');
const onlyHalf = halfArg >= 0 ? args[halfArg + 1] : null;
const filters = args.filter((a, i) => !a.startsWith('--') && (halfArg < 0 || i !== halfArg + 1));
const bearded = (JSON.parse(readFileSync(path.join(root, 'scripts/datasets/beard-labels.json'), 'utf8')) as { bearded: Record<string, string> }).bearded;
const ex = path.join(testdata, 'exemplars');
const exemplars = existsSync(ex) ? readdirSync(ex).filter((f) => /\.jpe?g$/i.test(f)).map((f) => `exemplars/${f}`).sort() : [];
const photos = [...retouchPhotos(testdata), ...exemplars].filter((p) => (!filters.length || filters.some((f) => p.includes(f))) && (!onlyHalf || half(p) === onlyHalf));
const models = new ModelRegistry({ threads: 2 });
const tally: Record<string, { found: number; bearded: number; falseFaces: number; clean: number }> = {};
console.log(['half', 'photo', 'label', 'coverage (dense *)'].join('\t'));
for (const rel of photos) {
  const { data, info } = await sharp(path.join(testdata, rel)).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const img: RasterImage = { data, width: info.width, height: info.height, channels: 3 };
  const facts = jobFacts(img, models);
  const faces = (await facts.faces()).slice(0, 5).filter((f) => f.mesh);
  const cov: string[] = [];
  let first = 0, any = 0;
  for (const [k, face] of faces.entries()) {
    const m = beardMask(img, face, await facts.parsing(face, BEARD_PARSING), facts.regions(face, BEARD_REGIONS));
    const c = m?.coverage ?? 0;
    if (k === 0) first = c;
    if (c > 0) any++;
    cov.push(`${c.toFixed(2)}${m?.dense ? '*' : ''}`);
  }
  const h = half(rel), t = (tally[h] ??= { found: 0, bearded: 0, falseFaces: 0, clean: 0 });
  if (rel in bearded) { t.bearded++; if (first > 0 || (!rel.startsWith('exemplars/') && any > 0)) t.found++; } else { t.clean++; t.falseFaces += any; }
  console.log([h, rel, rel in bearded ? 'bearded' : 'clean', cov.join(',')].join('\t'));
}
for (const [h, t] of Object.entries(tally).sort()) console.log(`${h}: bearded photos with a mask ${t.found}/${t.bearded}; clean-shaven photos' faces given a mask ${t.falseFaces} (over ${t.clean} photos)`);
