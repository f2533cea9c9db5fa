/**
 * Quality of the retouch effects on the shared portraits and landmark photos, per half of a split by file
 * name fixed before tuning (scripts/datasets/face-parts-data.ts's half(): sha1(path) first byte even = tune, odd = check), with
 * issue 9's targets:
 *   spill     pixels changed by more than 12 in any channel outside the effect's region grown by a margin
 *             (a fraction of each face's width), as a share of those pixels: ≤ 0.2 % on every photo;
 *   smoothing high-band energy of the luma (sigma 1 % of the face width) after / before, on the cheeks
 *             (≤ 0.8) and around the eyes (≥ 0.7), for effects that smooth;
 *   identity  every face found again (box IoU ≥ 0.5) with the same gender, and human's face-descriptor
 *             similarity before / after ≥ 0.9, by Atelier's own face pipeline (retouch-identity.ts
 *             engineDescriber: the engine's detector, its gender at maleAt, human's descriptor model on the
 *             engine's face square); this decides. Each gender change prints p(male) before -> after and
 *             writes the face before | after to the sheets folder (gender-*.png). Human's whole-photo
 *             measure is printed beside it ("human" columns; its gender changes say how many faces human
 *             called 'unknown' before).
 * Effects are rows of RETOUCH (slug → strong params, region, margin, smoothing params): adding one is a row.
 * Before/after contact sheets, with zoomed cheek and under-eye crops, go to /tmp/<slug>-sheets (--sheets DIR: DIR/<slug>).
 *
 *   npm run quality:retouch -- [slug ...] [--sheets DIR] [--no-sheets] [--half tune|check] [--only NAME,...]
 * (--half and --only: a subset while tuning, e.g. the tune half's worst photos; the summary then covers only those.)
 *
 * Reads ../shared/testdata from the repository root (ATELIER_TESTDATA overrides); exits 2 without it.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp, { type OverlayOptions } from 'sharp';
import {
  bandEnergy, classMask, type Effect, effectModules, type Face, faceRegions, jobFacts, type JobFacts, lumaPlane,
  type Mask, meshFaceWidth, ModelRegistry, type RasterImage, type RegionName, runEffect, splitBands
} from '../../engine/for-scripts.ts';
import { engineDescriber, faceDescriber, genderChangeLine, half, idColumns, idTally, retouchPhotos, tallyIdentity, type IdTally } from './retouch-identity.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
if (!existsSync(path.join(testdata, 'labels.json'))) {
  console.error(`quality-retouch: the shared test data is absent (looked in ${testdata}); nothing was measured.`);
  process.exit(2);
}

type Region = 'skin' | 'lips' | 'eyes';
interface RetouchCase {
  /** Params for spill and identity: every degree at its strongest. */
  strong: Record<string, unknown>;
  region: Region;
  /** The region grows by this fraction of the face width before spill is counted. */
  margin: number;
  /** Params that smooth and do nothing else, for the smoothing figures; absent: not measured. */
  smoothing?: Record<string, unknown>;
  /** Params of the middle contact-sheet column (the defaults by default). */
  typical?: Record<string, unknown>;
}

const RETOUCH: Record<string, RetouchCase> = {
  'face-beauty': { strong: { sharp: 1, smooth: 1, white: 1 }, region: 'skin', margin: 0.6, smoothing: { sharp: 0, smooth: 1, white: 0 }, typical: {} },
  // Strong: every flag on its own at full strength together (smart_skin blends them gentler); typical: smart_skin.
  'smart-skin-advanced': {
    strong: { acne_removal: 1, spot_correction: 1, skin_brightening: 1, skin_smoothing: 1, pore_control: 1, wrinkle_reduction: 1, under_eye_correction: 1, scar_reduction: 1 },
    region: 'skin', margin: 0.6, smoothing: { smart_skin: 1 }, typical: { smart_skin: 1 },
  },
};

const TARGET = { spill: 0.002, cheeks: 0.8, eyes: 0.7, similarity: 0.9 };
const SPILL_DELTA = 12;

const args = process.argv.slice(2);
const sheetsArg = args.indexOf('--sheets'), halfArg = args.indexOf('--half'), onlyArg = args.indexOf('--only');
const valued = new Set([sheetsArg, halfArg, onlyArg].filter((i) => i >= 0).map((i) => i + 1));
const slugs = args.filter((a, i) => !a.startsWith('--') && !valued.has(i));
const chosen = slugs.length ? slugs : Object.keys(RETOUCH);
for (const s of chosen) if (!RETOUCH[s]) { console.error(`quality-retouch: no case for ${s}; known: ${Object.keys(RETOUCH).join(', ')}`); process.exit(1); }

