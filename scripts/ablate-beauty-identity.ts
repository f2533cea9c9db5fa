/**
 * Which part of face beauty moves a face's identity: each face of the given photos before, then after the
 * retouch at every degree 1 with one part changed at a time (a degree off, a mask narrowed, a tuning knob
 * set), by Atelier's own face pipeline (retouch-identity.ts engineDescriber: p(male) at maleAt, and human's
 * descriptor similarity on the engine's face square), as quality-retouch decides it. One line per face and
 * variant; faces narrower than --max-px (default all) only. With --render DIR, each such face is written
 * at 6x (nearest) as before | after | |after - before| x 8, one row per variant.
 *
 * The variants run face beauty's own steps (findFaces, BEAUTY_PARSING, retouchMasks, the three kernels at
 * face beauty's TUNING) with the part in question swapped; 'effect' is the shipped effect itself and
 * 'all' the same composition here, so the two lines agreeing says the composition is the effect's.
 *
 *   npx tsx scripts/ablate-beauty-identity.ts --only NAME,... [--max-px N] [--render DIR] [--variants a,b]
 *
 * Reads ../shared/testdata from the repository root (ATELIER_TESTDATA overrides); exits 2 without it.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp, { type OverlayOptions } from 'sharp';
import { encodeResult, findFaces, type P, type State } from '../engine/effects/face-beauty/steps.ts';
import { BEAUTY_PARSING, TUNING } from '../engine/effects/face-beauty/tuning.ts';
import beauty from '../engine/effects/face-beauty/effect.ts';
import type { RasterImage } from '../engine/image/raster.ts';
import { sharpenMasked } from '../engine/effects/face-beauty/sharpen.ts';
import { faceEps, faceShapeBand, smoothMasked } from '../engine/looks/smooth.ts';
import { whitenSkin } from '../engine/looks/tone.ts';
import { readWindow, writeWindow } from '../engine/image/window.ts';
import type { Effect, Step } from '../engine/pipeline/effect.ts';
import { perFace } from '../engine/pipeline/portrait.ts';
import { runEffect } from '../engine/pipeline/run.ts';
import type { Face } from '../engine/vision/faces/detect.ts';
import type { FaceParsing } from '../engine/vision/parsing/face-parsing.ts';
import { faceRegions, type RegionName } from '../engine/vision/regions/face-regions.ts';
import { ModelRegistry } from '../engine/vision/models/registry.ts';
import { parsingPlane, retouchMasks, retouchWindow, type RetouchMasks } from '../engine/vision/regions/skin-mask.ts';
import { engineDescriber, matchFaces, retouchPhotos } from './retouch-identity.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
if (!existsSync(path.join(testdata, 'labels.json'))) {
  console.error(`ablate-beauty-identity: the shared test data is absent (looked in ${testdata}); nothing was measured.`);
  process.exit(2);
}
const args = process.argv.slice(2);
const valueOf = (flag: string) => (args.indexOf(flag) >= 0 ? args[args.indexOf(flag) + 1] : undefined);
const only = valueOf('--only')?.split(','), maxPx = Number(valueOf('--max-px') ?? Infinity), renderDir = valueOf('--render');
const chosenVariants = valueOf('--variants')?.split(',');
if (!only) { console.error('ablate-beauty-identity: --only NAME,... is required (the faces to look at)'); process.exit(1); }

/** One part changed: the degrees, the masks, and the kernels' settings, each optional. */
interface Variant {
  degrees?: Partial<P>;
  masks?: (m: RetouchMasks, face: Face, parsing: FaceParsing) => void;
  smooth?: (o: Parameters<typeof smoothMasked>[5], strength: number) => [Parameters<typeof smoothMasked>[5], number];
  white?: Partial<{ lift: number; even: number }>;
  sharpAmount?: (amount: number) => number;
}

