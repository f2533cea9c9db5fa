/**
 * retouchFace's parts timed by process CPU on the fixture portrait (obama, its face's window 476x526), the
 * faces and parsing made once, so no model runs in the loop: masks, sparing the lower face, smoothing,
 * whitening, sharpening, at the effect's default degrees. Means over N runs after two warm-up runs, and a
 * sha1 of the window's pixels and of the masks, to check a kernel change leaves the output as it was.
 * Run it alternately in two checkouts to compare them on a shared machine.
 *
 *   npx tsx scripts/bench/retouch-parts.ts [N=15]
 */
import path from 'node:path';
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import {
  BEAUTY_PARSING, BEAUTY_TUNING as TUNING, faceEps, faceShapeBand, jobFacts, ModelRegistry, type RasterImage,
  readWindow, retouchMasks, retouchWindow, sharpenMasked, sizeRamp, smoothMasked, spareLowerFace, whitenSkin
} from '../../engine/for-scripts.ts';
const { data, info } = await sharp(path.resolve('engine/test/fixtures/obama_official_portrait.jpg')).raw().toBuffer({ resolveWithObject: true });
const image: RasterImage = { data, width: info.width, height: info.height, channels: 3 };
const models = new ModelRegistry({ threads: 2 });
const facts = jobFacts(image, models);
const face = (await facts.faces({ meshFaces: 5 }))[0];
const parsing = await facts.parsing(face, BEAUTY_PARSING);
const win = retouchWindow(face, image)!;
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const acc: Record<string, number> = {};
const N = Number(process.argv[2] ?? 15);
let hash = '';
for (let i = 0; i < N + 2; i++) {
  let c = cpu();
  const lap = (k: string) => { const n = cpu(); if (i >= 2) acc[k] = (acc[k] ?? 0) + (n - c) / N; c = n; };
  const px = readWindow(image, win);
  const t = TUNING, ch = 3;
  const m = retouchMasks(face, parsing, win); lap('masks');
  const fw = m.faceWidth, { w, h } = win;
  spareLowerFace(m, face, sizeRamp(fw, t.smooth.lowerFace.fromWidth, t.smooth.lowerFace.toWidth)); lap('spare');
  smoothMasked(px, ch, w, h, m.skin, {
    radius: t.smooth.radius * fw, eps: faceEps(t.smooth.eps, fw, t.smooth.epsWidth), poreSigma: Math.max(0.7, t.smooth.poreSigma * fw), texture: t.smooth.texture,
    ...faceShapeBand(fw, t.smooth.shape), keep: { energy: t.smooth.keepEnergy, sigma: Math.max(1, 0.01 * fw), where: m.skin },
  }, 0.5 * Math.min(1, fw / t.smooth.fullWidth)); lap('smooth');
  whitenSkin(px, ch, w, h, m.tone, { strength: 0.3, lift: t.white.lift, even: t.white.even, toneSigma: t.white.toneSigma * fw }); lap('whiten');
  const sharpSigma = t.sharp.sigma * fw;
  sharpenMasked(px, ch, w, h, m.sharp, Math.max(1, sharpSigma), 0.3 * t.sharp.amount * Math.min(1, sharpSigma)); lap('sharpen');
  hash = createHash('sha1').update(px).digest('hex').slice(0, 12) + ' masks ' + createHash('sha1').update(m.skin).update(m.tone).update(m.sharp).digest('hex').slice(0, 12);
  if (i === 0) console.log('window', win, 'face width', fw.toFixed(0), 'radius', (t.smooth.radius * fw).toFixed(1));
}
console.log(Object.entries(acc).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', '), '| total', Object.values(acc).reduce((a, b) => a + b, 0).toFixed(1), 'ms cpu; out', hash);
process.exit(0);
