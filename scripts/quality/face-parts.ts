/**
 * Accuracy of the part attributes (engine/effects/face-analyzer/analysis/part-attributes.ts) on the shared test faces against
 * the by-eye labels in scripts/datasets/face-parts-labels.json, per half of the split by file name (sha1 first byte
 * even = fit, odd = check; scripts/datasets/face-parts-data.ts), with the majority-class baseline of each half and
 * the mean probability given. Also the time per face of partAttributes() (parsing and hair mask apart; their
 * times come from the cache's first run).
 *
 *   npx tsx scripts/quality/face-parts.ts            # uses /tmp/face-parts/cache when present
 *   npx tsx scripts/quality/face-parts.ts --fresh    # recomputes detection, parsing and hair masks
 *   (--errors lists the misses; --hair-from parser|selfie|meet|rvm compares hair masks; with rvm, RVM's input side is the analyzer's HAIR_RVM_SIDE or ATELIER_RVM_SIDE;
 *   the cache holds the hair masks from when it was filled)
 *
 * Reads ../shared/testdata from the repository root (ATELIER_TESTDATA overrides); exits 2 without it.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  decideParts, HAIR_RVM_SIDE, hairFromMatte, type Mask, measureParts, ModelRegistry, type PartAttributes,
  personMatteWith, type PersonModel
} from '../../engine/for-scripts.ts';
import { half, photoData, photoList, type Half, type PhotoData } from '../datasets/face-parts-data.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
if (!existsSync(path.join(testdata, 'portraits'))) {
  console.error(`quality-face-parts: the shared test data is absent (looked in ${testdata}); nothing was measured.`);
  process.exit(2);
}
const args = process.argv.slice(2);
const labels = JSON.parse(readFileSync(path.join(root, 'scripts/datasets/face-parts-labels.json'), 'utf8')).faces as Record<string, Record<string, number>>;

const ATTRS: Record<string, (a: PartAttributes) => { type: number; probability: number }> = {
  glass: (a) => a.glass,
  hat: (a) => a.hat.style,
  hat_color: (a) => a.hat.color,
  moustache: (a) => a.moustache,
  hair_color: (a) => a.hair.color,
  hair_length: (a) => a.hair.length,
  bang: (a) => a.hair.bang,
  skin: (a) => a.skin,
};

/**
 * --hair-from parser: no hair mask (the parser's hair alone); --hair-from selfie|meet|rvm: the hair mask from
 * that person matte, recomputed on the cached photo (a comparison of what the hair measures need).
 */
const hairFrom = args.includes('--hair-from') ? args[args.indexOf('--hair-from') + 1] : undefined;
const hairCache = new Map<string, Mask | undefined>();
async function hairFor(d: PhotoData): Promise<Mask | undefined> {
  if (!hairFrom) return d.hair;
  if (hairFrom === 'parser') return undefined;
  if (!hairCache.has(d.rel)) hairCache.set(d.rel, await hairFromMatte(d.image, await personMatteWith(models, d.image, hairFrom as PersonModel, { rvmSide: Number(process.env.ATELIER_RVM_SIDE) || HAIR_RVM_SIDE }), d.faces));
  return hairCache.get(d.rel);
}

interface Row { key: string; half: Half; label: Record<string, number>; a: PartAttributes; ms: number }
const models = new ModelRegistry();
const rows: Row[] = [];
const parseMs: number[] = [], hairMs: number[] = [];
let unlabelled = 0;
for (const rel of photoList(testdata)) {
  const d = await photoData(models, testdata, rel, args.includes('--fresh'));
  parseMs.push(...d.ms.parse);
  if (d.faces.length) hairMs.push(d.ms.hair);
  for (let i = 0; i < d.faces.length; i++) {
    const key = `${rel}#${i}`;
    const t0 = performance.now();
    const x = measureParts(d.faces[i], d.image, d.parsings[i]!, await hairFor(d));
    const a = x && decideParts(x);
    const ms = performance.now() - t0;
    if (!a) continue;
    if (!labels[key]) { unlabelled++; continue; }
    rows.push({ key, half: half(rel), label: labels[key], a, ms });
  }
}

const pct = (k: number, n: number) => (n ? `${((100 * k) / n).toFixed(0)}%`.padStart(4) : '   -');
console.log(`faces: ${rows.length} labelled (fit ${rows.filter((r) => r.half === 'fit').length}, check ${rows.filter((r) => r.half === 'check').length}), ${unlabelled} unlabelled`);
console.log('attribute     | fit: n  acc  base  mean p | check: n  acc  base  mean p');
const errors: string[] = [];
for (const [name, get] of Object.entries(ATTRS)) {
  const cells = (['fit', 'check'] as Half[]).map((h) => {
    const rs = rows.filter((r) => r.half === h && r.label[name] !== undefined);
    const ok = rs.filter((r) => get(r.a).type === r.label[name]);
    for (const r of rs) if (get(r.a).type !== r.label[name]) errors.push(`${h} ${name}: ${r.key} label ${r.label[name]} got ${get(r.a).type} (p ${get(r.a).probability})`);
    const counts = new Map<number, number>();
    for (const r of rs) counts.set(r.label[name], (counts.get(r.label[name]) ?? 0) + 1);
    const base = Math.max(0, ...counts.values());
    const meanP = rs.length ? rs.reduce((s, r) => s + get(r.a).probability, 0) / rs.length : NaN;
    return `${String(rs.length).padStart(4)} ${pct(ok.length, rs.length)} ${pct(base, rs.length)}  ${meanP.toFixed(2)}`;
  });
  console.log(`${name.padEnd(13)} | ${cells[0]}   | ${cells[1]}`);
}
const sorted = (v: number[]) => [...v].sort((a, b) => a - b);
const q = (v: number[], f: number) => sorted(v)[Math.min(v.length - 1, Math.floor(f * v.length))];
// The first face pays for JIT and the mirror table: left out of the spread.
const ms = rows.slice(1).map((r) => r.ms);
console.log(`partAttributes per face: median ${q(ms, 0.5).toFixed(1)} ms, p90 ${q(ms, 0.9).toFixed(1)} ms, max ${Math.max(...ms).toFixed(1)} ms (first ${rows[0]?.ms.toFixed(0)} ms)`);
if (parseMs.length) console.log(`for comparison, when the cache was filled: parseFace median ${q(parseMs, 0.5).toFixed(0)} ms per face, hair mask median ${q(hairMs, 0.5).toFixed(0)} ms per photo`);
if (args.includes('--errors')) for (const e of errors) console.log(e);