/** Zero `plane` at and below the mesh point `idx`'s row (the jaw and chin, where a beard's shadow lies). */
const cutBelow = (plane: Float32Array, m: RetouchMasks, face: Face, idx: number) => {
  const y0 = Math.round(face.mesh![idx][1] - m.win.y0);
  for (let y = Math.max(0, y0); y < m.win.h; y++) plane.fill(0, y * m.win.w, (y + 1) * m.win.w);
};
/** The face's width as the smoothing's fade reads it (set per face before the variant's smooth()). */
let fadeFw = 0;
let imageSize = { width: 0, height: 0 };
/** `plane` scaled by k inside the face's canonical zones (face-regions.ts), 1 outside. */
const zoneScaled = (plane: Float32Array, m: RetouchMasks, face: Face, names: RegionName[], k: number, but: RegionName[] = []) => {
  const r = faceRegions(face, imageSize, undefined, [...names, ...but]);
  for (let y = 0; y < m.win.h; y++) for (let x = 0; x < m.win.w; x++) {
    const q = (m.win.y0 + y) * imageSize.width + m.win.x0 + x;
    const z = Math.max(...names.map((n) => r[n]!.data[q] / 255)) * (1 - Math.max(0, ...but.map((n) => r[n]!.data[q] / 255)));
    plane[y * m.win.w + x] *= 1 - (1 - k) * z;
  }
};
const ALL: P = { sharp: 1, smooth: 1, white: 1 } as P;
const VARIANTS: Record<string, Variant> = {
  all: {},
  'no smooth': { degrees: { smooth: 0 } },
  'no white': { degrees: { white: 0 } },
  'no sharp': { degrees: { sharp: 0 } },
  'smooth only': { degrees: { white: 0, sharp: 0 } },
  'white only': { degrees: { smooth: 0, sharp: 0 } },
  'sharp only': { degrees: { smooth: 0, white: 0 } },
  'smooth half': { smooth: (o, s) => [o, s / 2] },
  'smooth eps x1 (no small-face growth)': { smooth: (o, s) => [{ ...o, eps: TUNING.smooth.eps }, s] },
  'smooth shape all back': { smooth: (o, s) => [{ ...o, shape: 1 }, s] },
  'smooth upper face only (jaw, chin kept)': { masks: (m, f) => cutBelow(m.skin, m, f, 2) },
  'white: no lift': { white: { lift: 0 } },
  'white: no evening': { white: { even: 0 } },
  'white upper face only': { masks: (m, f) => cutBelow(m.tone, m, f, 2) },
  'sharp half': { sharpAmount: (a) => a / 2 },
  'smooth fades in to 80 px': { smooth: (o, s) => [o, s * Math.min(1, fadeFw / 80) / Math.min(1, fadeFw / TUNING.smooth.fullWidth)] },
  'smooth fades in to 120 px': { smooth: (o, s) => [o, s * Math.min(1, fadeFw / 120) / Math.min(1, fadeFw / TUNING.smooth.fullWidth)] },
  'smooth beard+moustache zone at half': { masks: (m, f) => zoneScaled(m.skin, m, f, ['beard', 'moustache'], 0.5) },
  'smooth beard+moustache zone off': { masks: (m, f) => zoneScaled(m.skin, m, f, ['beard', 'moustache'], 0) },
  'smooth chin+jaw zone off': { masks: (m, f) => zoneScaled(m.skin, m, f, ['chin', 'jaw'], 0) },
  'smooth beard+moustache zone off but cheeks': { masks: (m, f) => zoneScaled(m.skin, m, f, ['beard', 'moustache'], 0, ['leftCheek', 'rightCheek']) },
  'smooth moustache zone off': { masks: (m, f) => zoneScaled(m.skin, m, f, ['moustache'], 0) },
  'sharp: no hair': { masks: (m, _f, parsing) => { const hair = parsingPlane(parsing, ['hair'], m.win); for (let i = 0; i < hair.length; i++) m.sharp[i] *= 1 - hair[i]; } },
};

/** Face beauty's retouchFace with the variant's part swapped (the same calls in the same order). */
function retouchVariant(px: Buffer, ch: number, face: Face, parsing: FaceParsing, win: ReturnType<typeof retouchWindow> & object, v: Variant): void {
  const d = { sharp: 1, smooth: 1, white: 1, ...v.degrees }, t = TUNING;
  const m = retouchMasks(face, parsing, win);
  v.masks?.(m, face, parsing);
  const fw = m.faceWidth, { w, h } = win;
  fadeFw = fw;
  let o: Parameters<typeof smoothMasked>[5] = {
    radius: t.smooth.radius * fw, eps: faceEps(t.smooth.eps, fw, t.smooth.epsWidth), poreSigma: Math.max(0.7, t.smooth.poreSigma * fw), texture: t.smooth.texture,
    ...faceShapeBand(fw, t.smooth.shape),
    keep: { energy: t.smooth.keepEnergy, sigma: Math.max(1, 0.01 * fw), where: m.skin },
  };
  let s = d.smooth * Math.min(1, fw / t.smooth.fullWidth);
  if (v.smooth) [o, s] = v.smooth(o, s);
  smoothMasked(px, ch, w, h, m.skin, o, s);
  if (d.white > 0) whitenSkin(px, ch, w, h, m.tone, { strength: d.white, lift: v.white?.lift ?? t.white.lift, even: v.white?.even ?? t.white.even, toneSigma: t.white.toneSigma * fw });
  const sharpSigma = t.sharp.sigma * fw;
  let amount = d.sharp * t.sharp.amount * Math.min(1, sharpSigma);
  if (v.sharpAmount) amount = v.sharpAmount(amount);
  sharpenMasked(px, ch, w, h, m.sharp, Math.max(1, sharpSigma), amount);
}

