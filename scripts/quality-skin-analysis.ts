/**
 * Proof of the skin analysis, two ways (no labelled skin dataset ships here):
 *
 *  1. Synthetic ground truth: acne, closed comedones, moles, skin spots and forehead wrinkles of known
 *     size and place rendered into real skin of the shared portraits (engine/vision/skin/synthetic.ts),
 *     three seeds a photo; precision and recall per kind. A detection counts as new only where the clean
 *     photo had none of that kind within 1.5 mm (real findings are neither hits nor false alarms).
 *     Photos whose face is at least 1.2 px/mm (the quality gate's minimum) at their own size, and the
 *     smaller faces enlarged 2x.
 *  2. Consistency: on the UTKFace chips (ages in file names), split by file name with half() of
 *     scripts/face-parts-data.ts, per half: wrinkle flags among children (≤ 12) and among faces ≥ 50,
 *     skin_age by age group and its MAE; the same faces at two resolutions and after JPEG re-encoding,
 *     the share of codes that stay the same.
 *
 *   npm run quality:skin-analysis [-- --fit]   (--fit: least squares of the skin-age model on the fit half)
 *
 * Reads ../shared/testdata from the repository root (ATELIER_TESTDATA overrides); exits 2 without it.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { RasterImage } from '../engine/image/raster.ts';
import type { Face } from '../engine/vision/faces/detect.ts';
import { ModelRegistry } from '../engine/vision/models/registry.ts';
import type { FaceParsing } from '../engine/vision/parsing/face-parsing.ts';
import { AGE_MODEL, analyseSkin, eyeArea, labFrame, sharpness, LESION_KINDS, LINES, makeFrame, skinAgeOf, type MemberName, type SkinAnalysis } from '../engine/vision/skin/analyse.ts';
import { toImage } from '../engine/vision/skin/frame.ts';
import { renderSynthetic, type Synthetic, type SyntheticKind } from '../engine/vision/skin/synthetic.ts';
import { half } from './face-parts-data.ts';
import { faceData, rasterOf, utkAge } from './skin-analysis-data.ts';
import { seededRandom } from '../engine/image/random.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
if (!existsSync(path.join(testdata, 'labels.json'))) {
  console.error(`quality-skin-analysis: the shared test data is absent (looked in ${testdata}); nothing was measured.`);
  process.exit(2);
}
const FIT = process.argv.includes('--fit');
const models = new ModelRegistry({ threads: 2 });

async function analyse(image: RasterImage, face: Face, parsing: FaceParsing): Promise<SkinAnalysis> {
  const f = await makeFrame(image, face);
  return analyseSkin(f, face, parsing, labFrame(f));
}


// ---------- 1. synthetic ground truth ----------
const SIZES: Record<SyntheticKind, [number, number]> = { acne: [0.8, 2], closed_comedones: [0.5, 1.1], mole: [0.8, 2.2], skin_spot: [1.5, 3.5], wrinkle: [8, 14] };
const COUNT: Record<SyntheticKind, number> = { acne: 3, closed_comedones: 3, mole: 2, skin_spot: 3, wrinkle: 2 };

/** Places findings on skin (frame zone ≥ 0.5 all around), ≥ 4 mm apart; wrinkles across the forehead. */
function place(a: SkinAnalysis, seed: number): Synthetic[] {
  const r = seededRandom(seed), f = a.frame, out: Synthetic[] = [];
  const at = (zone: Float32Array, x: number, y: number) => x >= 0 && y >= 0 && x < f.w && y < f.h && zone[Math.round(y) * f.w + Math.round(x)] >= 0.5;
  for (const kind of ['wrinkle', 'mole', 'skin_spot', 'acne', 'closed_comedones'] as SyntheticKind[]) {
    for (let n = 0, tries = 0; n < COUNT[kind] && tries < 4000; tries++) {
      const size = SIZES[kind][0] + r() * (SIZES[kind][1] - SIZES[kind][0]);
      const x = r() * f.w, y = r() * f.h;
      const zone = kind === 'wrinkle' ? a.zones.forehead : a.zones.skin;
      const reach = (kind === 'wrinkle' ? size : size * 2.6 + 1) * f.s;
      const ok = kind === 'wrinkle'
        ? [-1, -0.5, 0, 0.5, 1].every((t) => at(zone, x + Math.cos(f.roll) * t * reach, y + Math.sin(f.roll) * t * reach) && at(zone, x, y - 3 * f.s) && at(zone, x, y + 3 * f.s))
        : [[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1], [0.7, 0.7], [-0.7, 0.7], [0.7, -0.7], [-0.7, -0.7]].every(([dx, dy]) => at(zone, x + dx * reach, y + dy * reach));
      if (!ok) continue;
      const [ix, iy] = toImage(f, x, y);
      if (out.some((o) => Math.hypot(o.x - ix, o.y - iy) / f.pxPerMm < (o.kind === 'wrinkle' || kind === 'wrinkle' ? 6 : 4) + o.size + size)) continue;
      out.push({ kind, x: ix, y: iy, size, angle: kind === 'wrinkle' ? f.roll : undefined });
      n++;
    }
  }
  return out;
}

