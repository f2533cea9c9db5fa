/**
 * Quality of beard styling on the shared portraits and landmark photos, per half of the split fixed before
 * tuning (retouch-identity.ts's half(): sha1 of the path), with issue 11's targets, for every preset:
 *   spill     pixels changed by more than 12 in any channel outside the edit's region (each face's preset
 *             shape through its mesh, shape.ts, and the face's own beard that the edit removes first,
 *             beard.ts) grown by 12 % of that face's width (a square grow), as a share of those pixels: ≤ 0.5 %;
 *   chin      share of each face's chin (the mesh's chin region) changed by more than 12: ≥ 30 % for the
 *             beard styles (moustaches, mutton chops and the soul patch leave the chin bare by design);
 *   identity  every face found again (box IoU ≥ 0.5) with the same gender, and human's face-descriptor
 *             similarity before / after ≥ 0.85, by Atelier's own face pipeline (retouch-identity.ts
 *             engineDescriber); human's whole-photo measure printed beside.
 * The beard is drawn by the effect's own per-face edit (styleFace: the face's own beard removed, the preset
 * laid; on the largest meshed face) over facts
 * computed once per photo, so 24 presets cost one detection and parsing per photo.
 *
 *   npm run quality:beard-styling -- [--presets A,B] [--photos REL,REL] [--sheet DIR] [--no-human]
 *
 * --photos limits the run to those photos (paths under the test data, e.g. portraits/obama_official_portrait.jpg).
 * --no-human skips human's whole-photo measure (not deciding; about a third of the run on a loaded machine).
 * --sheet DIR also writes DIR/beard-presets.png: all 24 presets on three faces (lower face crops), or on the
 * largest face of each photo --photos names.
 * Reads ../shared/testdata from the repository root (ATELIER_TESTDATA overrides); exits 2 without it.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import {
  BEARD_PRESETS, BEARD_REGIONS, beardMask, changedPixels, dilate, type Face, type FaceParsing, faceRegions,
  faceShape, jobFacts, loadBeardLibrary, type Mask, meshFaceWidth, ModelRegistry, type RasterImage, type RegionName, spill, styleFace,
  STYLING_PARSING as PARSE
} from '../../engine/for-scripts.ts';
import { writeSheet, type SheetRow } from './beard-sheet.ts';
import { engineDescriber, faceDescriber, genderChangeLine, half, idColumns, idSummary, idTally, retouchPhotos, tallyIdentity, type IdTally } from './retouch-identity.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
if (!existsSync(path.join(testdata, 'labels.json'))) {
  console.error(`quality-beard-styling: the shared test data is absent (looked in ${testdata}); nothing was measured.`);
  process.exit(2);
}

const TARGET = { spill: 0.005, chin: 0.3, similarity: 0.85 };
const MARGIN = 0.12;
const SHEET_FACES = ['portraits/obama_official_portrait.jpg', 'portraits/man_glasses_smiling_superbomba.jpg', 'portraits/man_beard_smiling_lacamoire.png'];

const args = process.argv.slice(2);
const opt = (name: string) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const presets = (opt('--presets')?.split(',') ?? BEARD_PRESETS.map((p) => p.name)).map((n) => {
  const p = BEARD_PRESETS.find((q) => q.name === n);
  if (!p) { console.error(`quality-beard-styling: no preset ${n}`); process.exit(1); }
  return p;
});
const sheetDir = opt('--sheet');
const withHuman = !args.includes('--no-human');

const models = new ModelRegistry({ threads: 2 });
await loadBeardLibrary();
const humanId = await faceDescriber(models), engineId = await engineDescriber(models);

async function decode(file: string): Promise<RasterImage> {
  const { data, info } = await sharp(file).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}

/** The effect's faces (the largest, when it has a mesh) and their parsings, once per photo. */
async function prepare(image: RasterImage) {
  const facts = jobFacts(image, models);
  const faces = (await facts.faces()).slice(0, 1).filter((f) => f.mesh);
  const parsings = await Promise.all(faces.map((f) => facts.parsing(f, PARSE)));
  const regions = faces.map((f) => facts.regions(f, BEARD_REGIONS));
  return { faces, parsings, regions };
}

function styled(image: RasterImage, faces: Face[], parsings: FaceParsing[], regions: Partial<Record<RegionName, Mask>>[], name: string): RasterImage {
  const result = { ...image, data: Buffer.from(image.data) };
  faces.forEach((f, i) => styleFace(image, result, f, parsings[i], regions[i], name, i));
  return result;
}

interface Tally { spill: number; chin: number[]; engine: IdTally; human: IdTally; runs: number }
const tally = new Map<string, Tally>();
const tallyOf = (key: string) => { let t = tally.get(key); if (!t) { t = { spill: 0, chin: [], engine: idTally(), human: idTally(), runs: 0 }; tally.set(key, t); } return t; };

