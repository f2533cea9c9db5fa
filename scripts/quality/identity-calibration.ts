/**
 * What human's face-descriptor similarity means on this data, by the measure the portrait quality scripts
 * use (retouch-identity.ts engineDescriber: the engine's detector, its face square, faceres' descriptor):
 *   same person, same photo     a re-encode (JPEG 75) and a half-size copy of each portrait face: the floor
 *                               of a change that alters nothing a person would see;
 *   same person, other photo    Obama's official portrait against his face in biden_obama (another day,
 *                               another pose, laughing) and in obama_partial_face_cropped;
 *   different people            every pair of UTKFace chips (padded so the detector finds the face) of the
 *                               same gender with ages within 10 years, and every pair of portrait faces
 *                               of the same labelled gender (each person once).
 *
 *   tsx scripts/quality/identity-calibration.ts
 *
 * Similarities are printed unclamped (see `unclamped`); human's own figure is min(1, that), to 0.01.
 * Reads ../shared/testdata from the repository root (ATELIER_TESTDATA overrides); exits 2 without it.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp, { type Sharp } from 'sharp';
import { ModelRegistry, type RasterImage } from '../../engine/for-scripts.ts';
import { engineDescriber, type EngineDescribed } from './retouch-identity.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
if (!existsSync(path.join(testdata, 'labels.json'))) {
  console.error(`identity-calibration: the shared test data is absent (looked in ${testdata}); nothing was measured.`);
  process.exit(2);
}
const labels = JSON.parse(readFileSync(path.join(testdata, 'labels.json'), 'utf8')).files as Record<string, { kind: string; age?: number; gender?: string; faces?: { gender: string }[] }>;

const models = new ModelRegistry({ threads: 2 });
const described = await engineDescriber(models);
/**
 * human's similarity clamps at 1 where the descriptors lie within 4 of each other (1 - 5 d / 100 mapped
 * from [0.2, 0.8] onto [0, 1], rounded to 0.01): the same formula unclamped and unrounded tells the
 * near-identical pairs apart (0.85 on both scales is d = 5.8).
 */
const unclamped = (a: number[], b: number[]) => { let d = 0; for (let i = 0; i < a.length; i++) d += (a[i] - b[i]) ** 2; return (1 - (5 * Math.sqrt(d)) / 100 - 0.2) / 0.6; };
const engine = { ...described, similarity: unclamped };

async function raw(s: Sharp): Promise<RasterImage> {
  const { data, info } = await s.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}
const load = (rel: string) => raw(sharp(path.join(testdata, rel)).rotate());
const largest = (fs: EngineDescribed[]) => fs.reduce<EngineDescribed | undefined>((a, f) => (!a || f.box[2] > a.box[2] ? f : a), undefined);
const fmt = (v: number) => v.toFixed(3);
function stats(name: string, v: number[]) {
  const s = [...v].sort((a, b) => a - b), q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  console.log(`${name.padEnd(52)} n ${String(s.length).padStart(4)}  min ${fmt(s[0])}  median ${fmt(q(0.5))}  p95 ${fmt(q(0.95))}  max ${fmt(s[s.length - 1])}`);
}

// Same photo, re-encoded and halved: each portrait's largest face.
const portraits = Object.keys(labels).filter((k) => labels[k].kind === 'portrait').sort();
const jpeg: number[] = [], halfSize: number[] = [];
for (const rel of portraits) {
  const img = await load(rel);
  const a = largest(await engine.described(img));
  if (!a) continue;
  const buf = () => sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } });
  const j = largest(await engine.described(await raw(sharp(await buf().jpeg({ quality: 75 }).toBuffer()))));
  const hs = largest(await engine.described(await raw(buf().resize(Math.round(img.width / 2)))));
  if (j) jpeg.push(engine.similarity(a.embedding, j.embedding));
  if (hs) halfSize.push(engine.similarity(a.embedding, hs.embedding));
  console.log(`${rel}\tJPEG 75 ${j ? fmt(engine.similarity(a.embedding, j.embedding)) : '-'}\thalf size ${hs ? fmt(engine.similarity(a.embedding, hs.embedding)) : '-'}`);
}

