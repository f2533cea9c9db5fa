/**
 * Occlusion: does a face effect leave what is in front of the face as it is? On the occluded photos of
 * engine/test/fixtures/occluded/ (made by occlusion-photos.ts: a hand, a phone or a microphone over a face,
 * each with its outline as `<name>.mask.png`), every face effect runs as the golden check runs it (the soak's
 * first parameter set), and per effect and photo this prints:
 *   - occluder: the share of the occluder's pixels changed by more than 12 levels in any channel (target ≤ 1 %);
 *   - face: the share of the face's other pixels (the mesh oval, the occluder grown by 2 % of the face width
 *     left out) changed by more than 12, and their mean change: the effect still works around the occluder.
 * The photos are split into halves by file, fixed before any tuning: in name order, the 1st, 3rd, ... are the fit
 * half, the 2nd, 4th, ... the check half (so each kind of occluder is in both). Each half's worst closes the report.
 *
 *   npm run quality:occlusion [-- --only slug,slug] [-- --sheets DIR]   (DIR: before/after sheets at 100 % per effect)
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { endpointList } from '../../contract/index.ts';
import { validateFields } from '../../contract/validate.ts';
import {
  decodeImage, detectFaces, type Effect, effectModules, faceRegions, ModelRegistry, type RasterImage, runEffect
} from '../../engine/for-scripts.ts';
import { paramsFor } from '../bench/soak-plan.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = path.join(root, 'engine/test/fixtures/occluded');
const { values: opts } = parseArgs({ options: { only: { type: 'string' }, sheets: { type: 'string' } } });

/** Every effect that edits a face. */
const FACE_EFFECTS = ['ai-beard-styling', 'ai-beard-removal', 'face-beauty', 'smart-skin-advanced', 'lips-color-changer', 'ai-red-lip-gloss',
  'ai-colored-contacts', 'ai-hair-loss-simulation', 'ai-square-face-filter'];
const CHANGED = 12, TARGET = 0.01;
type Half = 'fit' | 'check';

const models = new ModelRegistry({ threads: 2 });
const kit = { models, signal: new AbortController().signal };
const human = await models.get('human');

interface Photo { name: string; half: Half; bytes: Buffer; image: RasterImage; occluder: Uint8Array; face: Uint8Array; crop: { left: number; top: number; width: number; height: number } }

async function photo(file: string, k: number): Promise<Photo> {
  const bytes = readFileSync(path.join(dir, file));
  const image = await decodeImage(bytes, 'jpeg', 50e6);
  const occluder = Uint8Array.from(await sharp(path.join(dir, file.replace(/\.jpg$/, '.mask.png'))).extractChannel(0).raw().toBuffer(), (v) => (v >= 128 ? 1 : 0));
  const f = (await detectFaces(human, image))[0];
  const m = f.mesh!, fw = Math.hypot(m[454][0] - m[234][0], m[454][1] - m[234][1]);
  const oval = faceRegions(f, image, image, ['faceOval']).faceOval!.data;
  // The face's other pixels: the oval, less the occluder grown by 2 % of the face width.
  const { width: W, height: H } = image, r = Math.max(1, Math.round(0.02 * fw));
  const face = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const i = y * W + x;
    if (oval[i] < 128) continue;
    let near = false;
    for (let dy = -r; dy <= r && !near; dy += r) for (let dx = -r; dx <= r && !near; dx += r) {
      const xx = x + dx, yy = y + dy;
      if (xx >= 0 && yy >= 0 && xx < W && yy < H && occluder[yy * W + xx]) near = true;
    }
    if (!near) face[i] = 1;
  }
  const side = Math.round(1.9 * Math.max(f.box.w, f.box.h));
  const left = Math.max(0, Math.round(f.box.x0 + f.box.w / 2 - side / 2)), top = Math.max(0, Math.round(f.box.y0 + f.box.h / 2 - side / 2));
  return { name: file.replace(/\.jpg$/, ''), half: k % 2 ? 'check' : 'fit', bytes, image, occluder, face, crop: { left, top, width: Math.min(side, W - left), height: Math.min(side, H - top) } };
}

