/**
 * Which part of a beard removal costs identity: per bearded photo, the removal's result with the photo's own
 * pixels pasted back region by region (lips, upper lip, each cheek above and below the mouth corners, chin,
 * jaw line, under the jaw), and the engine's and human's descriptor similarity of each hybrid to the photo
 * (scripts/retouch-identity.ts); the region whose paste-back raises the similarity most is what reads as a
 * different face. Also each region alone (the photo with only that region's removal kept). A contact sheet
 * of the lower faces (4x: before, after, the regions coloured) beside.
 *
 *   [RT='{...}'] npx tsx scripts/beard-region-ablation.ts OUT_DIR REL [REL ...]
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';
import { effectModules } from '../engine/effects/registry.ts';
import type { RasterImage } from '../engine/image/raster.ts';
import { removalTuning } from '../engine/looks/beard/removal.ts';
import type { Effect } from '../engine/pipeline/effect.ts';
import { jobFacts } from '../engine/pipeline/facts.ts';
import { runEffect } from '../engine/pipeline/run.ts';
import { ModelRegistry } from '../engine/vision/models/registry.ts';
import { BEARD_PARSING, BEARD_REGIONS, beardMask } from '../engine/looks/beard/mask.ts';
import { meshFaceWidth } from '../engine/vision/regions/skin-mask.ts';
import { engineDescriber, faceDescriber } from './retouch-identity.ts';

const [out, ...rels] = process.argv.slice(2);
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(import.meta.dirname, '../../shared/testdata');
Object.assign(removalTuning, JSON.parse(process.env.RT ?? '{}'));
mkdirSync(out, { recursive: true });
const models = new ModelRegistry({ threads: 2 });
const effect = (await import(effectModules['ai-beard-removal'])).default as Effect;
const engineId = await engineDescriber(models), humanId = await faceDescriber(models);

const REGIONS = ['lips', 'upper lip', 'left cheek high', 'left cheek low', 'right cheek high', 'right cheek low', 'chin', 'jaw line', 'under jaw'] as const;
type Region = (typeof REGIONS)[number];

for (const rel of rels) {
  const { data, info } = await sharp(path.join(testdata, rel)).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const before: RasterImage = { data, width: info.width, height: info.height, channels: 3 };
  const res = await runEffect(effect, { image: before, params: {} }, { models, signal: new AbortController().signal });
  const a = await sharp(res.images.result.data).removeAlpha().raw().toBuffer();
  const after: RasterImage = { ...before, data: a };
  const W = before.width, H = before.height;
  const facts = jobFacts(before, models);
  const faces = (await facts.faces()).slice(0, 5).filter((f) => f.mesh);
  // Each changed pixel's region, by the face it belongs to (the first whose window holds it).
  const region = new Array<Region | null>(W * H).fill(null);
  for (const face of faces) {
    const m = beardMask(before, face, await facts.parsing(face, BEARD_PARSING), facts.regions(face, BEARD_REGIONS));
    if (!m) continue;
    const mesh = face.mesh!, fw = meshFaceWidth(mesh);
    const [cl, cr] = [mesh[61], mesh[291]];
    const left = Math.min(cl[0], cr[0]), right = Math.max(cl[0], cr[0]);
    for (let y = 0; y < m.win.h; y++) for (let x = 0; x < m.win.w; x++) {
      const i = y * m.win.w + x, X = m.win.x0 + x, Y = m.win.y0 + y, o = Y * W + X;
      if (region[o]) continue;
      const changed = [0, 1, 2].some((c) => before.data[o * 3 + c] !== after.data[o * 3 + c]);
      if (!changed) continue;
      // Signed side of the mouth-corner line (below > 0).
      const below = (cr[0] - cl[0]) * (Y - cl[1]) - (cr[1] - cl[1]) * (X - cl[0]);
      const sideways = X < left - 0.02 * fw || X > right + 0.02 * fw;
      let r: Region;
      if (m.vermilion[i] > 0.2) r = 'lips';
      else if (Math.abs(m.inside[i] - 0.5) < 0.45) r = 'jaw line';
      else if (m.inside[i] <= 0.5) r = 'under jaw';
      else {
        const under = (cr[0] > cl[0] ? below : -below) >= 0;
        // Left and right as the photo shows them.
        if (sideways) r = `${X < left ? 'left' : 'right'} cheek ${under ? 'low' : 'high'}` as Region;
        else r = under ? 'chin' : 'upper lip';
      }
      region[o] = r;
    }
  }
  const hybrid = (keepOriginal: (r: Region) => boolean): RasterImage => {
    const o: RasterImage = { ...after, data: Buffer.from(after.data) };
    for (let i = 0; i < W * H; i++) { const r = region[i]; if (r && keepOriginal(r)) for (let c = 0; c < 3; c++) o.data[i * 3 + c] = before.data[i * 3 + c]; }
    return o;
  };
  const sims = async (img: RasterImage) => {
    const e = await engineId.identity(before, img), h = await humanId.identity(before, img);
    return `engine ${e.minSim.toFixed(3)}  human ${h.minSim.toFixed(3)}`;
  };
  const counts = Object.fromEntries(REGIONS.map((r) => [r, region.filter((v) => v === r).length]));
  console.log(`${rel}: changed pixels by region ${JSON.stringify(counts)}`);
  console.log(`  removal as is                     ${await sims(after)}`);
  for (const r of REGIONS) console.log(`  ${`${r} pasted back`.padEnd(34)}${await sims(hybrid((x) => x === r))}`);
  for (const r of REGIONS) console.log(`  ${`only ${r} removed`.padEnd(34)}${await sims(hybrid((x) => x !== r))}`);

  // Sheet: lower face before | after | regions coloured, 2x per face.
  const colours: Record<Region, [number, number, number]> = { lips: [255, 0, 160], 'upper lip': [255, 220, 0], 'left cheek high': [0, 200, 255], 'left cheek low': [0, 90, 255], 'right cheek high': [0, 255, 220], 'right cheek low': [0, 140, 140], chin: [0, 255, 80], 'jaw line': [255, 80, 0], 'under jaw': [150, 90, 255] };
  const painted: RasterImage = { ...after, data: Buffer.from(after.data) };
  for (let i = 0; i < W * H; i++) { const r = region[i]; if (r) for (let c = 0; c < 3; c++) painted.data[i * 3 + c] = Math.round(0.5 * painted.data[i * 3 + c] + 0.5 * colours[r][c]); }
  const comp: OverlayOptions[] = [];
  const Z = 4;
  let top = 0, width = 0;
  for (const face of faces) {
    const mesh = face.mesh!, fw = meshFaceWidth(mesh);
    const s = Math.round(0.9 * fw);
    const box = { left: Math.max(0, Math.min(W - s, Math.round(mesh[17][0] - s / 2))), top: Math.max(0, Math.min(H - s, Math.round(mesh[17][1] + 0.1 * fw - s / 2))), width: s, height: s };
    for (const [k, im] of [before, after, painted].entries()) comp.push({ input: await sharp(im.data, { raw: { width: W, height: H, channels: 3 } }).extract(box).resize(s * Z, s * Z, { kernel: 'lanczos3' }).png().toBuffer(), left: k * s * Z, top });
    top += s * Z; width = Math.max(width, 3 * s * Z);
  }
  const file = path.join(out, `ablation_${path.basename(rel).replace(/\./g, '_')}.png`);
  await sharp({ create: { width: Math.max(1, width), height: Math.max(1, top), channels: 3, background: '#202020' } }).composite(comp).png().toFile(file);
  console.log(`  sheet ${file}`);
}
