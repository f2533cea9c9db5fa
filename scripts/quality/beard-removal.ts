/**
 * Quality of beard removal (ai-beard-removal) on the shared portraits and landmark photos, per half of the
 * split fixed before tuning (retouch-identity.ts's half(): sha1 of the path), with issue 11's targets:
 *   spill      pixels changed by more than 12 in any channel outside the faces' beard masks grown by 12 % of
 *              each face's width, as a share of those pixels: ≤ 0.5 % on every photo;
 *   identity   every face found again (box IoU ≥ 0.5), the same gender, human's descriptor similarity ≥ 0.85, by
 *              Atelier's own face pipeline (retouch-identity.ts engineDescriber); human's whole-photo measure beside;
 *   clean      on photos whose faces are all clean-shaven (scripts/datasets/beard-labels.json, by eye): the share of
 *              the faces' beard zones changed by more than 12 (0 wanted: a clean face comes back unchanged);
 *   found      on photos labelled bearded: how much of each face's beard zone the mask covers;
 *   texture    on bearded faces: the fine band's energy (L* less its blur over 0.006 face widths) over the
 *              beard mask after removal, as a multiple of the cheeks' (0.5-2 wanted: skin's grain, neither a smear
 *              nor hair left);
 *   texture med  the same with medians of the pooled fine energy (over 0.012 face widths) on both sides: the
 *              mean over the cheeks counts the edges in them (a glasses rim: 34 against the beard's own 7 on
 *              beard_full_short_black_glasses_03), so it is read beside;
 *   residual   on bearded faces: the share of the beard mask still dark (L* under the cheeks' 10th percentile by
 *              more than 2) or textured (pooled fine energy over 3x the cheeks' median) after removal;
 *   synthetic  a short beard drawn onto the largest face of each clean-shaven photo (engine/vision/regions/
 *              synthetic-beard.ts): the share of its hair pixels gone (back more than halfway to the clean
 *              photo) and the mean error to the clean photo after / before, over the drawn zone.
 * --sheet DIR: per photo, before | after, the faces' lower halves zoomed, and the synthetic beard's before |
 * after | clean; /tmp/beard-removal-sheets by default, --no-sheet for none.
 *
 *   npm run quality:beard-removal -- [--sheet DIR] [--no-sheet] [--half tune|check] [name-filter ...]
 *
 * Photos: retouch-identity.ts's set and the shared exemplars (exemplars/*.jpg), split alike.
 * Reads ../shared/testdata from the repository root (ATELIER_TESTDATA overrides); exits 2 without it.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp, { type OverlayOptions } from 'sharp';
import {
  BEARD_PARSING, BEARD_REGIONS, beardMask, beardTuning, blurPlane, changedPixels, dilate, drawStubble, type Effect,
  effectModules, type Face, jobFacts, meshFaceWidth, ModelRegistry, type RasterImage, removalTuning, runEffect,
  spill, toLab
} from '../../engine/for-scripts.ts';
import { engineDescriber, faceDescriber, genderChangeLine, half, idColumns, idSummary, idTally, retouchPhotos, tallyIdentity, type IdTally } from './retouch-identity.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
if (!existsSync(path.join(testdata, 'labels.json'))) {
  console.error(`quality-beard-removal: the shared test data is absent (looked in ${testdata}); nothing was measured.`);
  process.exit(2);
}

// BT='{"dark":1.5}' overrides beardTuning for a sweep (as beard-mask-debug.ts).
Object.assign(beardTuning, JSON.parse(process.env.BT ?? '{}'));
// RT='{"shade":1}' overrides removalTuning likewise.
Object.assign(removalTuning, JSON.parse(process.env.RT ?? '{}'));
const TARGET = { spill: 0.005, similarity: 0.85 };
const MARGIN = 0.12;
const args = process.argv.slice(2);
const sheetArg = args.indexOf('--sheet');
const sheets = args.includes('--no-sheet') ? null : sheetArg >= 0 ? args[sheetArg + 1] : '/tmp/beard-removal-sheets';
const halfArg = args.indexOf('--half');
const onlyHalf = halfArg >= 0 ? args[halfArg + 1] : null;
const filters = args.filter((a, i) => !a.startsWith('--') && (sheetArg < 0 || i !== sheetArg + 1) && (halfArg < 0 || i !== halfArg + 1));
if (sheets) mkdirSync(sheets, { recursive: true });

const bearded = (JSON.parse(readFileSync(path.join(root, 'scripts/datasets/beard-labels.json'), 'utf8')) as { bearded: Record<string, string> }).bearded;
const exemplars = existsSync(path.join(testdata, 'exemplars')) ? readdirSync(path.join(testdata, 'exemplars')).filter((f) => /\.jpe?g$/i.test(f)).map((f) => `exemplars/${f}`) : [];
const photos = [...retouchPhotos(testdata), ...exemplars.sort()].filter((p) => (!filters.length || filters.some((f) => p.includes(f))) && (!onlyHalf || half(p) === onlyHalf));
const models = new ModelRegistry({ threads: 2 });
const humanId = await faceDescriber(models), engineId = await engineDescriber(models);
const effect = (await import(effectModules['ai-beard-removal'])).default as Effect;
const kit = { models, signal: new AbortController().signal };

async function decode(file: string): Promise<RasterImage> {
  const { data, info } = await sharp(file).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}
async function removal(image: RasterImage): Promise<RasterImage> {
  const out = await runEffect(effect, { image, params: {} }, kit);
  const { data, info } = await sharp(out.images.result.data).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}

/** Each meshed face the effect works on (the 5 largest), its beard mask and beard zone as image-sized 0/1 planes. */
async function masksOf(img: RasterImage) {
  const facts = jobFacts(img, models);
  const faces = (await facts.faces()).slice(0, 5).filter((f) => f.mesh);
  const out: { face: Face; beard: Uint8Array; core: Uint8Array; zone: Uint8Array; cheeks: Uint8Array; coverage: number }[] = [];
  for (const face of faces) {
    const regions = facts.regions(face, BEARD_REGIONS);
    const m = beardMask(img, face, await facts.parsing(face, BEARD_PARSING), regions);
    const N = img.width * img.height;
    const beard = new Uint8Array(N), core = new Uint8Array(N), zone = new Uint8Array(N), cheeks = new Uint8Array(N);
    if (m) {
      for (let y = 0; y < m.win.h; y++) for (let x = 0; x < m.win.w; x++) {
        const i = y * m.win.w + x, o = (m.win.y0 + y) * img.width + m.win.x0 + x;
        if (m.beard[i] > 0.02) beard[o] = 1;
        if (m.beard[i] > 0.5) core[o] = 1;
        if (m.zone[i] > 0.5) zone[o] = 1;
      }
    }
    // The cheeks above the beard line: the mesh's cheeks out of the beard's zone and mask.
    for (const r of [regions.leftCheek, regions.rightCheek]) if (r) for (let i = 0; i < N; i++) if (r.data[i] > 128 && !zone[i] && !beard[i]) cheeks[i] = 1;
    out.push({ face, beard, core, zone, cheeks, coverage: m?.coverage ?? 0 });
  }
  return out;
}

