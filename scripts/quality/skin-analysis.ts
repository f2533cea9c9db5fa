/**
 * Proof of the skin analysis, two ways (no labelled skin dataset ships here):
 *
 *  1. Synthetic ground truth: acne, closed comedones, moles, skin spots and forehead wrinkles of known
 *     size and place rendered into real skin of the shared portraits (engine/effects/skin-analysis-advanced/skin/synthetic.ts),
 *     three seeds a photo; precision and recall per kind. A detection counts as new only where the clean
 *     photo had none of that kind within 1.5 mm (real findings are neither hits nor false alarms).
 *     Split by photo with half() of scripts/datasets/face-parts-data.ts (tune on fit, report both).
 *     Photos whose face is at least 1.2 px/mm (the quality gate's minimum) at their own size, and the
 *     smaller faces enlarged 2x.
 *  2. Consistency: on the UTKFace chips (ages in file names), split by file name with half() of
 *     scripts/datasets/face-parts-data.ts, per half: wrinkle flags among children (≤ 12) and among faces ≥ 50,
 *     skin_age by age group and its MAE; the same faces at two resolutions and after JPEG re-encoding,
 *     the share of codes that stay the same.
 *
 *   npm run quality:skin-analysis [-- --fit] [--only synthetic,ages,folds,codes,sharpness]
 *   (--fit: least squares of the skin-age model on the fit half, with each power's leave-one-out MAE)
 *
 * Reads ../shared/testdata from the repository root (ATELIER_TESTDATA overrides); exits 2 without it.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import {
  AGE_MODEL, analyseSkin, COMEDONE_MIN_PX, CREASE_SHARPNESS, eyeArea, type Face, type FaceParsing, foldShape,
  type FoldShape, labFrame, LESION_KINDS, makeFrame, type MemberName, ModelRegistry, type RasterImage,
  renderSynthetic, resolvedScale, RIDGE_SIGMAS, ridgeField, sharpness, SKIN_LINES as LINES, skinAgeOf,
  type SkinAnalysis, toAgeScale
} from '../../engine/for-scripts.ts';
import { half } from '../datasets/face-parts-data.ts';
import { faceData, rasterOf, utkAge } from '../datasets/skin-analysis-data.ts';
import { findings, place, score, SYNTHETIC_KINDS, tally, type Tally } from '../datasets/skin-synthetic-data.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
if (!existsSync(path.join(testdata, 'labels.json'))) {
  console.error(`quality-skin-analysis: the shared test data is absent (looked in ${testdata}); nothing was measured.`);
  process.exit(2);
}
const FIT = process.argv.includes('--fit');
/** --only synthetic,ages,folds,codes,sharpness runs only those parts (folds needs ages). */
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1].split(',') : null;
const PART = (name: string) => !only || only.includes(name);
const models = new ModelRegistry({ threads: 2 });

async function analyse(image: RasterImage, face: Face, parsing: FaceParsing): Promise<SkinAnalysis> {
  const f = await makeFrame(image, face);
  return analyseSkin(f, face, parsing, labFrame(f));
}


// ---------- 1. synthetic ground truth ----------
const synthPhotos: { name: string; half: string; image: RasterImage; scale: number }[] = [];
for (const file of readdirSync(path.join(testdata, 'portraits')).sort()) {
  if (!/\.(jpe?g|png)$/i.test(file) || file.includes('exif') || file.includes('rot90')) continue;
  const image = await rasterOf(path.join(testdata, 'portraits', file));
  const d = await faceData(models, image, `portraits/${file}`);
  if (!d) continue;
  const f = await makeFrame(image, d.face);
  const h = half(`portraits/${file}`);
  if (f.pxPerMm >= 1.2) synthPhotos.push({ name: file, half: h, image, scale: 1 });
  else if (f.pxPerMm >= 0.6) {
    const big = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } }).resize(image.width * 2, image.height * 2).raw().toBuffer();
    synthPhotos.push({ name: `${file} x2`, half: h, image: { data: big, width: image.width * 2, height: image.height * 2, channels: 3 }, scale: 2 });
  }
}

