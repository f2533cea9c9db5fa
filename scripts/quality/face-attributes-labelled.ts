/**
 * The face analyzer's look-at-it attributes against by-eye labels (face-attributes.labels.json beside this
 * script) on every face of the shared portraits and exemplars that gets attributes: glasses (none, clear,
 * sunglasses), hat, moustache, eyes closed, hair length and hair colour. Per attribute and per half of the
 * split by file (face-parts-data.ts half(): sha1 of the path, fixed before tuning): accuracy, the count, the
 * majority-label baseline and the mean probability given. The answers are the analyzer's own: its faces
 * (jobFacts, largest first), its part inputs (part-inputs.ts) and its rules (decideParts, decideGeometry).
 *
 *   npm run quality:face-attributes -- --labelled [--fresh] [--errors] [--dump /tmp/features.json]
 *
 * --fresh: detection, parsing and hair mask recomputed (else read from /tmp/face-attributes/portraits);
 * --errors: every miss with its measures; --dump: every labelled face's measures and labels, for fitting.
 * A label is matched to a face by its box (sameFace), so a change of detection order does not mislabel.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  decideGeometry, decideParts, geometryFeatures, greyFace, measureGeometry, measureParts, ModelRegistry,
  type GeometryFeatures, type PartFeatures
} from '../../engine/for-scripts.ts';
import { portraitList, portraitPhoto } from '../datasets/face-attributes-portraits.ts';
import type { Half } from '../datasets/face-parts-data.ts';
import { sameFace } from '../datasets/same-face.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The labelled attributes and where each is in the answer (codes as docs/interface.md#face-analyzer). */
export const LABELLED = ['glass', 'hat', 'moustache', 'eyes_closed', 'hair_length', 'hair_color'] as const;
type Attr = (typeof LABELLED)[number];
type Label = Partial<Record<Attr, number>> & { box: [number, number, number, number] };
interface Answer { type: number; probability: number }

export async function labelledFigures(testdata: string, args: string[]) {
  const file = JSON.parse(readFileSync(path.join(here, 'face-attributes.labels.json'), 'utf8')) as { faces: Record<string, Label> };
  const models = new ModelRegistry({ threads: 2 });
  const rows: { key: string; half: Half; label: Label; got: Record<Attr, Answer>; parts: PartFeatures; geometry: GeometryFeatures }[] = [];
  let unmatched = 0;
  for (const rel of portraitList(testdata)) {
    const photo = await portraitPhoto(models, testdata, rel, args.includes('--fresh'));
    const labels = Object.entries(file.faces).filter(([k]) => k.startsWith(`${rel}#`));
    for (const [key, label] of labels) {
      const [x0, y0, w, h] = label.box;
      const i = photo.faces.findIndex((f) => sameFace({ x0, y0, w, h }, f.box));
      const face = photo.faces[i];
      const parsing = photo.parts?.parsings[i];
      if (!face?.mesh || !parsing || !photo.parts) { unmatched++; console.log(`  ${key}: no meshed face at the label's box`); continue; }
      const parts = measureParts(photo.parts.faces[i], photo.parts.image, parsing, photo.parts.hair)!;
      const geometry = geometryFeatures(measureGeometry(face, photo.image)!);
      const p = decideParts(parts), g = decideGeometry(geometry, face);
      const grey = greyFace(face, photo.image);
      rows.push({
        key, half: photo.half, label, parts, geometry,
        got: {
          glass: p.glass,
          hat: { type: p.hat.style.type === 0 ? 0 : 1, probability: p.hat.style.probability },
          moustache: p.moustache,
          eyes_closed: g.eye.eye_open,
          hair_length: p.hair.length,
          // The answer's hair colour as given (a grey photo's is not labelled).
          hair_color: grey ? { type: -1, probability: 0 } : p.hair.color,
        },
      });
    }
  }
  const pct = (k: number, n: number) => (n ? `${((100 * k) / n).toFixed(0)}%`.padStart(4) : '   -');
  console.log(`\n== Attributes by eye (face-attributes.labels.json): ${rows.length} labelled faces (fit ${rows.filter((r) => r.half === 'fit').length}, check ${rows.filter((r) => r.half === 'check').length}), ${unmatched} labels without a meshed face ==`);
  console.log('attribute     | fit:   n  acc  base  mean p | check: n  acc  base  mean p');
  const errors: string[] = [];
  const summary: Record<string, Record<Half, [number, number]>> = {};
  for (const name of LABELLED) {
    summary[name] = { fit: [0, 0], check: [0, 0] };
    const cells = (['fit', 'check'] as Half[]).map((h) => {
      const rs = rows.filter((r) => r.half === h && r.label[name] !== undefined);
      const ok = rs.filter((r) => r.got[name].type === r.label[name]);
      for (const r of rs) if (r.got[name].type !== r.label[name]) errors.push(`${h.padEnd(5)} ${name}: ${r.key} label ${r.label[name]} got ${r.got[name].type} (p ${r.got[name].probability})`);
      const counts = new Map<number, number>();
      for (const r of rs) counts.set(r.label[name]!, (counts.get(r.label[name]!) ?? 0) + 1);
      const base = Math.max(0, ...counts.values());
      const meanP = rs.length ? rs.reduce((s, r) => s + r.got[name].probability, 0) / rs.length : NaN;
      summary[name][h] = [ok.length, rs.length];
      return `${String(rs.length).padStart(5)} ${pct(ok.length, rs.length)} ${pct(base, rs.length)}  ${meanP.toFixed(2)}`;
    });
    console.log(`${name.padEnd(13)} | ${cells[0]}   | ${cells[1]}`);
  }
  if (args.includes('--errors')) for (const e of errors) console.log(`  ${e}`);
  const dump = args.indexOf('--dump');
  if (dump >= 0) writeFileSync(args[dump + 1], JSON.stringify(rows.map(({ key, half, label, parts, geometry, got }) => ({ key, half, label, parts, geometry, got }))));
  return summary;
}