const count = (m: Uint8Array) => m.reduce((s, v) => s + v, 0);
const raw = (m: RasterImage) => sharp(m.data, { raw: { width: m.width, height: m.height, channels: 3 } });
/** The lower half of a face (nose to below the chin), a square. */
function lowerFace(face: Face, img: RasterImage) {
  const m = face.mesh!, fw = meshFaceWidth(m);
  const s = Math.max(8, Math.min(img.width, img.height, Math.round(0.95 * fw)));
  const cx = m[17][0], cy = m[17][1] + 0.12 * fw;
  return { left: Math.max(0, Math.min(img.width - s, Math.round(cx - s / 2))), top: Math.max(0, Math.min(img.height - s, Math.round(cy - s / 2))), width: s, height: s };
}

async function sheet(file: string, title: string, before: RasterImage, after: RasterImage, faces: Face[], synth?: RasterImage[]) {
  const H = 360, Z = 300;
  const tileW = Math.round((before.width * H) / before.height);
  const comp: OverlayOptions[] = [];
  const width = Math.max(2 * tileW, (synth ? 3 : 2) * Z);
  const label = (text: string) => Buffer.from(`<svg width="${width}" height="20"><text x="4" y="15" font-size="14" fill="#ffd54a">${text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</text></svg>`);
  comp.push({ input: label(title), left: 0, top: 0 });
  for (const [k, im] of [before, after].entries()) comp.push({ input: await raw(im).resize({ height: H }).png().toBuffer(), left: k * tileW, top: 20 });
  let top = 20 + H;
  for (const face of faces) {
    const box = lowerFace(face, before);
    const kernel = box.width < Z / 2 ? 'nearest' : 'lanczos3';
    for (const [k, im] of [before, after].entries()) comp.push({ input: await raw(im).extract(box).resize(Z, Z, { kernel }).png().toBuffer(), left: k * Z, top });
    top += Z;
  }
  if (synth) {
    comp.push({ input: label('synthetic beard: drawn | removed | clean'), left: 0, top }); top += 20;
    const box = lowerFace(faces[0], before);
    for (const [k, im] of synth.entries()) comp.push({ input: await raw(im).extract(box).resize(Z, Z, { kernel: box.width < Z / 2 ? 'nearest' : 'lanczos3' }).png().toBuffer(), left: k * Z, top });
    top += Z;
  }
  await sharp({ create: { width, height: top, channels: 3, background: '#202020' } }).composite(comp).png().toFile(file);
}

