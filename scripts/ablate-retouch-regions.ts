/**
 * Where and at what scale a retouch moves one face's gender and likeness: the effect's change (after - before)
 * put back on the photo only inside one canonical zone of the face (face-regions.ts), or only outside it, or
 * only in one band (finer or broader than `sigma` px), or only its luma or only its chroma, or only where it
 * brightened or darkened; each composite measured by Atelier's own face pipeline (retouch-identity.ts
 * engineDescriber: p(male) and the descriptor's similarity, as quality-retouch decides identity) and by
 * quality-retouch's cheek figure (high-band energy at sigma 1 % of the face width on the mesh's cheeks where
 * the parsing sees skin, after / before). The parts need not add up (the models are not linear), but a zone
 * or band alone taking most of the drop says where to look; the cheek column says what that zone costs the
 * smoothing target.
 *
 *   npx tsx scripts/ablate-retouch-regions.ts PHOTO SLUG PARAMS_JSON X,Y
 * (PHOTO relative to the test data; X,Y: the face whose box corner is nearest, as quality-retouch prints it.)
 *
 * Reads ../shared/testdata from the repository root (ATELIER_TESTDATA overrides); exits 2 without it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { effectModules } from '../engine/effects/registry.ts';
import { lumaPlane } from '../engine/image/luma.ts';
import type { RasterImage } from '../engine/image/raster.ts';
import { bandEnergy, blurPlane, splitBands } from '../engine/image/frequency.ts';
import type { Effect } from '../engine/pipeline/effect.ts';
import { jobFacts } from '../engine/pipeline/facts.ts';
import { runEffect } from '../engine/pipeline/run.ts';
import { ModelRegistry } from '../engine/vision/models/registry.ts';
import { classMask } from '../engine/vision/parsing/face-parsing.ts';
import { faceRegions, type RegionName } from '../engine/vision/regions/face-regions.ts';
import { meshFaceWidth } from '../engine/vision/regions/skin-mask.ts';
import { engineDescriber, iou } from './retouch-identity.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
if (!existsSync(path.join(testdata, 'labels.json'))) {
  console.error(`ablate-retouch-regions: the shared test data is absent (looked in ${testdata}); nothing was measured.`);
  process.exit(2);
}
const [photo, slug, paramsJson, at] = process.argv.slice(2);
if (!photo || !effectModules[slug] || !paramsJson || !at) {
  console.error('usage: ablate-retouch-regions.ts PHOTO SLUG PARAMS_JSON X,Y');
  process.exit(1);
}
const [ax, ay] = at.split(',').map(Number);

const models = new ModelRegistry({ threads: 2 });
const id = await engineDescriber(models);
const raw = async (src: Buffer | string): Promise<RasterImage> => {
  const { data, info } = await sharp(src).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
};
const before = await raw(path.join(testdata, photo));
const effect = (await import(effectModules[slug])).default as Effect;
const after = await raw((await runEffect(effect, { image: before, params: JSON.parse(paramsJson) }, { models, signal: new AbortController().signal })).images.result.data);
const W = before.width, H = before.height, n = W * H;
const facts = jobFacts(before, models);
const near = (x: number, y: number) => Math.hypot(x - ax, y - ay);
const faces = (await facts.faces({ meshFaces: 5 })).filter((f) => f.mesh);
if (!faces.length) { console.error('ablate-retouch-regions: no meshed face'); process.exit(1); }
const face = faces.reduce((b, f) => (near(f.box.x0, f.box.y0) < near(b.box.x0, b.box.y0) ? f : b));
const described = await id.described(before);
const target = described.reduce((b, f) => (near(f.box[0], f.box[1]) < near(b.box[0], b.box[1]) ? f : b));
const fw = meshFaceWidth(face.mesh!);
console.log(`${photo} ${slug} ${paramsJson}: face ${Math.round(fw)} px wide, p(male) before ${target.male.toFixed(3)} (maleAt ${id.maleAt})`);

const ZONES: RegionName[] = ['leftCheek', 'rightCheek', 'leftUnderEye', 'rightUnderEye', 'nose', 'forehead', 'tZone', 'chin', 'jaw', 'beard', 'moustache', 'faceOval'];
const r = faceRegions(face, before, before, ZONES);
const zone = (names: RegionName[]) => {
  const p = new Float32Array(n);
  for (const name of names) { const d = r[name]!.data; for (let i = 0; i < n; i++) p[i] = Math.max(p[i], d[i] / 255); }
  return p;
};
const skin = classMask(await facts.parsing(face), ['skin'], before).data;
const cheeks = new Float32Array(n), cz = zone(['leftCheek', 'rightCheek']);
for (let i = 0; i < n; i++) cheeks[i] = cz[i] >= 0.5 && skin[i] >= 128 ? 1 : 0;
const sigma = Math.max(1, 0.01 * fw), highBefore = splitBands(lumaPlane(before.data, W, H, 3), W, H, sigma).high;

const change = [0, 1, 2].map((c) => { const d = new Float32Array(n); for (let i = 0; i < n; i++) d[i] = after.data[i * 3 + c] - before.data[i * 3 + c]; return d; });
const lumaChange = new Float32Array(n);
for (let i = 0; i < n; i++) lumaChange[i] = 0.299 * change[0][i] + 0.587 * change[1][i] + 0.114 * change[2][i];

/** before + weight x (one band of) the change, per channel (`pick` may replace a channel's change). */
async function measure(name: string, weight: Float32Array | null, band?: { fine: boolean; sigma: number }, pick?: (c: number, i: number) => number): Promise<void> {
  const out = Buffer.from(before.data);
  for (let c = 0; c < 3; c++) {
    let d: Float32Array<ArrayBufferLike> = pick ? change[c].map((_, i) => pick(c, i)) : change[c];
    if (band) { const b = blurPlane(d, W, H, band.sigma); d = band.fine ? d.map((v, i) => v - b[i]) : b; }
    for (let i = 0; i < n; i++) out[i * 3 + c] = Math.max(0, Math.min(255, Math.round(before.data[i * 3 + c] + (weight ? weight[i] : 1) * d[i])));
  }
  const highAfter = splitBands(lumaPlane(out, W, H, 3), W, H, sigma).high;
  const got = (await id.described({ ...before, data: out })).find((f) => iou(f.box, target.box) > 0.5);
  console.log([name.padEnd(36), got ? `p(male) ${got.male.toFixed(3)}` : 'lost', `cheeks ${(bandEnergy(highAfter, cheeks) / bandEnergy(highBefore, cheeks)).toFixed(2)}`,
    got ? `similarity ${id.similarity(target.embedding, got.embedding).toFixed(3)}` : ''].join('\t'));
}
const not = (p: Float32Array) => p.map((v) => 1 - v);
await measure('all', null);
for (const s of [1, 2]) {
  await measure(`finer than ${s} px`, null, { fine: true, sigma: s });
  await measure(`broader than ${s} px`, null, { fine: false, sigma: s });
}
await measure('luma only', null, undefined, (_c, i) => lumaChange[i]);
await measure('chroma only', null, undefined, (c, i) => change[c][i] - lumaChange[i]);
await measure('where brightened', null, undefined, (c, i) => (lumaChange[i] > 0 ? change[c][i] : 0));
await measure('where darkened', null, undefined, (c, i) => (lumaChange[i] < 0 ? change[c][i] : 0));
const groups: [string, RegionName[]][] = [['cheeks', ['leftCheek', 'rightCheek']], ['under-eyes', ['leftUnderEye', 'rightUnderEye']], ['nose', ['nose']],
  ['forehead', ['forehead']], ['tZone', ['tZone']], ['chin, jaw, beard, moustache', ['chin', 'jaw', 'beard', 'moustache']]];
for (const [name, names] of groups) {
  const z = zone(names);
  await measure(`${name} only`, z);
  await measure(`all but ${name}`, not(z));
}
// The outline: the face oval's outer band, about 4 % of the face width deep.
const oval = zone(['faceOval']), inner = blurPlane(oval, W, H, 0.04 * fw), outline = oval.map((v, i) => (v > 0.5 && inner[i] < 0.9 ? 1 : 0));
await measure('outline only', outline);
await measure('all but outline', not(outline));
process.exit(0);