// Same person, other photos: Obama.
const official = largest(await engine.described(await load('portraits/obama_official_portrait.jpg')))!;
const obamaPairs: [string, number][] = [];
for (const rel of ['portraits/biden_obama_laughing_whitehouse.jpg', 'portraits/obama_partial_face_cropped.jpg', 'portraits/obama_official_exif_orientation6.jpg']) {
  const faces = await engine.described(await load(rel));
  const sims = faces.map((f) => engine.similarity(official.embedding, f.embedding));
  console.log(`obama_official vs ${rel}: faces ${faces.length}, similarity to each ${sims.map(fmt).join(', ')}`);
  if (sims.length) obamaPairs.push([rel, Math.max(...sims)]);
}

// Different people: UTKFace chips padded to twice their size (the detector misses a face filling the frame).
interface Person { id: string; gender: string; age?: number; e: number[] }
const people: Person[] = [];
let missed = 0;
for (const rel of Object.keys(labels).filter((k) => labels[k].kind === 'face_age_gender').sort()) {
  const l = labels[rel];
  if ((l.age ?? 0) < 16) continue;
  const img = await raw(sharp(path.join(testdata, rel)).extend({ top: 100, bottom: 100, left: 100, right: 100, extendWith: 'mirror' }));
  const f = largest(await engine.described(img));
  if (!f) { missed++; continue; }
  people.push({ id: rel, gender: l.gender!, age: l.age, e: f.embedding });
}
const utk: Record<string, number[]> = { male: [], female: [] }, utkAny: number[] = [];
for (let i = 0; i < people.length; i++) for (let j = i + 1; j < people.length; j++) {
  const a = people[i], b = people[j], s = engine.similarity(a.e, b.e);
  utkAny.push(s);
  if (a.gender === b.gender && Math.abs(a.age! - b.age!) <= 10) utk[a.gender].push(s);
}
// Portrait faces, each labelled person once (the Obama repeats and the rotated astronaut left out).
const distinct = portraits.filter((r) => !/exif|rot90|partial/.test(r) && labels[r].faces?.length);
const pf: Person[] = [];
for (const rel of distinct) {
  const faces = (await engine.described(await load(rel))).sort((a, b) => a.box[0] - b.box[0]);
  const lab = labels[rel].faces!;
  // Label order is not box order: only photos whose faces share one gender are used.
  const g = new Set(lab.map((x) => x.gender));
  if (g.size !== 1) continue;
  faces.forEach((f, k) => pf.push({ id: `${path.basename(rel)}#${k}`, gender: [...g][0], e: f.embedding }));
}
const pSame: number[] = [];
let pBest: [string, string, number] = ['', '', -1];
for (let i = 0; i < pf.length; i++) for (let j = i + 1; j < pf.length; j++) {
  const a = pf[i], b = pf[j];
  if (a.gender !== b.gender || a.id.split('#')[0] === b.id.split('#')[0] && a.id === b.id) continue;
  // biden_obama's Obama against the official portrait is the same person, not a pair of strangers.
  if (/obama/.test(a.id) && /obama/.test(b.id)) continue;
  const s = engine.similarity(a.e, b.e);
  pSame.push(s);
  if (s > pBest[2]) pBest = [a.id, b.id, s];
}

console.log('\nsimilarity (engine measure, retouch-identity.ts engineDescriber)');
stats('same photo, JPEG 75 re-encode (largest face)', jpeg);
stats('same photo, half size (largest face)', halfSize);
for (const [rel, s] of obamaPairs) console.log(`${`same person, obama_official vs ${path.basename(rel)}`.padEnd(52)} ${fmt(s)}`);
stats('different people, UTKFace, same gender, age ±10: men', utk.male);
stats('different people, UTKFace, same gender, age ±10: women', utk.female);
stats('different people, UTKFace, any pair', utkAny);
stats('different people, portrait faces, same gender', pSame);
console.log(`most similar strangers among the portraits: ${pBest[0]} / ${pBest[1]} ${fmt(pBest[2])}; UTKFace chips used ${people.length}, not found ${missed}`);
process.exit(0);