const variantEffect = (v: Variant): Effect<P, State> => {
  const retouch: Step<P, State> = async (c, kit) => {
    const result: RasterImage = { ...c.image, data: Buffer.from(c.image.data) };
    c.state.result = result;
    imageSize = { width: result.width, height: result.height };
    await perFace<P, State>(async (face) => {
      const win = retouchWindow(face, result);
      if (!win) return;
      const parsing = await c.facts.parsing(face, BEAUTY_PARSING);
      const px = readWindow(result, win);
      retouchVariant(px, result.channels, face, parsing, win, v);
      writeWindow(result, win, px);
    })(c, kit);
  };
  return { slug: 'face-beauty', steps: [findFaces, retouch, encodeResult] } as unknown as Effect<P, State>;
};

const models = new ModelRegistry({ threads: 2 });
const id = await engineDescriber(models);
const opts = { models, signal: new AbortController().signal };
const raw = async (png: Buffer | string): Promise<RasterImage> => {
  const { data, info } = await sharp(png).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
};

const photos = retouchPhotos(testdata).filter((rel) => only.some((o) => rel.includes(o)));
const names = Object.keys(VARIANTS).filter((n) => (!chosenVariants || chosenVariants.includes(n)));
const SCALE = 6;
console.log(['photo', 'face px', 'variant', 'p(male) before -> after', 'gender', 'similarity'].join('\t'));
for (const rel of photos) {
  const before = await raw(path.join(testdata, rel));
  const a = (await id.described(before)).map((f, i) => ({ f, i })).filter(({ f }) => f.box[2] < maxPx);
  if (!a.length) continue;
  const all = await id.described(before);
  const rows: { name: string; img: RasterImage }[] = [];
  for (const name of ['effect', ...names]) {
    const eff = name === 'effect' ? (beauty as unknown as Effect<P, State>) : variantEffect(VARIANTS[name]);
    const after = await raw((await runEffect(eff, { image: before, params: ALL }, opts)).images.result.data);
    rows.push({ name, img: after });
    const b = await id.described(after), match = matchFaces(all.map((f) => f.box), b.map((f) => f.box));
    for (const { f, i } of a) {
      const g = match[i] >= 0 ? b[match[i]] : undefined;
      console.log([rel, `${Math.round(f.box[2])} px at ${Math.round(f.box[0])},${Math.round(f.box[1])}`, name, g ? `${f.male.toFixed(3)} -> ${g.male.toFixed(3)}` : 'lost', g ? (g.gender === f.gender ? 'same' : `${f.gender} -> ${g.gender}`) : '-',
        g ? id.similarity(f.embedding, g.embedding).toFixed(3) : '-'].join('\t'));
    }
  }
  if (!renderDir) continue;
  mkdirSync(renderDir, { recursive: true });
  for (const { f } of a) {
    const side = Math.round(1.6 * Math.max(f.box[2], f.box[3]));
    const left = Math.max(0, Math.min(before.width - side, Math.round(f.box[0] + f.box[2] / 2 - side / 2))), top = Math.max(0, Math.min(before.height - side, Math.round(f.box[1] + f.box[3] / 2 - side / 2)));
    const Z = side * SCALE, crop = (m: RasterImage) => sharp(m.data, { raw: { width: m.width, height: m.height, channels: 3 } }).extract({ left, top, width: side, height: side }).resize(Z, Z, { kernel: 'nearest' }).png().toBuffer();
    const diff = (m: RasterImage): RasterImage => {
      const out = Buffer.alloc(m.data.length);
      for (let j = 0; j < out.length; j++) out[j] = Math.min(255, 8 * Math.abs(m.data[j] - before.data[j]));
      return { ...m, data: out };
    };
    const comp: OverlayOptions[] = [];
    const label = async (text: string) => sharp(Buffer.from(`<svg width="${3 * Z}" height="28"><rect width="100%" height="100%" fill="#202020"/><text x="6" y="20" font-size="18" fill="#eee" font-family="sans-serif">${text}</text></svg>`)).png().toBuffer();
    for (const [r, { name, img }] of rows.entries()) {
      const y = r * (Z + 28);
      comp.push({ input: await label(`${name}`), left: 0, top: y });
      comp.push({ input: await crop(before), left: 0, top: y + 28 }, { input: await crop(img), left: Z, top: y + 28 }, { input: await crop(diff(img)), left: 2 * Z, top: y + 28 });
    }
    const file = path.join(renderDir, `${rel.replace(/[/.]/g, '_')}-${Math.round(f.box[0])}_${Math.round(f.box[1])}.png`);
    await sharp({ create: { width: 3 * Z, height: rows.length * (Z + 28), channels: 3, background: '#202020' } }).composite(comp).png().toFile(file);
    console.log(`rendered ${file}`);
  }
}
process.exit(0);