const only = onlyArg >= 0 ? args[onlyArg + 1].split(',') : null;
const photos = retouchPhotos(testdata).filter((rel) => (halfArg < 0 || half(rel) === args[halfArg + 1]) && (!only || only.some((o) => rel.includes(o))));
const models = new ModelRegistry({ threads: 2 });
const humanId = await faceDescriber(models), engineId = await engineDescriber(models);

async function decode(file: string): Promise<RasterImage> {
  const { data, info } = await sharp(file).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}
async function rawOf(png: Buffer): Promise<RasterImage> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}

/** Squared Euclidean distance transform (Felzenszwalb & Huttenlocher) of a binary plane: 0 on it. */
function distance2(on: Uint8Array, w: number, h: number): Float32Array {
  const INF = 1e12, d = new Float32Array(w * h);
  for (let i = 0; i < d.length; i++) d[i] = on[i] ? 0 : INF;
  const n = Math.max(w, h), f = new Float64Array(n), out = new Float64Array(n), v = new Int32Array(n), z = new Float64Array(n + 1);
  const pass = (len: number, get: (i: number) => number, set: (i: number, x: number) => void) => {
    for (let i = 0; i < len; i++) f[i] = get(i);
    let k = 0; v[0] = 0; z[0] = -Infinity; z[1] = Infinity;
    for (let q = 1; q < len; q++) {
      let s = ((f[q] + q * q) - (f[v[k]] + v[k] * v[k])) / (2 * q - 2 * v[k]);
      while (s <= z[k]) { k--; s = ((f[q] + q * q) - (f[v[k]] + v[k] * v[k])) / (2 * q - 2 * v[k]); }
      k++; v[k] = q; z[k] = s; z[k + 1] = Infinity;
    }
    k = 0;
    for (let q = 0; q < len; q++) { while (z[k + 1] < q) k++; out[q] = (q - v[k]) ** 2 + f[v[k]]; }
    for (let i = 0; i < len; i++) set(i, out[i]);
  };
  for (let x = 0; x < w; x++) pass(h, (y) => d[y * w + x], (y, val) => { d[y * w + x] = val; });
  for (let y = 0; y < h; y++) pass(w, (x) => d[y * w + x], (x, val) => { d[y * w + x] = val; });
  return d;
}

/** The faces the effects work on (the 5 largest, meshed) and, per face, its region as a binary plane. */
async function regionsOf(img: RasterImage, region: Region, facts: JobFacts): Promise<{ faces: Face[]; masks: Uint8Array[] }> {
  const faces = (await facts.faces({ meshFaces: 5 })).slice(0, 5).filter((f) => f.mesh);
  const masks: Uint8Array[] = [];
  for (const face of faces) {
    const m = new Uint8Array(img.width * img.height);
    const add = (mask: Mask | undefined) => { if (mask) for (let i = 0; i < m.length; i++) if (mask.data[i] >= 128) m[i] = 1; };
    if (region === 'skin') {
      add(classMask(await facts.parsing(face), ['skin', 'nose', 'neck', 'rightEar', 'leftEar'], img));
      add(faceRegions(face, img, img, ['faceOval']).faceOval);
    } else {
      const names: RegionName[] = region === 'lips' ? ['upperLip', 'lowerLip', 'mouthOpening'] : ['leftEye', 'rightEye'];
      const r = faceRegions(face, img, img, names);
      for (const n of names) add(r[n]);
    }
    masks.push(m);
  }
  return { faces, masks };
}

/** Share of the pixels outside every face's region grown by margin x its width that changed by > 12. */
function spill(before: RasterImage, after: RasterImage, faces: Face[], masks: Uint8Array[], margin: number): number {
  const { width: w, height: h } = before;
  const allowed = new Uint8Array(w * h);
  faces.forEach((face, k) => {
    const r = margin * meshFaceWidth(face.mesh!), d = distance2(masks[k], w, h);
    for (let i = 0; i < allowed.length; i++) if (d[i] <= r * r) allowed[i] = 1;
  });
  let outside = 0, changed = 0;
  for (let i = 0, j = 0; i < w * h; i++, j += 3) {
    if (allowed[i]) continue;
    outside++;
    if (Math.abs(before.data[j] - after.data[j]) > SPILL_DELTA || Math.abs(before.data[j + 1] - after.data[j + 1]) > SPILL_DELTA || Math.abs(before.data[j + 2] - after.data[j + 2]) > SPILL_DELTA) changed++;
  }
  return outside ? changed / outside : 0;
}

/**
 * High-band energy after / before on the cheeks (the mesh's cheeks where the parsing sees skin, so hair or
 * sunglasses over a cheek do not count as cheek) and around the eyes (eye openings grown by 4 % of the face).
 */