function measure(p: Photo, after: Uint8Array) {
  const a = p.image.data, ch = p.image.channels, n = p.image.width * p.image.height;
  let occ = 0, occChanged = 0, face = 0, faceChanged = 0, faceDiff = 0;
  for (let i = 0; i < n; i++) {
    if (!p.occluder[i] && !p.face[i]) continue;
    let d = 0;
    for (let c = 0; c < 3; c++) d = Math.max(d, Math.abs(a[ch * i + c] - after[3 * i + c]));
    if (p.occluder[i]) { occ++; if (d > CHANGED) occChanged++; } else { face++; if (d > CHANGED) faceChanged++; faceDiff += d; }
  }
  return { occluder: occChanged / Math.max(1, occ), face: faceChanged / Math.max(1, face), faceMean: faceDiff / Math.max(1, face) };
}

const files = readdirSync(dir).filter((f) => f.endsWith('.jpg')).sort();
if (!files.length) { console.error(`quality-occlusion: no photos in ${dir} (run scripts/quality/occlusion-photos.ts)`); process.exit(2); }
const photos: Photo[] = [];
for (const [k, f] of files.entries()) photos.push(await photo(f, k));
const worst: Record<Half, { v: number; at: string }> = { fit: { v: 0, at: '' }, check: { v: 0, at: '' } };
const only = opts.only?.split(',');
console.log(`photos: fit ${photos.filter((p) => p.half === 'fit').map((p) => p.name).join(', ')}; check ${photos.filter((p) => p.half === 'check').map((p) => p.name).join(', ')}`);

for (const slug of FACE_EFFECTS) {
  if (only && !only.includes(slug)) continue;
  const endpoint = endpointList.find((e) => e.slug === slug)!;
  const effect = (await import(effectModules[slug])).default as Effect;
  const params = validateFields(endpoint, paramsFor(endpoint, 0), new Set(['image']));
  const tiles: Buffer[] = [];
  for (const p of photos) {
    const t0 = performance.now();
    let line: string;
    try {
      const out = await runEffect(effect, { image: p.image, params }, kit);
      const img = out.images.result ?? Object.values(out.images)[0];
      const decoded = await sharp(img.data).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      if (decoded.info.width !== p.image.width || decoded.info.height !== p.image.height) {
        line = `output ${decoded.info.width}x${decoded.info.height}: a new picture, not an edit of this one (not measured)`;
      } else {
        const m = measure(p, decoded.data);
        if (m.occluder > worst[p.half].v) worst[p.half] = { v: m.occluder, at: `${slug} ${p.name}` };
        line = `occluder ${(100 * m.occluder).toFixed(2).padStart(6)} %${m.occluder > TARGET ? ' OVER' : '     '}  face changed ${(100 * m.face).toFixed(1).padStart(5)} % (mean ${m.faceMean.toFixed(1)} levels)`;
        if (opts.sheets) {
          const before = await sharp(p.bytes).extract(p.crop).png().toBuffer();
          const after = await sharp(decoded.data, { raw: { width: decoded.info.width, height: decoded.info.height, channels: 3 } }).extract(p.crop).png().toBuffer();
          tiles.push(await sharp({ create: { width: 2 * p.crop.width + 8, height: p.crop.height, channels: 3, background: '#fff' } })
            .composite([{ input: before, left: 0, top: 0 }, { input: after, left: p.crop.width + 8, top: 0 }]).png().toBuffer());
        }
      }
    } catch (err) {
      line = `error ${(err as { code?: string }).code ?? ''} ${(err as Error).message}`;
    }
    console.log(`${slug.padEnd(24)} ${p.half.padEnd(5)} ${p.name.padEnd(32)} ${line}  ${Math.round(performance.now() - t0)} ms`);
  }
  if (opts.sheets && tiles.length) {
    mkdirSync(opts.sheets, { recursive: true });
    const metas = await Promise.all(tiles.map((t) => sharp(t).metadata()));
    const W = Math.max(...metas.map((m) => m.width!)), H = metas.reduce((s, m) => s + m.height! + 8, 0);
    let y = 0;
    const layers = tiles.map((t, k) => { const l = { input: t, left: 0, top: y }; y += metas[k].height! + 8; return l; });
    await sharp({ create: { width: W, height: H, channels: 3, background: '#fff' } }).composite(layers).png().toFile(path.join(opts.sheets, `${slug}.png`));
  }
}
for (const h of ['fit', 'check'] as const) console.log(`${h}: worst occluder share ${(100 * worst[h].v).toFixed(2)} % (${worst[h].at || 'none'}), target ≤ ${100 * TARGET} %`);
