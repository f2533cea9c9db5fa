/**
 * Spill and coverage of the lip effects on the shared portraits and landmark photos (../shared/testdata),
 * per half of a split by file name (sha1 of the path, first byte even = tune, odd = check; decided before
 * any tuning, as scripts/datasets/face-parts-data.ts does), against issue 9's targets:
 *   - spill: pixels changed by more than 12 in any channel outside the lips grown by 8 % of the face width,
 *     as a share of those pixels, ≤ 0.2 % on every photo;
 *   - coverage: of the lip pixels, the share changed by more than 12 and moved toward the colour (CIEDE2000
 *     to the colour smaller than before), ≥ 50 % per face.
 * The lips as reference are where the face parser (BiSeNet at 512, which the effects do not use) and the
 * mesh agree; the spill region grows their union, so a pixel either calls lip is not counted as spill.
 * lips-color-changer runs with three colours at opacity 100 on up to three faces (one entry each, by
 * face_rect); ai-red-lip-gloss runs as it is (5 largest faces; coverage toward its red, which its
 * highlight lowers).
 *
 *   npm run quality:lips            (exits 2 when ../shared/testdata is absent; ATELIER_TESTDATA overrides)
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import {
  classMask, deltaE, detectFaces, type Face, type FaceParser, faceRegions, GLOSS_RED as RED, type Lab, labOf,
  LINEAR, linearToLab, lipsColorEffect as lips, ModelRegistry, parseFace, type RasterImage,
  redLipGlossEffect as gloss, runEffect
} from '../../engine/for-scripts.ts';
import { toXywh } from '../../contract/rectangles.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
if (!existsSync(path.join(testdata, 'portraits'))) {
  console.error(`quality-lips: the shared test data is absent (looked in ${testdata}); nothing was measured.`);
  process.exit(2);
}
type Half = 'tune' | 'check';
const half = (rel: string): Half => (createHash('sha1').update(rel).digest()[0] & 1 ? 'check' : 'tune');
const COLOURS: [string, [number, number, number]][] = [['red', [200, 20, 60]], ['plum', [120, 30, 90]], ['coral', [240, 110, 90]]];
const SPILL_MAX = 0.002, COVERAGE_MIN = 0.5, MARGIN = 0.08;

const models = new ModelRegistry({ threads: 2 });
const kit = { models, signal: new AbortController().signal };
const parser = await models.get<FaceParser>('bisenet-face-parsing');

interface FaceRef { lips: Uint8Array; faceWidth: number }
/** The reference lips of a face: parser and mesh agree (for coverage); either (for the spill region). */
async function reference(image: RasterImage, face: Face): Promise<{ both: Uint8Array; either: Uint8Array; faceWidth: number }> {
  const n = image.width * image.height, m = face.mesh!;
  const parsed = classMask(await parseFace(parser, image, face), ['upperLip', 'lowerLip'], image).data;
  const r = faceRegions(face, image, image, ['upperLip', 'lowerLip']);
  const both = new Uint8Array(n), either = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const mesh = Math.min(255, (r.upperLip?.data[i] ?? 0) + (r.lowerLip?.data[i] ?? 0)) >= 128, p = parsed[i] >= 128;
    both[i] = mesh && p ? 1 : 0; either[i] = mesh || p ? 1 : 0;
  }
  return { both, either, faceWidth: Math.hypot(m[454][0] - m[234][0], m[454][1] - m[234][1]) };
}

/** Pixels within `radius` of a set pixel (two-pass chamfer distance, 1 and sqrt 2). */
function dilate(mask: Uint8Array, w: number, h: number, radius: number): Uint8Array {
  const d = new Float32Array(w * h).map((_, i) => (mask[i] ? 0 : 1e9));
  const D = Math.SQRT2;
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const i = y * w + x;
    if (x > 0) d[i] = Math.min(d[i], d[i - 1] + 1);
    if (y > 0) { d[i] = Math.min(d[i], d[i - w] + 1); if (x > 0) d[i] = Math.min(d[i], d[i - w - 1] + D); if (x < w - 1) d[i] = Math.min(d[i], d[i - w + 1] + D); }
  }
  for (let y = h - 1; y >= 0; y--) for (let x = w - 1; x >= 0; x--) {
    const i = y * w + x;
    if (x < w - 1) d[i] = Math.min(d[i], d[i + 1] + 1);
    if (y < h - 1) { d[i] = Math.min(d[i], d[i + w] + 1); if (x < w - 1) d[i] = Math.min(d[i], d[i + w + 1] + D); if (x > 0) d[i] = Math.min(d[i], d[i + w - 1] + D); }
  }
  return Uint8Array.from(d, (v) => (v <= radius ? 1 : 0));
}

const changed = (a: Uint8Array, b: Uint8Array, i: number) =>
  Math.abs(a[3 * i] - b[3 * i]) > 12 || Math.abs(a[3 * i + 1] - b[3 * i + 1]) > 12 || Math.abs(a[3 * i + 2] - b[3 * i + 2]) > 12;