async function smoothing(before: RasterImage, after: RasterImage, faces: Face[], facts: JobFacts): Promise<{ cheeks: number; eyes: number }[]> {
  return Promise.all(faces.map(async (face) => {
    const skin = classMask(await facts.parsing(face), ['skin'], before).data;
    const fw = meshFaceWidth(face.mesh!), sigma = Math.max(1, 0.01 * fw);
    const r = faceRegions(face, before, undefined, ['leftCheek', 'rightCheek', 'leftEye', 'rightEye']);
    const n = before.width * before.height;
    const cheeks = new Float32Array(n), eyeOn = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      cheeks[i] = Math.max(r.leftCheek!.data[i], r.rightCheek!.data[i]) >= 128 && skin[i] >= 128 ? 1 : 0;
      eyeOn[i] = Math.max(r.leftEye!.data[i], r.rightEye!.data[i]) >= 128 ? 1 : 0;
    }
    const d = distance2(eyeOn, before.width, before.height), g = (0.04 * fw) ** 2;
    const eyes = new Float32Array(n);
    for (let i = 0; i < n; i++) eyes[i] = d[i] <= g ? 1 : 0;
    const hb = splitBands(lumaPlane(before.data, before.width, before.height, 3), before.width, before.height, sigma).high;
    const ha = splitBands(lumaPlane(after.data, after.width, after.height, 3), after.width, after.height, sigma).high;
    return { cheeks: bandEnergy(ha, cheeks) / bandEnergy(hb, cheeks), eyes: bandEnergy(ha, eyes) / bandEnergy(hb, eyes) };
  }));
}

/** before | typical | strong; below, the largest face, then its cheek and its under-eye, zoomed, for each. */
async function sheet(file: string, imgs: RasterImage[], face: Face | undefined): Promise<void> {
  const H = 480;
  const raw = (m: RasterImage) => sharp(m.data, { raw: { width: m.width, height: m.height, channels: 3 } });
  const tiles = await Promise.all(imgs.map((m) => raw(m).resize({ height: H }).png().toBuffer()));
  const tileW = Math.round((imgs[0].width * H) / imgs[0].height), Z = Math.min(tileW, 480);
  const comp: OverlayOptions[] = tiles.map((t, i) => ({ input: t, left: i * tileW, top: 0 }));
  let height = H;
  if (face?.mesh) {
    const fw = meshFaceWidth(face.mesh), m = face.mesh;
    /** A square of `side` around (cx, cy), kept inside the image. */
    const square = (cx: number, cy: number, side: number) => {
      const s = Math.max(8, Math.min(imgs[0].width, imgs[0].height, Math.round(side)));
      return { left: Math.max(0, Math.min(imgs[0].width - s, Math.round(cx - s / 2))), top: Math.max(0, Math.min(imgs[0].height - s, Math.round(cy - s / 2))), width: s, height: s };
    };
    const cheek = [(m[205][0] + m[1][0]) / 2, (m[205][1] + m[1][1]) / 2];
    // Under the subject's right eye: its lower lid (145) and a little below, where dark circles lie.
    const underEye = [m[145][0], m[145][1] + 0.06 * fw];
    for (const box of [square(m[1][0], m[1][1], 1.5 * fw), square(cheek[0], cheek[1], 0.3 * fw), square(underEye[0], underEye[1], 0.3 * fw)]) {
      for (let i = 0; i < imgs.length; i++) {
        const crop = await raw(imgs[i]).extract(box).resize(Z, Z, { kernel: box.width < Z / 2 ? 'nearest' : 'lanczos3' }).png().toBuffer();
        comp.push({ input: crop, left: i * tileW, top: height });
      }
      height += Z;
    }
  }
  await sharp({ create: { width: tileW * imgs.length, height, channels: 3, background: '#202020' } }).composite(comp).png().toFile(file);
}

/** The face (its box grown 1.6x, square) before | after, 320 px each: to look at a gender change at face scale. */
async function faceSheet(file: string, imgs: RasterImage[], box: number[]): Promise<void> {
  const W = imgs[0].width, H = imgs[0].height, side = Math.min(W, H, Math.round(1.6 * Math.max(box[2], box[3])));
  const left = Math.max(0, Math.min(W - side, Math.round(box[0] + box[2] / 2 - side / 2))), top = Math.max(0, Math.min(H - side, Math.round(box[1] + box[3] / 2 - side / 2)));
  const Z = 320;
  const tiles = await Promise.all(imgs.map((m) => sharp(m.data, { raw: { width: m.width, height: m.height, channels: 3 } }).extract({ left, top, width: side, height: side }).resize(Z, Z, { kernel: 'lanczos3' }).png().toBuffer()));
  await sharp({ create: { width: Z * imgs.length, height: Z, channels: 3, background: '#202020' } }).composite(tiles.map((t, i) => ({ input: t, left: i * Z, top: 0 }))).png().toFile(file);
}