if (PART('synthetic')) {
  const totals: Record<string, Record<string, Tally>> = { fit: tally(), check: tally() };
  const unresolvedTotals: Record<string, Record<string, Tally>> = { fit: tally(), check: tally() };
  console.log(`\n1. Synthetic ground truth: ${synthPhotos.length} photos x 3 seeds`);
  console.log(['photo', 'half', 'px/mm', 'clean lesions (acne/comedo/mole/spot/forehead lines)', 'recall by kind (acne comedo mole spot wrinkle)', 'new false by kind', `comedones unresolvable (radius < ${COMEDONE_MIN_PX} frame px): found/rendered`].join('\t'));
  for (const p of synthPhotos) {
    const d = (await faceData(models, p.image, `synthetic/${p.name}`))!;
    const clean = await analyse(p.image, d.face, d.parsing);
    const base = findings(clean);
    const per = tally(), unresolved = tally();
    for (let seed = 1; seed <= 3; seed++) {
      const items = place(clean, seed * 7919 + p.name.length);
      const img = renderSynthetic(p.image, items, clean.frame.pxPerMm);
      score(items, findings(await analyse(img, d.face, d.parsing)), base, clean.frame.pxPerMm, per, clean.frame.s, unresolved);
    }
    const uc = unresolved.closed_comedones;
    const cleanCount = SYNTHETIC_KINDS.map((k) => base.filter((b) => b.kind === k).length).join('/');
    console.log([p.name, p.half, clean.frame.pxPerMm.toFixed(2), cleanCount, Object.values(per).map((t) => `${t.tp}/${t.tp + t.fn}`).join(' '), Object.values(per).map((t) => t.fp).join(' '),
      uc.tp + uc.fn ? `${uc.tp}/${uc.tp + uc.fn} at ${clean.frame.s.toFixed(2)} px/mm` : '-'].join('\t'));
    const into = totals[p.half];
    for (const k of SYNTHETIC_KINDS) { into[k].tp += per[k].tp; into[k].fn += per[k].fn; into[k].fp += per[k].fp; }
    const un = unresolvedTotals[p.half].closed_comedones;
    un.tp += uc.tp; un.fn += uc.fn;
  }
  console.log(['half', 'kind', 'rendered', 'found', 'new false', 'precision', 'recall'].join('\t'));
  for (const h of ['fit', 'check', 'both']) {
    for (const k of SYNTHETIC_KINDS) {
      const t = h === 'both' ? { tp: totals.fit[k].tp + totals.check[k].tp, fn: totals.fit[k].fn + totals.check[k].fn, fp: totals.fit[k].fp + totals.check[k].fp } : totals[h][k];
      console.log([h, k, t.tp + t.fn, t.tp, t.fp, (t.tp / Math.max(1, t.tp + t.fp)).toFixed(2), (t.tp / Math.max(1, t.tp + t.fn)).toFixed(2)].join('\t'));
    }
    const u = h === 'both' ? { tp: unresolvedTotals.fit.closed_comedones.tp + unresolvedTotals.check.closed_comedones.tp, fn: unresolvedTotals.fit.closed_comedones.fn + unresolvedTotals.check.closed_comedones.fn } : unresolvedTotals[h].closed_comedones;
    console.log([h, `closed_comedones unresolvable (radius < ${COMEDONE_MIN_PX} frame px), apart from the above`, u.tp + u.fn, u.tp, '', '', ''].join('\t'));
  }
}

