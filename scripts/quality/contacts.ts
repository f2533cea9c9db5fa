/**
 * Quality of ai-colored-contacts on the shared portraits and landmark photos (issue targets on both halves):
 * spill ≤ 0.2 % (pixels changed by more than 12 outside the eye openings grown by 6 % of the face width),
 * coverage ≥ 8 % of eye-opening pixels changed, and the changed pixels nearer the lens colour (ΔE2000) after
 * than before. Several lens texts per photo. Writes before/after eye crops per photo and lens into --out
 * (default /tmp/quality-contacts) to be looked at.
 *
 * The split is by file name, fixed before anything was measured: sha1(path) first byte even = fit, odd =
 * check (scripts/datasets/face-parts-data.ts). Reads ../shared/testdata (ATELIER_TESTDATA overrides); exits 2 without it.
 *
 *   npm run quality:contacts -- [--out DIR]
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import {
  coloredContactsEffect as effect, type ContactsMeasure, detectFaces, type HumanLike, type Lens, measureContacts,
  ModelRegistry, readLens, runEffect
} from '../../engine/for-scripts.ts';
import { half, loadImage, type Half } from '../datasets/face-parts-data.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
if (!existsSync(path.join(testdata, 'portraits'))) {
  console.error(`quality-contacts: the shared test data is absent (looked in ${testdata}); nothing was measured.`);
  process.exit(2);
}
const { values: opts } = parseArgs({ options: { out: { type: 'string', default: '/tmp/quality-contacts' } } });
mkdirSync(opts.out!, { recursive: true });

const TEXTS = ['', 'Ocean Blue', 'subtle hazel with a dark limbal ring', 'grey', 'vivid emerald'];
const list = (dir: string) => readdirSync(path.join(testdata, dir)).filter((f) => /\.(jpe?g|png)$/i.test(f)).sort().map((f) => `${dir}/${f}`);
const photos = [...list('portraits'), ...list('landmarks')];

const models = new ModelRegistry({ threads: 2 });
const human = await models.get<HumanLike>('human');
interface Row { rel: string; half: Half; text: string; m: ContactsMeasure; ms: number }
const rows: Row[] = [];
let faceless = 0;
console.log(['photo', 'half', 'lens', 'spill %', 'coverage %', 'ΔE before', 'ΔE after', 'ms'].join('\t'));
for (const rel of photos) {
  const image = await loadImage(testdata, rel);
  const faces = (await detectFaces(human, image, { maxFaces: 5 })).filter((f) => f.mesh);
  if (faces.length === 0) { faceless++; continue; }
  const crops: Buffer[] = [];
  for (const text of TEXTS) {
    const lens = readLens(text) as Lens;
    const t0 = performance.now();
    const out = await runEffect(effect, { image, params: { name: text || undefined } as never }, { models, signal: new AbortController().signal });
    const ms = performance.now() - t0;
    const after = await sharp(out.images.result.data).removeAlpha().raw().toBuffer();
    const m = measureContacts(image, after, faces, lens.hex);
    rows.push({ rel, half: half(rel), text, m, ms });
    console.log([rel, half(rel), text || '(none)', (m.spill * 100).toFixed(3), (m.coverage * 100).toFixed(1), m.deltaBefore.toFixed(1), m.deltaAfter.toFixed(1), Math.round(ms)].join('\t'));
    crops.push(await eyeCrop(after, image, faces[0]));
  }
  const original = await eyeCrop(image.data, image, faces[0]);
  const strip = [original, ...crops];
  const meta = await sharp(original).metadata();
  await sharp({ create: { width: meta.width!, height: (meta.height! + 4) * strip.length, channels: 3, background: '#fff' } })
    .composite(strip.map((input, i) => ({ input, left: 0, top: i * (meta.height! + 4) })))
    .png().toFile(path.join(opts.out!, rel.replace(/[^\w.-]/g, '_') + '.png'));
}

/** The largest face's eyes, 600 px wide. */
async function eyeCrop(pixels: Uint8Array, image: { width: number; height: number; channels: number }, face: { mesh?: number[][] }): Promise<Buffer> {
  const m = face.mesh!;
  const xs = [33, 133, 263, 362].map((i) => m[i][0]), ys = [159, 145, 386, 374].map((i) => m[i][1]);
  const w = Math.max(...xs) - Math.min(...xs);
  const left = Math.max(0, Math.round(Math.min(...xs) - 0.15 * w)), top = Math.max(0, Math.round(Math.min(...ys) - 0.2 * w));
  const width = Math.min(image.width - left, Math.round(1.3 * w)), height = Math.min(image.height - top, Math.round(0.4 * w + (Math.max(...ys) - Math.min(...ys))));
  return sharp(pixels, { raw: { width: image.width, height: image.height, channels: image.channels as 3 } })
    .extract({ left, top, width: Math.max(1, width), height: Math.max(1, height) }).resize({ width: 600 }).png().toBuffer();
}

console.log(`\n${photos.length} photos, ${faceless} without a meshed face (skipped); eye crops in ${opts.out}`);
for (const h of ['fit', 'check'] as const) {
  const r = rows.filter((x) => x.half === h);
  if (!r.length) continue;
  const worstSpill = Math.max(...r.map((x) => x.m.spill));
  const spillOk = r.filter((x) => x.m.spill <= 0.002).length;
  const covOk = r.filter((x) => x.m.coverage >= 0.08).length;
  const toward = r.filter((x) => x.m.deltaAfter < x.m.deltaBefore).length;
  const ms = r.map((x) => x.ms).sort((a, b) => a - b);
  console.log(`${h.padEnd(5)} ${r.length} runs on ${new Set(r.map((x) => x.rel)).size} photos: spill ≤ 0.2 % on ${spillOk} (worst ${(worstSpill * 100).toFixed(3)} %), coverage ≥ 8 % on ${covOk} (median ${(r.map((x) => x.m.coverage).sort((a, b) => a - b)[r.length >> 1] * 100).toFixed(1)} %), toward the lens on ${toward}; effect median ${Math.round(ms[ms.length >> 1])} ms`);
}