/**
 * One bearded face's texture figure (the fine band's energy over the beard mask's core after removal, over the
 * cheeks') and residual (the share of the core still dark or textured after removal); null without a beard or cheeks.
 */
function grainAndResidual(before: RasterImage, after: RasterImage, m: { face: Face; core: Uint8Array; cheeks: Uint8Array }) {
  const fw = meshFaceWidth(m.face.mesh!);
  let x0 = before.width, y0 = before.height, x1 = -1, y1 = -1;
  for (let i = 0; i < m.core.length; i++) if (m.core[i] || m.cheeks[i]) {
    const x = i % before.width, y = (i / before.width) | 0;
    if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
  }
  if (x1 < 0) return null;
  const win = { x0, y0, w: x1 - x0 + 1, h: y1 - y0 + 1 }, n = win.w * win.h;
  const at = (p: Uint8Array, i: number) => p[(win.y0 + ((i / win.w) | 0)) * before.width + win.x0 + (i % win.w)];
  const fine = (img: RasterImage) => {
    const { L } = toLab(img, win);
    const b = blurPlane(L, win.w, win.h, Math.max(1, 0.006 * fw));
    const e = Float32Array.from(L, (v, i) => (v - b[i]) ** 2);
    return { L, e, pooled: blurPlane(e, win.w, win.h, Math.max(2, 0.012 * fw)) };
  };
  const bf = fine(before), af = fine(after);
  const cheekL: number[] = [], cheekE: number[] = [];
  let cheekSum = 0, core = 0, coreSum = 0;
  for (let i = 0; i < n; i++) if (at(m.cheeks, i)) { cheekL.push(bf.L[i]); cheekE.push(bf.pooled[i]); cheekSum += bf.e[i]; }
  if (cheekL.length < 30) return null;
  cheekL.sort((a, b) => a - b); cheekE.sort((a, b) => a - b);
  const darkAt = cheekL[Math.floor(0.1 * cheekL.length)] - 2, texAt = 3 * cheekE[cheekE.length >> 1];
  let left = 0;
  const coreE: number[] = [];
  for (let i = 0; i < n; i++) if (at(m.core, i)) {
    core++; coreSum += af.e[i]; coreE.push(af.pooled[i]);
    if (af.L[i] < darkAt || af.pooled[i] > texAt) left++;
  }
  if (!core) return null;
  coreE.sort((a, b) => a - b);
  return { texture: coreSum / core / (cheekSum / cheekL.length), textureMed: coreE[coreE.length >> 1] / Math.max(1e-9, cheekE[cheekE.length >> 1]), residual: left / core };
}