// ---------- 2. consistency ----------
const WRINKLES: MemberName[] = Object.keys(LINES) as MemberName[];
const chips = readdirSync(path.join(testdata, 'faces_age_gender')).filter((f) => /\.jpe?g$/i.test(f)).sort().map((f) => `faces_age_gender/${f}`);
interface Row { rel: string; age: number; half: string; a: SkinAnalysis }
if (PART('ages')) {
  const rows: Row[] = [];
  for (const rel of chips) {
    const image = await rasterOf(path.join(testdata, rel));
    const d = await faceData(models, image, rel);
    if (!d) continue;
    rows.push({ rel, age: utkAge(rel), half: half(rel), a: await analyse(image, d.face, d.parsing) });
  }

  if (FIT) {
    // Least squares of the age's power (AGE_MODEL.power; 0 is ln) with no negative weight, fit half only.
    // Each power's fit-half leave-one-out MAE (each face predicted by the model fitted without it) and
    // children's leave-one-out mean, for choosing the power; AGE_MODEL's power is then fitted and used.
    const fit = rows.filter((r) => r.half === 'fit');
    for (const power of [0, 0.25, 0.5, 1]) {
      const loo = fit.map((r, i) => skinAgeOf(r.a.ageFeatures, fitAgeModel(fit.filter((_, j) => j !== i), power)));
      const kids = loo.filter((_, i) => fit[i].age <= 12);
      console.log(`power ${power || 'ln'}: fit-half leave-one-out MAE ${(loo.reduce((s, v, i) => s + Math.abs(v - fit[i].age), 0) / fit.length).toFixed(1)} years, children ≤ 12 ${(kids.reduce((s, v) => s + v, 0) / kids.length).toFixed(1)}`);
    }
    const model = fitAgeModel(fit, AGE_MODEL.power);
    console.log(`\nskin-age fit on ${fit.length} faces (power ${AGE_MODEL.power || 'ln'}): intercept ${model.intercept.toFixed(4)}, weights [${model.weights.map((v) => v.toFixed(4)).join(', ')}]`);
    AGE_MODEL.intercept = model.intercept; AGE_MODEL.weights = model.weights;
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
  if (PART('folds')) foldShapes(rows);
}

/**
 * The shape of the flagged folds and forehead lines by age group (foldShape: sharpness, the finest scale's
 * depth over the broadest's, ≥ CREASE_SHARPNESS for a crease; asymmetry of the flanks), with the chips'
 * resolved scale: whether shape tells a child's shading line from an older face's fold at this size.
 */
function foldShapes(rows: Row[]) {
  console.log(`\nShape of the flagged lines (sharpness ≥ ${CREASE_SHARPNESS}: a crease narrower than the scales' geometric mean; asymmetry 0 for a symmetric shade): median [min-max]`);
  console.log(['half', 'group', 'member', 'lines', 'resolved px/mm', 'sharpness', 'asymmetry'].join('\t'));
  const span = (v: number[]) => { const q = [...v].sort((a, b) => a - b); return `${q[q.length >> 1].toFixed(2)} [${q[0].toFixed(2)}-${q[q.length - 1].toFixed(2)}]`; };
  for (const h of ['fit', 'check']) {
    for (const [group, lo, hi] of [['children ≤ 12', 0, 12], ['13-49', 13, 49], ['≥ 50', 50, 200]] as const) {
      for (const member of ['nasolabial_fold', 'forehead_wrinkle'] as const) {
        const shapes: FoldShape[] = [], resolved: number[] = [];
        for (const r of rows.filter((x) => x.half === h && x.age >= lo && x.age <= hi && x.a.members[member].value === 1)) {
          const { w, h: fh, s } = r.a.frame, L = r.a.internals.lab.L;
          const depth = ridgeField(L, w, fh, [...RIDGE_SIGMAS.fine, ...RIDGE_SIGMAS.coarse].map((v) => v * s)).depth;
          for (const l of r.a.internals.lines[member]) shapes.push(foldShape(L, w, fh, l, depth, { fine: RIDGE_SIGMAS.fine[0] * s, broad: RIDGE_SIGMAS.coarse[1] * s }));
          resolved.push(resolvedScale(s, sharpness(L, w, fh, s, eyeArea(r.a.frame))));
        }
        if (shapes.length) console.log([h, group, member, shapes.length, span(resolved), span(shapes.map((x) => x.sharpness)), span(shapes.map((x) => x.asymmetry))].join('\t'));
      }
    }
  }
}

/** AGE_MODEL's least squares: the age's power on the features, no weight below 0 (coordinate descent on centred features). */
function fitAgeModel(fit: Row[], power: number): { power: number; intercept: number; weights: number[] } {
  const n = fit[0].a.ageFeatures.length, m = fit.length;
  const mean = Array.from({ length: n }, (_, j) => fit.reduce((s, r) => s + r.a.ageFeatures[j], 0) / m);
  const target = fit.map((r) => toAgeScale(r.age, power)), my = target.reduce((s, v) => s + v, 0) / m;
  const X = fit.map((r) => r.a.ageFeatures.map((v, j) => v - mean[j])), res = target.map((v) => v - my);
  const w = new Array(n).fill(0);
  for (let it = 0; it < 5000; it++) {
    for (let j = 0; j < n; j++) {
      let xr = 0, xx = 0;
      for (let k = 0; k < m; k++) { xr += X[k][j] * res[k]; xx += X[k][j] ** 2; }
      const wj = xx > 0 ? Math.max(0, w[j] + xr / xx) : 0;
      for (let k = 0; k < m; k++) res[k] -= X[k][j] * (wj - w[j]);
      w[j] = wj;
    }
  }
  return { power, intercept: my - w.reduce((s, v, j) => s + v * mean[j], 0), weights: w };
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
if (PART('codes')) {
  console.log('');
  await agreement('2x larger (frame capped at 3 px/mm)', consistencyPhotos, (img) => toRaster(raw(img).resize(img.width * 2, img.height * 2)));
  await agreement('0.75x smaller', consistencyPhotos, (img) => toRaster(raw(img).resize(Math.round(img.width * 0.75), Math.round(img.height * 0.75))));
  await agreement('JPEG quality 75', consistencyPhotos, async (img) => rasterOf(await raw(img).jpeg({ quality: 75 }).toBuffer()));
}

// ---------- 3. the sharpness gate ----------
if (PART('sharpness')) {
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
}
process.exit(0);