const fmt = (v: number, d = 2) => (Number.isFinite(v) ? v.toFixed(d) : '-');
const opts = { models, signal: new AbortController().signal };
let failed = false;
for (const slug of chosen) {
  const kase = RETOUCH[slug];
  const effect = (await import(effectModules[slug])).default as Effect;
  const sheets = args.includes('--no-sheets') ? null : (sheetsArg >= 0 ? path.join(args[sheetsArg + 1], slug) : `/tmp/${slug.replace(/^face-/, '')}-sheets`);
  if (sheets) mkdirSync(sheets, { recursive: true });
  console.log(`\n${slug}: spill at ${JSON.stringify(kase.strong)} (region ${kase.region} + ${kase.margin * 100}% of face width), smoothing at ${JSON.stringify(kase.smoothing ?? null)}`);
  console.log(['half', 'photo', 'faces', 'spill %', 'cheeks', 'eyes', 'found', 'gender', 'min sim', 'human found', 'human gender', 'human min sim'].join('\t'));
  const summary: Record<string, { spill: number; cheeks: number[]; eyes: number[]; photos: number; engine: IdTally; human: IdTally }> = {};
  for (const rel of photos) {
    const h = half(rel), s = (summary[h] ??= { spill: 0, cheeks: [], eyes: [], photos: 0, engine: idTally(), human: idTally() });
    const before = await decode(path.join(testdata, rel));
    const run = async (params: Record<string, unknown>) => rawOf((await runEffect(effect, { image: before, params }, opts)).images.result.data);
    let strong: RasterImage;
    try { strong = await run(kase.strong); } catch (e) { console.log([h, rel, `(${(e as Error).message})`].join('\t')); continue; }
    s.photos++;
    // One set of facts for the measures: detection and parsing once per photo.
    const facts = jobFacts(before, models);
    const { faces, masks } = await regionsOf(before, kase.region, facts);
    const sp = spill(before, strong, faces, masks, kase.margin);
    s.spill = Math.max(s.spill, sp);
    const sm = kase.smoothing ? await smoothing(before, await run(kase.smoothing), faces, facts) : [];
    for (const x of sm) { s.cheeks.push(x.cheeks); s.eyes.push(x.eyes); }
    const id = await engineId.identity(before, strong), hid = await humanId.identity(before, strong);
    tallyIdentity(s.engine, id); tallyIdentity(s.human, hid);
    console.log([h, rel, faces.length, fmt(100 * sp, 3), sm.map((x) => fmt(x.cheeks)).join(','), sm.map((x) => fmt(x.eyes)).join(','),
      ...idColumns(id), ...idColumns(hid)].join('\t'));
    for (const [k, c] of id.changes.entries()) {
      console.log(genderChangeLine(c, engineId.maleAt));
      if (sheets) await faceSheet(path.join(sheets, `gender-${rel.replace(/[/.]/g, '_')}-${k}.png`), [before, strong], c.box);
    }
    if (sheets) await sheet(path.join(sheets, `${rel.replace(/[/.]/g, '_')}.png`), [before, await run(kase.typical ?? {}), strong], faces[0]);
  }
  for (const [h, s] of Object.entries(summary).sort()) {
    const max = (v: number[]) => (v.length ? Math.max(...v) : NaN), min = (v: number[]) => (v.length ? Math.min(...v) : NaN);
    const e = s.engine, hu = s.human;
    const ok = s.spill <= TARGET.spill && !(max(s.cheeks) > TARGET.cheeks) && !(min(s.eyes) < TARGET.eyes) && e.lost === 0 && e.gender === 0 && !(min(e.sim) < TARGET.similarity);
    failed ||= !ok;
    console.log(`${slug} ${h} (${s.photos} photos): worst spill ${fmt(100 * s.spill, 3)}% (≤ ${TARGET.spill * 100}%), cheeks worst ${fmt(max(s.cheeks))} (≤ ${TARGET.cheeks}), ` +
      `eyes worst ${fmt(min(s.eyes))} (≥ ${TARGET.eyes}), engine identity: ${e.faces} faces, lost ${e.lost}, gender changed ${e.gender}, similarity worst ${fmt(min(e.sim), 3)} (≥ ${TARGET.similarity}): ${ok ? 'PASS' : 'FAIL'}` +
      `; human's whole-photo identity (not deciding): ${hu.faces} faces, lost ${hu.lost}, gender changed ${hu.gender} (${hu.fromUnknown} of them 'unknown' before), similarity worst ${fmt(min(hu.sim), 3)}`);
  }
  if (sheets) console.log(`contact sheets: ${sheets}`);
}
process.exit(failed ? 1 : 0);