const only = opt('--photos')?.split(',');
const photos = retouchPhotos(testdata).filter((rel) => !only || only.includes(rel));
/** The sheet's rows: the photos --photos names (each one's largest face), else three chosen faces. */
const sheetFaces = only ?? SHEET_FACES;
const sheetRows: SheetRow[] = [];
console.log(['half', 'photo', 'faces', 'preset', 'spill %', 'chin min', 'found', 'gender', 'min sim', 'human found', 'human gender', 'human min sim', 'ms'].join('\t'));
for (const rel of photos) {
  const h = half(rel);
  const image = await decode(path.join(testdata, rel));
  const { faces, parsings, regions } = await prepare(image);
  if (!faces.length) { console.log([h, rel, 0, '(no meshed face)'].join('\t')); continue; }
  const before = await engineId.described(image), humanBefore = withHuman ? await humanId.described(image) : [];
  const chins = faces.map((f) => faceRegions(f, image, image, ['chin']).chin!.data);
  const removedBeards = faces.map((f, k) => { const m = beardMask(image, f, parsings[k], regions[k]); return m && m.coverage > 0 ? m : null; });
  const row: SheetRow | undefined = sheetFaces.includes(rel) && sheetDir ? { label: path.basename(rel).slice(0, 12), face: faces[0], before: image, after: new Map() } : undefined;
  for (const preset of presets) {
    const t0 = performance.now();
    const after = styled(image, faces, parsings, regions, preset.name);
    const ms = performance.now() - t0;
    if (row) row.after.set(preset.name, after);
    // The style's region on every face, grown by 12 % of that face's width.
    const region = new Uint8Array(image.width * image.height);
    faces.forEach((f, k) => {
      const s = faceShape(preset, f.mesh!, image);
      const own = new Uint8Array(image.width * image.height);
      for (let y = 0; y < s.win.h; y++) for (let x = 0; x < s.win.w; x++) if (s.union[y * s.win.w + x] > 0.02) own[(s.win.y0 + y) * image.width + s.win.x0 + x] = 1;
      // The face's own beard, which the edit removes first, is part of the edit's region too.
      const removed = removedBeards[k];
      if (removed) for (let y = 0; y < removed.win.h; y++) for (let x = 0; x < removed.win.w; x++) if (removed.beard[y * removed.win.w + x] > 0.02) own[(removed.win.y0 + y) * image.width + removed.win.x0 + x] = 1;
      const grown = dilate(own, image.width, image.height, Math.round(MARGIN * meshFaceWidth(f.mesh!)));
      for (let i = 0; i < region.length; i++) if (grown[i]) region[i] = 1;
    });
    const moved = changedPixels(image.data, after.data, 3);
    const sp = spill(moved, region).fraction;
    const chinShares = chins.map((c) => {
      let n = 0, m = 0;
      for (let i = 0; i < c.length; i++) if (c[i] >= 128) { n++; if (moved[i]) m++; }
      return n ? m / n : NaN;
    });
    const id = engineId.compare(before, await engineId.described(after)), hid = withHuman ? humanId.compare(humanBefore, await humanId.described(after)) : { found: 0, total: 0, gender: 0, fromUnknown: 0, minSim: NaN };
    const t = tallyOf(`${h}:${preset.name}`);
    t.runs++; t.spill = Math.max(t.spill, sp); tallyIdentity(t.engine, id); tallyIdentity(t.human, hid);
    if (preset.kind === 'beard') t.chin.push(...chinShares.filter(Number.isFinite));
    console.log([h, rel, faces.length, preset.name, fmt(100 * sp, 3), fmt(Math.min(...chinShares)), ...idColumns(id), ...idColumns(hid), Math.round(ms)].join('\t'));
    for (const c of id.changes) console.log(genderChangeLine(c, engineId.maleAt));
  }
  if (row) sheetRows.push(row);
}

function fmt(v: number, d = 2) { return Number.isFinite(v) ? v.toFixed(d) : '-'; }

let failed = false;
const min = (v: number[]) => (v.length ? Math.min(...v) : NaN);
for (const h of ['tune', 'check']) {
  console.log(`\n${h} half: preset, runs, worst spill %, chin changed (worst face), faces lost, gender changed, similarity worst (engine); the same by human's whole-photo measure`);
  const all: Tally = { spill: 0, chin: [], engine: idTally(), human: idTally(), runs: 0 };
  for (const p of presets) {
    const t = tally.get(`${h}:${p.name}`);
    if (!t) continue;
    const ok = t.spill <= TARGET.spill && !(min(t.chin) < TARGET.chin) && t.engine.lost === 0 && t.engine.gender === 0 && !(min(t.engine.sim) < TARGET.similarity);
    failed ||= !ok;
    all.runs += t.runs; all.spill = Math.max(all.spill, t.spill); all.chin.push(...t.chin); 
    for (const k of ['engine', 'human'] as const) {
      all[k].faces += t[k].faces; all[k].lost += t[k].lost; all[k].gender += t[k].gender; all[k].fromUnknown += t[k].fromUnknown; all[k].sim.push(...t[k].sim);
    }
    console.log([p.name.padEnd(22), t.runs, fmt(100 * t.spill, 3), p.kind === 'beard' ? fmt(min(t.chin)) : '(bare chin)', t.engine.lost, t.engine.gender, fmt(min(t.engine.sim), 3), t.human.lost, t.human.gender, fmt(min(t.human.sim), 3), ok ? 'PASS' : 'FAIL'].join('\t'));
  }
  const below = all.engine.sim.filter((s) => s < TARGET.similarity).length;
  console.log(`${h}: ${all.runs} photo-presets; worst spill ${fmt(100 * all.spill, 3)} % (≤ ${TARGET.spill * 100} %); chin changed worst ${fmt(min(all.chin))} (≥ ${TARGET.chin}); ` +
    `engine identity: ${idSummary(all.engine)}, below ${TARGET.similarity} on ${below} of ${all.engine.sim.length}; human's whole-photo identity (not deciding): ${idSummary(all.human)}`);
}

if (sheetDir) {
  mkdirSync(sheetDir, { recursive: true });
  const file = path.join(sheetDir, 'beard-presets.png');
  const order = sheetFaces.map((rel) => sheetRows.find((r) => r.label === path.basename(rel).slice(0, 12))).filter((r): r is SheetRow => !!r);
  await writeSheet(file, order, presets.map((p) => p.name), 9);
  console.log(`contact sheet: ${file}`);
}
process.exit(failed ? 1 : 0);
