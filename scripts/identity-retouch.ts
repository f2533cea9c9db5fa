/**
 * What human's face-descriptor similarity (the identity measure of scripts/quality-retouch.ts) says about
 * photos that were not retouched at all, per face size, next to what it says after face beauty: so a
 * figure below 0.9 can be read as the retouch's doing or the measure's noise. Per variant and face width
 * (human's box: <50, 50-100, 100-200, ≥200 px): faces found again, gender changed, similarity min / median.
 * Variants: the same pixels described again; JPEG re-encodes at 92 (4:2:0) and 97 (4:4:4); face beauty at
 * its defaults, at 1 for each degree alone and all three at 1.
 * What it showed (27 photos): human's similarity saturates, so re-encoding scores 1.00 at every size and
 * 0.9 is a real change; gender is not as steady: a JPEG 92 re-encode alone turned a 45 px face's
 * "unknown" (human's answer below its confidence) into male, and the face beauty "gender changes" at the
 * defaults were all such unknown → male/female at scores ≤ 0.24; JPEG 92 also lost one face of 10 above
 * 200 px (biden_obama, found again at 0/1 by quality-retouch too).
 *
 * With --effect smart-skin-advanced the retouch variants are that effect's: smart_skin, every flag at once
 * (quality-retouch's strong params), and each flag on its own. --faces prints one line per face: its width,
 * human's label and p(male) before -> after (how near the before answer was to a coin toss) and similarity.
 *
 * With --engine the faces, gender and descriptor are Atelier's own pipeline's (retouch-identity.ts
 * engineDescriber, what quality-retouch decides on; p(male) is then FaceRes-deep's, male at maleAt 0.6),
 * faces matched one to one (matchFaces); face widths are then the engine's boxes.
 *
 *   npx tsx scripts/identity-retouch.ts [--engine] [--faces] [--effect face-beauty|smart-skin-advanced] [--only NAME,...] [--variants NAME,...]
 *
 * Reads ../shared/testdata from the repository root (ATELIER_TESTDATA overrides); exits 2 without it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp, { type Sharp } from 'sharp';
import { effectModules } from '../engine/effects/registry.ts';
import type { RasterImage } from '../engine/image/raster.ts';
import type { Effect } from '../engine/pipeline/effect.ts';
import { runEffect } from '../engine/pipeline/run.ts';
import { ModelRegistry } from '../engine/vision/models/registry.ts';
import { engineDescriber, faceDescriber, half, iou, matchFaces, retouchPhotos, type Described, type EngineDescribed } from './retouch-identity.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
if (!existsSync(path.join(testdata, 'labels.json'))) {
  console.error(`identity-retouch: the shared test data is absent (looked in ${testdata}); nothing was measured.`);
  process.exit(2);
}
const args = process.argv.slice(2);
const perFace = args.includes('--faces');
const valueOf = (flag: string) => (args.indexOf(flag) >= 0 ? args[args.indexOf(flag) + 1] : undefined);
const slug = valueOf('--effect') ?? 'face-beauty', only = valueOf('--only')?.split(','), variants = valueOf('--variants')?.split(',');
const photos = retouchPhotos(testdata).filter((rel) => !only || only.some((o) => rel.includes(o)));
const models = new ModelRegistry({ threads: 2 });
const engine = args.includes('--engine');
const { described, similarity } = engine ? await engineDescriber(models) : await faceDescriber(models);

const raw = async (s: Sharp): Promise<RasterImage> => {
  const { data, info } = await s.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
};
const fromRaw = (m: RasterImage) => sharp(m.data, { raw: { width: m.width, height: m.height, channels: 3 } });

if (!effectModules[slug]) { console.error(`identity-retouch: no effect ${slug}`); process.exit(1); }
const effect = (await import(effectModules[slug])).default as Effect;
const opts = { models, signal: new AbortController().signal };
const retouched = (params: Record<string, unknown>) => async (m: RasterImage) => raw(sharp((await runEffect(effect, { image: m, params }, opts)).images.result.data));
const SKIN_FLAGS = ['acne_removal', 'spot_correction', 'skin_brightening', 'skin_smoothing', 'pore_control', 'wrinkle_reduction', 'under_eye_correction', 'scar_reduction'];
const RETOUCHES: Record<string, Record<string, Record<string, unknown>>> = {
  'face-beauty': {
    'beauty defaults': {}, 'beauty smooth=1': { sharp: 0, smooth: 1, white: 0 }, 'beauty white=1': { sharp: 0, smooth: 0, white: 1 },
    'beauty sharp=1': { sharp: 1, smooth: 0, white: 0 }, 'beauty all=1': { sharp: 1, smooth: 1, white: 1 },
  },
  'smart-skin-advanced': {
    'smart_skin': { smart_skin: 1 }, 'every flag': Object.fromEntries(SKIN_FLAGS.map((f) => [f, 1])),
    ...Object.fromEntries(SKIN_FLAGS.map((f) => [f, { [f]: 1 }])),
  },
};
const VARIANTS: Record<string, (m: RasterImage) => Promise<RasterImage>> = {
  'same pixels': async (m) => m,
  'jpeg 92': async (m) => raw(sharp(await fromRaw(m).jpeg({ quality: 92 }).toBuffer())),
  'jpeg 97 4:4:4': async (m) => raw(sharp(await fromRaw(m).jpeg({ quality: 97, chromaSubsampling: '4:4:4' }).toBuffer())),
  ...Object.fromEntries(Object.entries(RETOUCHES[slug] ?? {}).map(([name, params]) => [name, retouched(params)])),
};
const SIZES = [[0, 50], [50, 100], [100, 200], [200, Infinity]] as const;
const sizeOf = (w: number) => SIZES.findIndex(([a, b]) => w >= a && w < b);
type Cell = { n: number; lost: number; gender: number; sims: number[] };
const cells: Record<string, Cell> = {};
const cell = (k: string) => (cells[k] ??= { n: 0, lost: 0, gender: 0, sims: [] });

for (const rel of photos) {
  const h = half(rel);
  const before = await raw(sharp(path.join(testdata, rel)).rotate());
  const a = await described(before);
  for (const [name, make] of Object.entries(VARIANTS).filter(([n]) => !variants || variants.includes(n))) {
    let after: RasterImage;
    try { after = await make(before); } catch (e) { console.log(`${rel}\t${name}\t(${(e as Error).message})`); continue; }
    const b = await described(after);
    const pairs = engine ? matchFaces(a.map((f) => f.box), b.map((f) => f.box)) : null;
    for (const [i, f] of a.entries()) {
      const k = `${name}\t${h}\t${SIZES[sizeOf(f.box[2])].join('-')}`, c = cell(k);
      c.n++;
      const g: Described | EngineDescribed | undefined = pairs ? b[pairs[i]]
        : (b as Described[]).reduce<Described | undefined>((best, x) => (iou(x.box, f.box) > (best ? iou(best.box, f.box) : 0.5) ? x : best), undefined);
      if (!g) {
        c.lost++;
        if (perFace) console.log([rel, name, `${Math.round(f.box[2])}px`, `${f.gender} p ${f.male.toFixed(3)} -> lost (boxes ${b.map((x) => `${x.box.map(Math.round).join(',')} iou ${iou(x.box, f.box).toFixed(2)}`).join('; ')})`].join('\t'));
        continue;
      }
      const sim = similarity(f.embedding, g.embedding);
      if (g.gender !== f.gender) c.gender++;
      c.sims.push(sim);
      if (perFace) console.log([rel, name, `${Math.round(f.box[2])}px`, `${f.gender} p ${f.male.toFixed(3)} -> ${g.gender} p ${g.male.toFixed(3)}`, sim.toFixed(3)].join('\t'));
    }
  }
}
console.log(['variant', 'half', 'face px', 'faces', 'lost', 'gender changed', 'sim min', 'sim median'].join('\t'));
for (const [k, c] of Object.entries(cells).sort(([x], [y]) => x.localeCompare(y))) {
  const s = [...c.sims].sort((x, y) => x - y);
  console.log([k, c.n, c.lost, c.gender, s.length ? s[0].toFixed(3) : '-', s.length ? s[s.length >> 1].toFixed(3) : '-'].join('\t'));
}
process.exit(0);
