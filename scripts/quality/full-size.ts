/**
 * Full resolution for in-place face edits (issue 37, item 1): how close the studio's residual upsampling (the
 * engine's change on a fitted copy, enlarged and added to the original; src/features/gallery/utils/residual.ts)
 * comes to the engine's own result on the photo at full size, which an engine with raised limits gives.
 *   npx tsx scripts/quality/full-size.ts [--sigma 12,24,48]
 * The fitted copy is the photo scaled by 1999/4032 (the default engine's fit of a phone photo) and sent as JPEG
 * 0.92, as the studio's browser fit does. Scored per photo and effect as MAE (0..255, RGB) against the engine's
 * full-size result: in the edited region (pixels the full-size edit moved by more than 6 in some channel) and
 * outside it. `enlarged` is what the studio gave before: the engine's small result brought up (Lanczos).
 * Split by file: sorted portraits, even positions fit, odd check; sigma is chosen on fit only.
 * Data: ATELIER_TESTDATA or ../shared/testdata beside the repository (portraits/ with a long side ≥ 900 px).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { effectModules, type Effect, ModelRegistry, type RasterImage, runEffect } from '../../engine/for-scripts.ts';
import { addResidual, type ResidualOptions } from '../../src/features/gallery/utils/residual.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const FIT = 1999 / 4032;
const EDITED = 6;
const arg = process.argv.indexOf('--sigma');
const sigmas = arg > 0 ? process.argv[arg + 1].split(',').map(Number) : [12, 24, 48];

const models = new ModelRegistry({ threads: 2 });
const kit = { models, signal: new AbortController().signal };
const effect = async (slug: string) => (await import(effectModules[slug])).default as Effect<unknown>;
const EFFECTS: [string, string, unknown][] = [
  ['face beauty', 'face-beauty', { sharp: 0.3, smooth: 0.5, white: 0.3 }],
  ['lip colour', 'lips-color-changer', { lip_color_infos: [{ rgba: { r: 176, g: 32, b: 64, a: 80 } }] }],
];

interface Rgba { data: Uint8Array; width: number; height: number }
const rgba = async (input: Buffer, raw?: { width: number; height: number; channels: 3 }): Promise<Rgba> => {
  const { data, info } = await sharp(input, raw ? { raw } : {}).removeAlpha().ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
};
const rgb = (p: Rgba): RasterImage => {
  const out = Buffer.alloc(p.width * p.height * 3);
  for (let i = 0, j = 0; j < p.data.length; i += 3, j += 4) { out[i] = p.data[j]; out[i + 1] = p.data[j + 1]; out[i + 2] = p.data[j + 2]; }
  return { data: out, width: p.width, height: p.height, channels: 3 };
};

/** MAE (RGB) of `a` against `b`, inside and outside the region where `truth` moved `orig` by more than EDITED. */
function score(a: Uint8Array | Uint8ClampedArray, truth: Rgba, orig: Rgba) {
  let inSum = 0, inN = 0, outSum = 0, outN = 0;
  for (let j = 0; j < truth.data.length; j += 4) {
    const moved = Math.max(Math.abs(truth.data[j] - orig.data[j]), Math.abs(truth.data[j + 1] - orig.data[j + 1]), Math.abs(truth.data[j + 2] - orig.data[j + 2]));
    const e = (Math.abs(a[j] - truth.data[j]) + Math.abs(a[j + 1] - truth.data[j + 1]) + Math.abs(a[j + 2] - truth.data[j + 2])) / 3;
    if (moved > EDITED) { inSum += e; inN++; } else { outSum += e; outN++; }
  }
  return { edited: inN ? inSum / inN : 0, rest: outN ? outSum / outN : 0, share: inN / (inN + outN) };
}

const files = readdirSync(path.join(testdata, 'portraits')).filter((f) => /\.(jpe?g|png)$/i.test(f)).sort();
const variants = ['enlarged', 'bilinear', ...sigmas.map((s) => `edge σ${s}`)];
const table: { file: string; half: 'fit' | 'check'; effect: string; scores: Record<string, ReturnType<typeof score>> }[] = [];
let position = 0;
for (const file of files) {
  const buf = await sharp(path.join(testdata, 'portraits', file)).rotate().toBuffer();
  const meta = await sharp(buf).metadata();
  if (Math.max(meta.width ?? 0, meta.height ?? 0) < 900) continue;
  const half = position++ % 2 === 0 ? 'fit' : 'check';
  const orig = await rgba(buf);
  const w = Math.round(orig.width * FIT), h = Math.round(orig.height * FIT);
  const sentJpeg = await sharp(buf).removeAlpha().resize(w, h, { kernel: 'lanczos3' }).jpeg({ quality: 92 }).toBuffer();
  const sent = await rgba(sentJpeg);
  for (const [name, slug, params] of EFFECTS) {
    const fx = await effect(slug);
    let full: Rgba, small: Rgba;
    try {
      full = await rgba((await runEffect(fx, { image: rgb(orig), params }, kit)).images.result.data);
      small = await rgba((await runEffect(fx, { image: rgb(sent), params }, kit)).images.result.data);
    } catch (e) {
      console.log(`${half.padEnd(5)} ${file.padEnd(44)} ${name.padEnd(11)} skipped: ${(e as Error).message}`);
      continue;
    }
    const enlarged = (await sharp(small.data, { raw: { width: w, height: h, channels: 4 } }).resize(orig.width, orig.height, { fit: 'fill', kernel: 'lanczos3' }).raw().toBuffer()) as Uint8Array;
    const run = (o: ResidualOptions) => addResidual(orig, sent, small, o);
    const scores: Record<string, ReturnType<typeof score>> = { enlarged: score(enlarged, full, orig), bilinear: score(run({ sigma: 0 }), full, orig) };
    for (const s of sigmas) scores[`edge σ${s}`] = score(run({ sigma: s }), full, orig);
    table.push({ file, half, effect: name, scores });
    console.log(`${half.padEnd(5)} ${file.padEnd(44)} ${name.padEnd(11)} edited ${(100 * scores.enlarged.share).toFixed(1)}%  ` +
      variants.map((v) => `${v} ${scores[v].edited.toFixed(2)}/${scores[v].rest.toFixed(2)}`).join('  '));
  }
}

console.log(`\nMAE against the engine's full-size result (0..255), edited region / rest, mean over photos:`);
for (const half of ['fit', 'check'] as const) {
  for (const [name] of EFFECTS) {
    const rows = table.filter((r) => r.half === half && r.effect === name);
    if (!rows.length) continue;
    const mean = (v: string, k: 'edited' | 'rest') => rows.reduce((s, r) => s + r.scores[v][k], 0) / rows.length;
    console.log(`${half.padEnd(5)} ${name.padEnd(11)} (${rows.length} photos)  ` + variants.map((v) => `${v} ${mean(v, 'edited').toFixed(2)}/${mean(v, 'rest').toFixed(2)}`).join('  '));
  }
}
process.exit(0);