const fmt = (v: number, d = 2) => (Number.isFinite(v) ? v.toFixed(d) : '-');
interface Summary { photos: number; spill: number; engine: IdTally; human: IdTally; clean: number[]; found: string[]; gone: number[]; errRatio: number[]; ms: number[]; texture: number[]; textureMed: number[]; residual: number[] }
const summary: Record<string, Summary> = {};
console.log(['half', 'photo', 'faces', 'spill %', 'coverage', 'clean %', 'found', 'gender', 'min sim', 'human found', 'human gender', 'human min sim', 'synthetic gone', 'err after/before', 'texture x', 'texture med x', 'residual %', 's'].join('\t'));
for (const rel of photos) {
  const h = half(rel), s = (summary[h] ??= { photos: 0, spill: 0, engine: idTally(), human: idTally(), clean: [], found: [], gone: [], errRatio: [], ms: [], texture: [], textureMed: [], residual: [] });
  const before = await decode(path.join(testdata, rel));
  const t0 = performance.now();
  let after: RasterImage;
  try { after = await removal(before); } catch (e) { console.log([h, rel, `(${(e as Error).message})`].join('\t')); continue; }
  const ms = performance.now() - t0;
  s.photos++; s.ms.push(ms);
  const masks = await masksOf(before);
  const changed = changedPixels(before.data, after.data, 3, 12);
  // Spill: outside every face's beard mask grown by 12 % of its width.
  const allowed = new Uint8Array(changed.length);
  for (const m of masks) {
    const grown = dilate(m.beard, before.width, before.height, Math.round(MARGIN * meshFaceWidth(m.face.mesh!)));
    for (let i = 0; i < allowed.length; i++) allowed[i] |= grown[i];
  }
  const sp = spill(changed, allowed).fraction;
  s.spill = Math.max(s.spill, sp);
  const isBearded = rel in bearded;
  let cleanShare = NaN;
  if (!isBearded) {
    let zone = 0, moved = 0;
    for (const m of masks) for (let i = 0; i < changed.length; i++) if (m.zone[i]) { zone++; moved += changed[i]; }
    cleanShare = zone ? moved / zone : 0;
    s.clean.push(cleanShare);
  } else s.found.push(`${path.basename(rel)}: ${masks.map((m) => fmt(m.coverage)).join(',')}`);
  const tex: number[] = [], texMed: number[] = [], res: number[] = [];
  if (isBearded) for (const m of masks) {
    const t = grainAndResidual(before, after, m);
    if (t) { tex.push(t.texture); texMed.push(t.textureMed); res.push(t.residual); s.texture.push(t.texture); s.textureMed.push(t.textureMed); s.residual.push(t.residual); }
  }
  const id = await engineId.identity(before, after), hid = await humanId.identity(before, after);
  tallyIdentity(s.engine, id); tallyIdentity(s.human, hid);

  // A beard drawn onto the largest face of a clean-shaven photo.
  let synth: RasterImage[] | undefined, gone = NaN, ratio = NaN;
  if (!isBearded && masks[0]) {
    const drawn: RasterImage = { ...before, data: Buffer.from(before.data) };
    const zone = drawStubble(drawn, masks[0].face, { density: 0.5 });
    const shaved = await removal(drawn);
    let hairs = 0, back = 0, eb = 0, ea = 0;
    for (let i = 0; i < zone.length; i++) {
      if (!zone[i]) continue;
      const j = i * 3;
      for (let c = 0; c < 3; c++) { eb += Math.abs(drawn.data[j + c] - before.data[j + c]); ea += Math.abs(shaved.data[j + c] - before.data[j + c]); }
      const dark = before.data[j] - drawn.data[j];
      if (dark > 40) { hairs++; if (shaved.data[j] - drawn.data[j] > 0.5 * dark) back++; }
    }
    gone = hairs ? back / hairs : NaN; ratio = eb ? ea / eb : NaN;
    if (hairs) { s.gone.push(gone); s.errRatio.push(ratio); }
    synth = [drawn, shaved, before];
  }
  console.log([h, rel, masks.length, fmt(100 * sp, 3), masks.map((m) => fmt(m.coverage)).join(','), fmt(100 * cleanShare, 2), ...idColumns(id),
    ...idColumns(hid), fmt(gone), fmt(ratio), tex.map((v) => fmt(v)).join(',') || '-', texMed.map((v) => fmt(v)).join(',') || '-', res.map((v) => fmt(100 * v, 1)).join(',') || '-', fmt(ms / 1000, 1)].join('\t'));
  for (const c of id.changes) console.log(genderChangeLine(c, engineId.maleAt));
  if (sheets) await sheet(path.join(sheets, `${rel.replace(/[/.]/g, '_')}.png`), `${h} ${rel} (${isBearded ? `bearded: ${bearded[rel]}` : 'clean-shaven'}) coverage ${masks.map((m) => fmt(m.coverage)).join(',')}`, before, after, masks.map((m) => m.face), synth);
}