const labAt = (d: Uint8Array, i: number): Lab => linearToLab(LINEAR[d[3 * i]], LINEAR[d[3 * i + 1]], LINEAR[d[3 * i + 2]]);

function measure(image: RasterImage, after: Uint8Array, refs: { both: Uint8Array; grown: Uint8Array }[], target: Lab) {
  const n = image.width * image.height;
  let outside = 0, spilled = 0;
  const grownAll = new Uint8Array(n);
  for (const r of refs) for (let i = 0; i < n; i++) grownAll[i] |= r.grown[i];
  for (let i = 0; i < n; i++) if (!grownAll[i]) { outside++; if (changed(image.data, after, i)) spilled++; }
  const coverage = refs.map((r) => {
    let lip = 0, good = 0;
    for (let i = 0; i < n; i++) {
      if (!r.both[i]) continue;
      lip++;
      if (changed(image.data, after, i) && deltaE(labAt(after, i), target) < deltaE(labAt(image.data, i), target)) good++;
    }
    return lip ? good / lip : NaN;
  });
  return { spill: outside ? spilled / outside : 0, coverage };
}

interface Row { rel: string; half: Half; effect: string; spill: number; coverage: number[] }
const rows: Row[] = [];
const files = [
  ...readdirSync(path.join(testdata, 'portraits')).map((f) => `portraits/${f}`),
  ...readdirSync(path.join(testdata, 'landmarks')).filter((f) => /\.(jpe?g|png)$/.test(f)).map((f) => `landmarks/${f}`),
];
for (const rel of files) {
  const { data, info } = await sharp(path.join(testdata, rel)).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const image: RasterImage = { data, width: info.width, height: info.height, channels: 3 };
  const faces = (await detectFaces(await models.get('human'), image)).filter((f) => f.mesh);
  if (faces.length === 0) { console.log(`${rel}: no meshed face, skipped`); continue; }
  const refOf = async (f: Face) => {
    const r = await reference(image, f);
    return { both: r.both, grown: dilate(r.either, image.width, image.height, MARGIN * r.faceWidth) };
  };
  const refs = await Promise.all(faces.slice(0, 5).map(refOf));
  const three = faces.slice(0, 3);
  for (const [name, rgb] of COLOURS) {
    const infos = three.map((f) => ({ rgba: { r: rgb[0], g: rgb[1], b: rgb[2], a: 100 }, face_rect: toXywh(f.box) }));
    const out = await runEffect(lips, { image, params: { lip_color_infos: infos } }, kit);
    const after = (await sharp(out.images.result.data).removeAlpha().raw().toBuffer()) as Uint8Array;
    rows.push({ rel, half: half(rel), effect: `lips ${name}`, ...measure(image, after, refs.slice(0, three.length), labOf(...rgb)) });
  }
  const out = await runEffect(gloss, { image, params: {} }, kit);
  const after = (await sharp(out.images.result.data).removeAlpha().raw().toBuffer()) as Uint8Array;
  rows.push({ rel, half: half(rel), effect: 'gloss', ...measure(image, after, refs, labOf(...RED.rgb)) });
  for (const r of rows.filter((x) => x.rel === rel)) {
    console.log(`${r.half.padEnd(5)} ${rel.padEnd(50)} ${r.effect.padEnd(10)} spill ${(100 * r.spill).toFixed(3)}%  coverage ${r.coverage.map((c) => `${(100 * c).toFixed(0)}%`).join(' ')}`);
  }
}

const pct = (v: number) => `${(100 * v).toFixed(1)}%`;
console.log('\nhalf  effect      photos  spill max   photos over 0.2%  faces  coverage min  median  faces under 50%');
let failed = false;
for (const h of ['tune', 'check'] as Half[]) {
  for (const effect of [...COLOURS.map(([n]) => `lips ${n}`), 'gloss']) {
    const rs = rows.filter((r) => r.half === h && r.effect === effect);
    const cov = rs.flatMap((r) => r.coverage).filter((c) => !Number.isNaN(c)).sort((a, b) => a - b);
    const over = rs.filter((r) => r.spill > SPILL_MAX).length, under = cov.filter((c) => c < COVERAGE_MIN).length;
    failed ||= over > 0 || under > 0;
    console.log(`${h.padEnd(5)} ${effect.padEnd(11)} ${String(rs.length).padStart(6)}  ${(100 * Math.max(0, ...rs.map((r) => r.spill))).toFixed(3).padStart(7)}%   ${String(over).padStart(16)}  ${String(cov.length).padStart(5)}  ${pct(cov[0] ?? NaN).padStart(12)}  ${pct(cov[cov.length >> 1] ?? NaN).padStart(6)}  ${String(under).padStart(15)}`);
  }
}
console.log(failed ? '\nsome targets missed (spill ≤ 0.2% on every photo, coverage ≥ 50% on every face)' : '\nall targets met');
process.exitCode = failed ? 1 : 0;
