/**
 * Hair loss at a few levels on a few photos, the largest face's head at 100 % (before | levels), with the
 * dome's colour against the forehead's, for looking at one change quickly.
 *
 *   npx tsx scripts/render/hair-loss-crops.ts OUTDIR LEVELS PHOTO...   (LEVELS: man_6,woman_7; PHOTO relative to the test data)
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp, { type OverlayOptions } from 'sharp';
import { type Ctx, fromHead, hairLossEffect as effect, type HairLossParams as P, headFrame, jobFacts, ModelRegistry, type RasterImage, runStep, scalpMeasures } from '../../engine/for-scripts.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const [out, levelArg, ...photos] = process.argv.slice(2);
if (!out || !levelArg || !photos.length) { console.error('usage: hair-loss-crops.ts OUTDIR LEVELS PHOTO...'); process.exit(2); }
mkdirSync(out, { recursive: true });
const models = new ModelRegistry({ threads: 2 });
const kit = { models, signal: new AbortController().signal };
const raw = async (buf: Buffer | string) => {
  const { data, info } = await sharp(buf).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 } as RasterImage;
};
for (const rel of photos) {
  const before = await raw(path.join(testdata, rel));
  const facts = jobFacts(before, models);
  const face = (await facts.faces()).find((f) => f.mesh);
  if (!face) { console.log(`${rel}: no face`); continue; }
  const f = headFrame(face.mesh!);
  const [cx, cy] = fromHead(f, f.mid, 0.6);
  const side = Math.min(before.width, before.height, 520, Math.round(3.6 * f.halfWidth));
  const crop = { left: Math.max(0, Math.min(before.width - side, Math.round(cx - side / 2))), top: Math.max(0, Math.min(before.height - side, Math.round(cy - side / 2))), width: side, height: side };
  const tile = (img: RasterImage) => sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } }).extract(crop).png().toBuffer();
  const tiles = [await tile(before)];
  for (const level of levelArg.split(',')) {
    const c: Ctx<P, object> = { image: before, images: {}, params: { level }, state: {}, facts, output: { images: {} } };
    const t0 = Date.now(), c0 = process.cpuUsage();
    for (const step of effect.steps) await runStep(step, c, kit);
    const ms = Date.now() - t0, cpu = process.cpuUsage(c0), cpuMs = Math.round((cpu.user + cpu.system) / 1000);
    const after = await raw(c.output.images.result.data as Buffer);
    const m = scalpMeasures(before, after, f);
    console.log(`${rel} ${level}: ${ms} ms (CPU ${cpuMs} ms), dome ΔE ${m.colourDE.toFixed(1)} (a*b* ${m.chromaDE.toFixed(1)}, hue ${m.hueDiff.toFixed(1)}°; Lab ${m.scalpLab.map((v) => v.toFixed(1))} vs ${m.foreheadLab.map((v) => v.toFixed(1))}), fine ${m.ratio.toFixed(2)}, side fall-off ${m.shadeScalp.toFixed(3)} vs ${m.shadeForehead.toFixed(3)}, top |ΔL| ${m.topShift.toFixed(1)}`);
    tiles.push(await tile(after));
  }
  const comp: OverlayOptions[] = tiles.map((t, i) => ({ input: t, left: i * side, top: 0 }));
  const file = path.join(out, `${path.basename(rel).replace(/\.\w+$/, '')}.png`);
  await sharp({ create: { width: tiles.length * side, height: side, channels: 3, background: '#202020' } }).composite(comp).png().toFile(file);
  console.log(`  ${file}`);
}
process.exit(0);