let failed = false;
const mean = (v: number[]) => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : NaN);
const med = (v: number[]) => (v.length ? [...v].sort((a, b) => a - b)[v.length >> 1] : NaN);
const min = (v: number[]) => (v.length ? Math.min(...v) : NaN), max = (v: number[]) => (v.length ? Math.max(...v) : NaN);
for (const [h, s] of Object.entries(summary).sort()) {
  const e = s.engine;
  const ok = s.spill <= TARGET.spill && e.lost === 0 && e.gender === 0 && !(min(e.sim) < TARGET.similarity) && !(max(s.clean) > 0.01);
  failed ||= !ok;
  console.log(`\n${h} (${s.photos} photos): worst spill ${fmt(100 * s.spill, 3)}% (≤ ${TARGET.spill * 100}%), engine identity: ${idSummary(e)} (≥ ${TARGET.similarity}); human's whole-photo identity (not deciding): ${idSummary(s.human)}; clean-shaven zones changed: worst ${fmt(100 * max(s.clean))}%, mean ${fmt(100 * mean(s.clean))}% ` +
    `over ${s.clean.length} photos; synthetic beards: hair gone mean ${fmt(mean(s.gone))}, worst ${fmt(min(s.gone))}, error after/before mean ${fmt(mean(s.errRatio))} ` +
    `over ${s.gone.length}; bearded faces' texture (filled / cheeks, 0.5-2) median ${fmt(med(s.texture))}, worst low ${fmt(min(s.texture))}, high ${fmt(max(s.texture))}, ` +
    `within 0.5-2 ${s.texture.filter((v) => v >= 0.5 && v <= 2).length}/${s.texture.length}; by medians ${fmt(med(s.textureMed))}, worst low ${fmt(min(s.textureMed))}, high ${fmt(max(s.textureMed))}, within 0.5-2 ${s.textureMed.filter((v) => v >= 0.5 && v <= 2).length}/${s.textureMed.length}; residual median ${fmt(100 * med(s.residual), 1)}%, worst ${fmt(100 * max(s.residual), 1)}%; time per photo median ${fmt(s.ms.sort((a, b) => a - b)[s.ms.length >> 1] / 1000, 1)} s: ${ok ? 'PASS' : 'FAIL'}`);
  for (const f of s.found) console.log(`  bearded ${f}`);
}
if (sheets) console.log(`contact sheets: ${sheets}`);
process.exit(failed ? 1 : 0);
