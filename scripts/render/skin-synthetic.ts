/**
 * Close-ups of synthetic findings and what the analysis made of them: per photo and seed, every rendered
 * finding of one kind cropped 5 mm around and enlarged, the rendered outline (green), the blob candidates
 * of the lesion search (grey: no kind; coloured: the kind given, as in skin-analysis.ts), with the
 * candidate nearest each rendered finding printed (contrast, size, roundness, shine, the kind given), and
 * the same crop of the untouched photo beside it. Sheets under /tmp/skin-analysis-sheets/synthetic.
 *
 *   npx tsx scripts/render/skin-synthetic.ts [--kind closed_comedones] [--half fit|check] [--seeds 2] [--extra]
 *   (--extra: crops of the new false findings of that kind instead)
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import {
  analyseSkin, frameToImage as toImage, labFrame, lesionKind, type LesionKind, makeFrame, ModelRegistry,
  type RasterImage, renderSynthetic, type SkinAnalysis, skinAroundBlob as around, type SyntheticKind
} from '../../engine/for-scripts.ts';
import { half } from '../datasets/face-parts-data.ts';
import { faceData, rasterOf } from '../datasets/skin-analysis-data.ts';
import { findings, place, score, tally } from '../datasets/skin-synthetic-data.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
if (!existsSync(path.join(testdata, 'portraits'))) { console.error(`render-skin-synthetic: no test data in ${testdata}`); process.exit(2); }
const arg = (name: string, dflt: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : dflt);
const KIND = arg('--kind', 'closed_comedones') as SyntheticKind;
const HALF = arg('--half', 'fit');
const SEEDS = Number(arg('--seeds', '1'));
const EXTRA = process.argv.includes('--extra');
const OUT = '/tmp/skin-analysis-sheets/synthetic';
mkdirSync(OUT, { recursive: true });
const COLOURS: Record<LesionKind, string> = { acne: '#ff2020', closed_comedones: '#ffffff', mole: '#2060ff', skin_spot: '#ff9900' };
const models = new ModelRegistry({ threads: 2 });

async function analyse(image: RasterImage, d: NonNullable<Awaited<ReturnType<typeof faceData>>>): Promise<SkinAnalysis> {
  const f = await makeFrame(image, d.face);
  return analyseSkin(f, d.face, d.parsing, labFrame(f));
}

const TILE = 200;
/** One crop, `mm` around (x, y) in image pixels, enlarged to TILE, with circles drawn (image pixels). */
async function crop(image: RasterImage, x: number, y: number, halfPx: number, circles: { x: number; y: number; r: number; colour: string; width: number }[]): Promise<Buffer> {
  const left = Math.max(0, Math.round(x - halfPx)), top = Math.max(0, Math.round(y - halfPx));
  const size = Math.max(4, Math.min(Math.round(2 * halfPx), image.width - left, image.height - top));
  const k = TILE / size;
  const svg = circles.map((c) => `<circle cx="${(c.x - left) * k}" cy="${(c.y - top) * k}" r="${Math.max(2, c.r * k)}" fill="none" stroke="${c.colour}" stroke-width="${c.width}"/>`).join('');
  const tile = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .extract({ left, top, width: size, height: size }).resize(TILE, TILE, { kernel: 'nearest' }).png().toBuffer();
  return sharp(tile).composite([{ input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${TILE}" height="${TILE}">${svg}</svg>`) }]).png().toBuffer();
}

const files = readdirSync(path.join(testdata, 'portraits')).filter((f) => /\.(jpe?g|png)$/i.test(f) && !/exif|rot90/.test(f)).sort()
  .filter((f) => HALF === 'all' || half(`portraits/${f}`) === HALF);
for (const file of files) {
  let image = await rasterOf(path.join(testdata, 'portraits', file));
  let d = await faceData(models, image, `portraits/${file}`);
  if (!d) continue;
  let name = file;
  const px = (await makeFrame(image, d.face)).pxPerMm;
  if (px < 0.6) continue;
  if (px < 1.2) { // as the quality script: small faces enlarged 2x
    const big = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } }).resize(image.width * 2, image.height * 2).raw().toBuffer();
    image = { data: big, width: image.width * 2, height: image.height * 2, channels: 3 };
    name = `${file} x2`;
    d = (await faceData(models, image, `synthetic/${name}`))!;
  }
  const clean = await analyse(image, d);
  const mm = clean.frame.pxPerMm, base = findings(clean);
  const tiles: Buffer[] = [];
  for (let seed = 1; seed <= SEEDS; seed++) {
    const items = place(clean, seed * 7919 + name.length);
    const img = renderSynthetic(image, items, mm);
    const a = await analyse(img, d);
    const f = a.frame, sh = a.internals.shine;
    const { missed, extra } = score(items, findings(a), base, mm, tally());
    const blobs = a.internals.candidates.map((b) => { const [x, y] = toImage(f, b.x, b.y); const near = around(a.internals.lab, sh, a.zones.skin, b, f.s); return { b, x, y, near, kind: lesionKind(b, f.s, near) }; });
    const circles = [
      ...items.filter((s) => s.kind !== 'wrinkle').map((s) => ({ x: s.x, y: s.y, r: s.size * mm, colour: '#00ff00', width: 1 })),
      ...blobs.map((c) => ({ x: c.x, y: c.y, r: c.b.r / f.k, colour: c.kind ? COLOURS[c.kind] : '#808080', width: c.kind ? 2 : 1 })),
    ];
    const targets = EXTRA ? extra.filter((g) => g.kind === KIND) : items.filter((s) => s.kind === KIND);
    for (const t of targets) {
      const near = blobs.filter((c) => Math.hypot(c.x - t.x, c.y - t.y) <= 2 * mm).sort((p, q) => Math.hypot(p.x - t.x, p.y - t.y) - Math.hypot(q.x - t.x, q.y - t.y));
      const found = !EXTRA && !missed.includes(t as never);
      console.log(`${name} seed ${seed} ${KIND} at ${t.x.toFixed(0)},${t.y.toFixed(0)} ${'size' in t ? `r ${t.size.toFixed(2)} mm` : ''} ${EXTRA ? 'new false' : found ? 'found' : 'missed'}: ` +
        (near.length ? near.slice(0, 3).map(({ b, kind, near: n }) => `[dL ${b.dL.toFixed(1)} da ${b.da.toFixed(1)} db ${b.db.toFixed(1)} r ${(b.r / f.s).toFixed(2)} mm round ${b.roundness.toFixed(2)} edge ${(b.edge / f.s).toFixed(2)} mm shine around ${n.shine.toFixed(2)} grain ${n.grain.toFixed(1)} red grain ${n.redGrain.toFixed(1)} isolation ${b.isolation.toFixed(2)} resp ${b.response.toFixed(1)} -> ${kind ?? 'none'}]`).join(' ') : 'no candidate within 2 mm'));
      tiles.push(await crop(image, t.x, t.y, 5 * mm, []), await crop(img, t.x, t.y, 5 * mm, circles));
    }
  }
  if (!tiles.length) continue;
  const cols = 6, rows = Math.ceil(tiles.length / cols);
  const sheet = await sharp({ create: { width: cols * TILE, height: rows * TILE, channels: 3, background: '#202020' } })
    .composite(tiles.map((t, i) => ({ input: t, left: (i % cols) * TILE, top: Math.floor(i / cols) * TILE }))).png().toFile(path.join(OUT, `${KIND}${EXTRA ? '-extra' : ''}-${name.replace(/\W+/g, '_')}.png`));
  console.log(path.join(OUT, `${KIND}${EXTRA ? '-extra' : ''}-${name.replace(/\W+/g, '_')}.png`), sheet.width, sheet.height);
}
process.exit(0);