interface Tally { tp: number; fn: number; fp: number }
const tally = (): Record<SyntheticKind, Tally> => Object.fromEntries((['acne', 'closed_comedones', 'mole', 'skin_spot', 'wrinkle'] as SyntheticKind[]).map((k) => [k, { tp: 0, fn: 0, fp: 0 }])) as Record<SyntheticKind, Tally>;

type Found = { kind: SyntheticKind; x: number; y: number; r: number; x0?: number; y0?: number; x1?: number; y1?: number };
/** Findings in image pixels: lesions as centres, forehead lines as boxes. */
function findings(a: SkinAnalysis): Found[] {
  const f = a.frame;
  const out: Found[] = a.lesions.map((l) => { const [x, y] = toImage(f, l.blob.x, l.blob.y); return { kind: l.kind as SyntheticKind, x, y, r: l.blob.r / f.k }; });
  for (const l of a.internals.lines.forehead_wrinkle) {
    const [x0, y0] = toImage(f, l.x0, l.y0), [x1, y1] = toImage(f, l.x1, l.y1);
    out.push({ kind: 'wrinkle', x: (x0 + x1) / 2, y: (y0 + y1) / 2, r: 0, x0, y0, x1, y1 });
  }
  return out;
}

function near(d: Found, s: Synthetic | Found, pxPerMm: number): boolean {
  if (d.kind === 'wrinkle') {
    const sx0 = 'size' in s ? s.x - s.size * pxPerMm : s.x0!, sx1 = 'size' in s ? s.x + s.size * pxPerMm : s.x1!;
    const sy0 = 'size' in s ? s.y - 1.5 * pxPerMm : s.y0! - 1.5 * pxPerMm, sy1 = 'size' in s ? s.y + 1.5 * pxPerMm : s.y1! + 1.5 * pxPerMm;
    const ox = Math.min(d.x1!, sx1) - Math.max(d.x0!, sx0);
    return ox > 3 * pxPerMm && d.y >= sy0 && d.y <= sy1;
  }
  const r = 'size' in s ? s.size * pxPerMm : s.r;
  return Math.hypot(d.x - s.x, d.y - s.y) <= Math.max(1.5 * pxPerMm, r);
}

const synthPhotos: { name: string; image: RasterImage; scale: number }[] = [];
for (const file of readdirSync(path.join(testdata, 'portraits')).sort()) {
  if (!/\.(jpe?g|png)$/i.test(file) || file.includes('exif') || file.includes('rot90')) continue;
  const image = await rasterOf(path.join(testdata, 'portraits', file));
  const d = await faceData(models, image, `portraits/${file}`);
  if (!d) continue;
  const f = await makeFrame(image, d.face);
  if (f.pxPerMm >= 1.2) synthPhotos.push({ name: file, image, scale: 1 });
  else if (f.pxPerMm >= 0.6) {
    const big = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } }).resize(image.width * 2, image.height * 2).raw().toBuffer();
    synthPhotos.push({ name: `${file} x2`, image: { data: big, width: image.width * 2, height: image.height * 2, channels: 3 }, scale: 2 });
  }
}

