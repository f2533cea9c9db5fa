/**
 * The blemish finder (engine/effects/smart-skin-advanced/blemishes.ts) on synthetic ground truth: red
 * bumps (acne) and dark spots of known size and place rendered onto the real skin of the shared portraits
 * and landmark photos, then found again. Per half of the file-name split (scripts/datasets/face-parts-data.ts's half()):
 *   recall     rendered blemishes found as a spot of the right kind within max(1 mm, its radius);
 *   precision  of the spots found that were not already found on the untouched photo (its own blemishes),
 *              the share that are rendered ones.
 * Sizes in millimetres from the iris (about 11.7 mm across); contrasts in Lab units, at 8-bit precision.
 *
 *   npx tsx scripts/quality/blemishes.ts [--per-face N] [--verbose]
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import {
  type BlemishKind, findBlemishes, firmMask as firm, jobFacts, labToRgb, ModelRegistry, pixelsPerMm,
  type RasterImage, retouchMasks, retouchWindow, rgbToLab, seededRandom, toLab
} from '../../engine/for-scripts.ts';
import { half } from '../datasets/face-parts-data.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
if (!existsSync(path.join(testdata, 'labels.json'))) { console.error(`blemish-synthetic: no test data in ${testdata}`); process.exit(2); }
const args = process.argv.slice(2);
const perFace = Number(args[args.indexOf('--per-face') + 1]) || 8;
const verbose = args.includes('--verbose');

const labels = JSON.parse(readFileSync(path.join(testdata, 'labels.json'), 'utf8')).files as Record<string, { kind: string; num_faces?: number }>;
const photos = Object.entries(labels).filter(([, l]) => (l.kind === 'portrait' || l.kind === 'face_landmarks_image') && (l.num_faces ?? 1) > 0).map(([r]) => r).sort();

/** A small deterministic generator (mulberry32), seeded per photo, so every run renders the same blemishes. */
const hash = (s: string) => [...s].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, 7);

interface Truth { kind: BlemishKind; x: number; y: number; r: number }
const totals: Record<string, { tp: Record<BlemishKind, number>; n: Record<BlemishKind, number>; fp: number; own: number; faces: number }> = {};
const models = new ModelRegistry({ threads: 2 });