const total = tally();
console.log(`\n1. Synthetic ground truth: ${synthPhotos.length} photos x 3 seeds`);
console.log(['photo', 'px/mm', 'clean lesions (acne/comedo/mole/spot/forehead lines)', 'recall by kind (acne comedo mole spot wrinkle)'].join('\t'));
for (const p of synthPhotos) {
  const d = (await faceData(models, p.image, `synthetic/${p.name}`))!;
  const clean = await analyse(p.image, d.face, d.parsing);
  const base = findings(clean);
  const per = tally();
  for (let seed = 1; seed <= 3; seed++) {
    const items = place(clean, seed * 7919 + p.name.length);
    const img = renderSynthetic(p.image, items, clean.frame.pxPerMm);
    const got = findings(await analyse(img, d.face, d.parsing));
    const used = new Set<Found>();
    for (const s of items) {
      const hit = got.find((g) => !used.has(g) && g.kind === s.kind && near(g, s, clean.frame.pxPerMm));
      if (hit) { used.add(hit); per[s.kind].tp++; } else per[s.kind].fn++;
    }
    for (const g of got) {
      if (used.has(g)) continue;
      // Also there without the rendering (or a real finding of that kind at that place): not counted.
      if (base.some((b) => b.kind === g.kind && near(g, b, clean.frame.pxPerMm))) continue;
      per[g.kind].fp++;
    }
  }
  const cleanCount = (['acne', 'closed_comedones', 'mole', 'skin_spot', 'wrinkle'] as SyntheticKind[]).map((k) => base.filter((b) => b.kind === k).length).join('/');
  console.log([p.name, clean.frame.pxPerMm.toFixed(2), cleanCount, Object.values(per).map((t) => `${t.tp}/${t.tp + t.fn}`).join(' ')].join('\t'));
  for (const k of Object.keys(per) as SyntheticKind[]) { total[k].tp += per[k].tp; total[k].fn += per[k].fn; total[k].fp += per[k].fp; }
}
console.log(['kind', 'rendered', 'found', 'new false', 'precision', 'recall'].join('\t'));
for (const [k, t] of Object.entries(total)) {
  console.log([k, t.tp + t.fn, t.tp, t.fp, (t.tp / Math.max(1, t.tp + t.fp)).toFixed(2), (t.tp / Math.max(1, t.tp + t.fn)).toFixed(2)].join('\t'));
}

// ---------- 2. consistency ----------
const WRINKLES: MemberName[] = Object.keys(LINES) as MemberName[];
const chips = readdirSync(path.join(testdata, 'faces_age_gender')).filter((f) => /\.jpe?g$/i.test(f)).sort().map((f) => `faces_age_gender/${f}`);
interface Row { rel: string; age: number; half: string; a: SkinAnalysis }
const rows: Row[] = [];
for (const rel of chips) {
  const image = await rasterOf(path.join(testdata, rel));
  const d = await faceData(models, image, rel);
  if (!d) continue;
  rows.push({ rel, age: utkAge(rel), half: half(rel), a: await analyse(image, d.face, d.parsing) });
}

if (FIT) {
  // Least squares (ridge 1e-3) of age on the features, fit half only.
  const fit = rows.filter((r) => r.half === 'fit');
  const X = fit.map((r) => [1, ...r.a.ageFeatures]), y = fit.map((r) => r.age);
  const n = X[0].length, A = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => X.reduce((s, x) => s + x[i] * x[j], 0) + (i === j && i > 0 ? 1e-3 : 0)));
  const b = Array.from({ length: n }, (_, i) => X.reduce((s, x, k) => s + x[i] * y[k], 0));
  for (let i = 0; i < n; i++) { // Gauss-Jordan
    const p = A[i][i];
    for (let j = 0; j < n; j++) A[i][j] /= p; b[i] /= p;
    for (let k = 0; k < n; k++) if (k !== i) { const m = A[k][i]; for (let j = 0; j < n; j++) A[k][j] -= m * A[i][j]; b[k] -= m * b[i]; }
  }
  console.log(`\nskin-age fit on ${fit.length} faces: intercept ${b[0].toFixed(2)}, weights [${b.slice(1).map((v) => v.toFixed(3)).join(', ')}]`);
  AGE_MODEL.intercept = b[0]; AGE_MODEL.weights = b.slice(1);
}

console.log(`\n2. Consistency on ${rows.length} UTKFace chips (200 px, about 0.9 px/mm: coarser than the quality gate allows)`);
console.log(['half', 'group', 'faces', 'with a wrinkle flag', 'flags per face', 'skin_age mean', 'MAE'].join('\t'));
for (const h of ['fit', 'check']) {
  for (const [group, lo, hi] of [['children ≤ 12', 0, 12], ['13-49', 13, 49], ['≥ 50', 50, 200]] as const) {
    const g = rows.filter((r) => r.half === h && r.age >= lo && r.age <= hi);
    if (!g.length) continue;
    const flags = g.map((r) => WRINKLES.filter((m) => r.a.members[m].value === 1).length);
    const ages = g.map((r) => skinAgeOf(r.a.ageFeatures));
    console.log([h, group, g.length, flags.filter((x) => x > 0).length, (flags.reduce((s, x) => s + x, 0) / g.length).toFixed(2),
      (ages.reduce((s, x) => s + x, 0) / g.length).toFixed(1), (g.reduce((s, r, i) => s + Math.abs(ages[i] - r.age), 0) / g.length).toFixed(1)].join('\t'));
  }
  const all = rows.filter((r) => r.half === h);
  const byMember = (lo: number, hi: number) => WRINKLES.map((m) => `${m} ${all.filter((r) => r.age >= lo && r.age <= hi && r.a.members[m].value === 1).length}`).join(', ');
  console.log(`${h}: flags among children ≤ 12: ${byMember(0, 12)}; among ≥ 50: ${byMember(50, 200)}`);
  const mae = all.reduce((s, r) => s + Math.abs(skinAgeOf(r.a.ageFeatures) - r.age), 0) / all.length;
  const meanAge = all.reduce((s, r) => s + r.age, 0) / all.length;
  const baseline = all.reduce((s, r) => s + Math.abs(meanAge - r.age), 0) / all.length;
  console.log(`${h}: skin_age MAE ${mae.toFixed(1)} years over ${all.length} faces (predicting the half's mean age: ${baseline.toFixed(1)})`);
}