for (const rel of photos) {
  const { data, info } = await sharp(path.join(testdata, rel)).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const image: RasterImage = { data, width: info.width, height: info.height, channels: 3 };
  const facts = jobFacts(image, models);
  const faces = (await facts.faces({ meshFaces: 5 })).slice(0, 5);
  const tot = (totals[half(rel)] ??= { tp: { red: 0, dark: 0 }, n: { red: 0, dark: 0 }, fp: 0, own: 0, faces: 0 });
  const rand = seededRandom(hash(rel));
  for (const face of faces) {
    const win = retouchWindow(face, image);
    if (!win) continue;
    const masks = retouchMasks(face, await facts.parsing(face), win);
    // The skin as the effect sees it (steps.ts: the parsing's probability made firm above 0.6).
    const skin = firm(masks.skin);
    const mm = pixelsPerMm(face.mesh!, masks.faceWidth);
    // Faces under ~1.5 px/mm (about 200 px wide) have no lesion-scale detail to find; the effect still runs there.
    if (mm < 1.5) continue;
    tot.faces++;
    const { w, h } = win;
    const px = Buffer.alloc(w * h * 3);
    for (let y = 0; y < h; y++) image.data.copy(px, y * w * 3, ((win.y0 + y) * image.width + win.x0) * 3, ((win.y0 + y) * image.width + win.x0 + w) * 3);
    const lab0 = toLab({ data: px, width: w, height: h, channels: 3 });
    const own = findBlemishes(lab0.L, lab0.a, skin, w, h, mm).spots;
    tot.own += own.length;

    // Places well inside the skin (a disc of 3 mm all skin), 8 mm apart and away from the photo's own spots.
    const truth: Truth[] = [];
    for (let tries = 0; tries < 4000 && truth.length < perFace; tries++) {
      const x = rand() * w, y = rand() * h, d = 1.5 + rand() * 2.5, r = (d / 2) * mm;
      const ok = (() => {
        for (let k = 0; k < 12; k++) {
          const a = (k / 12) * 2 * Math.PI, xx = Math.round(x + 3 * mm * Math.cos(a)), yy = Math.round(y + 3 * mm * Math.sin(a));
          if (xx < 0 || yy < 0 || xx >= w || yy >= h || skin[yy * w + xx] < 0.99) return false;
        }
        return skin[Math.round(y) * w + Math.round(x)] >= 0.99;
      })();
      if (!ok || truth.some((t) => Math.hypot(t.x - x, t.y - y) < 8 * mm) || own.some((s) => Math.hypot(s.x - x, s.y - y) < 5 * mm)) continue;
      truth.push({ kind: truth.length % 2 ? 'dark' : 'red', x, y, r });
    }
    // Render: a raised, soft-edged lesion (Gaussian with sigma r / 2). Red: a* +8..16, L* -2; dark: L* -8..16, b* +3 (brown).
    const lab = [0, 0, 0], out = Buffer.from(px);
    for (const t of truth) {
      const amp = 8 + 8 * rand();
      const s = t.r / 2;
      for (let y = Math.max(0, Math.floor(t.y - 3 * s)); y <= Math.min(h - 1, t.y + 3 * s); y++) for (let x = Math.max(0, Math.floor(t.x - 3 * s)); x <= Math.min(w - 1, t.x + 3 * s); x++) {
        const g = Math.exp(-((x - t.x) ** 2 + (y - t.y) ** 2) / (2 * s * s)), j = (y * w + x) * 3;
        rgbToLab(out[j], out[j + 1], out[j + 2], lab);
        if (t.kind === 'red') labToRgb(lab[0] - 2 * g, lab[1] + amp * g, lab[2] + 2 * g, out, j);
        else labToRgb(lab[0] - amp * g, lab[1] + 1 * g, lab[2] + 3 * g, out, j);
      }
    }
    const lab1 = toLab({ data: out, width: w, height: h, channels: 3 });
    const found = findBlemishes(lab1.L, lab1.a, skin, w, h, mm).spots
      .filter((s) => !own.some((o) => Math.hypot(o.x - s.x, o.y - s.y) < Math.max(mm, o.r)));
    const used = new Set<number>();
    let tp = 0;
    for (const t of truth) {
      tot.n[t.kind]++;
      const k = found.findIndex((s, i) => !used.has(i) && s.kind === t.kind && Math.hypot(s.x - t.x, s.y - t.y) <= Math.max(mm, t.r));
      if (k >= 0) { used.add(k); tot.tp[t.kind]++; tp++; }
    }
    tot.fp += found.length - used.size;
    if (verbose) console.log(rel, `${mm.toFixed(2)} px/mm`, `own ${own.length}`, `rendered ${truth.length}`, `found ${tp}`, `extra ${found.length - used.size}`,
      found.filter((_, i) => !used.has(i)).map((s) => `${s.kind}@${Math.round(s.x)},${Math.round(s.y)} r${(s.r / mm).toFixed(1)}mm c${s.contrast.toFixed(1)}`).join(' '));
  }
}
console.log(['half', 'faces', 'red recall', 'dark recall', 'precision', 'own spots per face'].join('\t'));
for (const [hf, t] of Object.entries(totals).sort()) {
  const tp = t.tp.red + t.tp.dark;
  console.log([hf, t.faces, `${t.tp.red}/${t.n.red} = ${(t.tp.red / t.n.red).toFixed(2)}`, `${t.tp.dark}/${t.n.dark} = ${(t.tp.dark / t.n.dark).toFixed(2)}`,
    `${tp}/${tp + t.fp} = ${(tp / (tp + t.fp)).toFixed(2)}`, (t.own / t.faces).toFixed(1)].join('\t'));
}
process.exit(0);