// Same face, other resolution / JPEG: which codes stay.
const codes = (a: SkinAnalysis): Record<string, number> => ({ ...Object.fromEntries(Object.entries(a.members).map(([k, v]) => [k, v.value])), skin_type: a.skinType.type });
async function agreement(label: string, photos: { name: string; image: RasterImage }[], alter: (img: RasterImage) => Promise<RasterImage>) {
  const same: Record<string, number> = {};
  let n = 0;
  for (const p of photos) {
    const d = await faceData(models, p.image, `consistency/${p.name}`);
    if (!d) continue;
    const other = await alter(p.image);
    const d2 = await faceData(models, other, `consistency/${label}/${p.name}`);
    if (!d2) continue;
    const a = codes(await analyse(p.image, d.face, d.parsing)), b = codes(await analyse(other, d2.face, d2.parsing));
    for (const k of Object.keys(a)) same[k] = (same[k] ?? 0) + (a[k] === b[k] ? 1 : 0);
    n++;
  }
  const all = Object.values(same).reduce((s, v) => s + v, 0) / (n * Object.keys(same).length);
  console.log(`${label}: ${n} faces, ${(100 * all).toFixed(0)} % of codes the same; per member: ${Object.entries(same).map(([k, v]) => `${k} ${v}/${n}`).join(', ')}`);
}
const raw = (img: RasterImage) => sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } });
const toRaster = async (s: ReturnType<typeof sharp>): Promise<RasterImage> => { const { data, info } = await s.raw().toBuffer({ resolveWithObject: true }); return { data, width: info.width, height: info.height, channels: 3 }; };
const bigFaces = synthPhotos.filter((p) => p.scale === 1);
const fixtures = ['obama_official_portrait.jpg', 'astronaut_eileen_collins.png'].map((f) => path.join(root, 'engine/test/fixtures', f));
const consistencyPhotos = [...bigFaces, ...await Promise.all(fixtures.map(async (f) => ({ name: path.basename(f), image: await rasterOf(f) })))];
console.log('');
await agreement('2x larger (frame capped at 3 px/mm)', consistencyPhotos, (img) => toRaster(raw(img).resize(img.width * 2, img.height * 2)));
await agreement('0.75x smaller', consistencyPhotos, (img) => toRaster(raw(img).resize(Math.round(img.width * 0.75), Math.round(img.height * 0.75))));
await agreement('JPEG quality 75', consistencyPhotos, async (img) => rasterOf(await raw(img).jpeg({ quality: 75 }).toBuffer()));

// ---------- 3. the sharpness gate ----------
console.log('\n3. Sharpness around the eyes (the blur gate, QUALITY.minSharpness in the effect\'s steps), sharp and blurred by a Gaussian of σ mm');
console.log(['photo', 'px/mm', 'sharp', 'σ 0.25 mm', 'σ 0.5 mm', 'σ 1 mm'].join('\t'));
for (const p of consistencyPhotos) {
  const d = await faceData(models, p.image, `consistency/${p.name}`);
  if (!d) continue;
  const row: string[] = [];
  let pxPerMm = 0;
  for (const mm of [0, 0.25, 0.5, 1]) {
    const img = mm ? await toRaster(raw(p.image).blur(Math.max(0.3, mm * (await makeFrame(p.image, d.face)).pxPerMm))) : p.image;
    const f = await makeFrame(img, d.face);
    pxPerMm = f.pxPerMm;
    row.push(sharpness(labFrame(f).L, f.w, f.h, f.s, eyeArea(f)).toFixed(2));
  }
  console.log([p.name, pxPerMm.toFixed(2), ...row].join('\t'));
}
process.exit(0);
