/**
 * The beard mask's inputs drawn per face at 4x (nearest), for tuning it: per face one row of the lower face
 * (nose to below the chin) and its planes, six to a row: parsing (skin, hair red, lips magenta, mouth blue, neck green),
 * zone, moustache zone, texture, dark, grey, pixel evidence, pooled, seeds, beard, hair's colour pooled; then
 * the raw darkness (spreads, 0-8), saturation drop (0-0.8) and texture (log2 ratio, -1..2). Prints, per face, the
 * evidence's figures over its moustache zone and its chin (the beard zone less the moustache's), and the
 * Lab lightness and chroma there against the cheeks'.
 *
 *   [BT='{...}'] npx tsx scripts/render/beard-mask.ts OUT_DIR REL[#face,face] [REL ...]   (BT: beardTuning overrides)
 */
import path from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';
import {
  BEARD_PARSING, BEARD_REGIONS, beardMask, beardTuning, jobFacts, type Mask, ModelRegistry, parsingPlane,
  type RasterImage, type Rect, toLab
} from '../../engine/for-scripts.ts';

const [out, ...rels] = process.argv.slice(2);
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(import.meta.dirname, '../../../shared/testdata');
Object.assign(beardTuning, JSON.parse(process.env.BT ?? '{}'));
const models = new ModelRegistry({ threads: 2 });
const SCALE = 4;
const windowed = (mask: Mask | undefined, win: Rect) => {
  const o = new Float32Array(win.w * win.h);
  if (mask) for (let y = 0; y < win.h; y++) for (let x = 0; x < win.w; x++) o[y * win.w + x] = mask.data[(win.y0 + y) * mask.width + win.x0 + x] / 255;
  return o;
};
const f2 = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : '-');
for (const arg of rels) {
  const [rel, pick] = arg.split('#');
  const only = pick ? pick.split(',').map(Number) : null;
  const { data, info } = await sharp(path.join(testdata, rel)).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const img: RasterImage = { data, width: info.width, height: info.height, channels: 3 };
  const facts = jobFacts(img, models);
  const faces = (await facts.faces()).slice(0, 5).filter((f) => f.mesh);
  const comp: OverlayOptions[] = [];
  let top = 0, width = 0;
  for (const [k, face] of faces.entries()) {
    if (only && !only.includes(k)) continue;
    const parsing = await facts.parsing(face, BEARD_PARSING);
    const regions = facts.regions(face, BEARD_REGIONS);
    const m = beardMask(img, face, parsing, regions);
    if (!m) continue;
    const { win } = m;
    // The crop: the zone's box, a little wider, within the window.
    let x0 = win.w, y0 = win.h, x1 = 0, y1 = 0;
    for (let i = 0; i < m.zone.length; i++) if (m.zone[i] > 0.05) { const x = i % win.w, y = (i / win.w) | 0; x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y); }
    const g = Math.round(0.08 * m.faceWidth);
    x0 = Math.max(0, x0 - g); y0 = Math.max(0, y0 - g); x1 = Math.min(win.w - 1, x1 + g); y1 = Math.min(win.h - 1, y1 + g);
    const cw = x1 - x0 + 1, ch = y1 - y0 + 1;
    const crop = { left: win.x0 + x0, top: win.y0 + y0, width: cw, height: ch };
    const W = cw * SCALE, H = ch * SCALE;
    const tiles: Buffer[] = [];
    tiles.push(await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } }).extract(crop).resize(W, H, { kernel: 'nearest' }).png().toBuffer());
    const P = (c: Parameters<typeof parsingPlane>[1]) => parsingPlane(parsing, c, win);
    const skin = P(['skin', 'nose']), hair = P(['hair']), lips = P(['upperLip', 'lowerLip']), mouth = P(['mouth']), neck = P(['neck']);
    const rgb = Buffer.alloc(cw * ch * 3);
    for (let y = 0; y < ch; y++) for (let x = 0; x < cw; x++) {
      const i = (y0 + y) * win.w + x0 + x, o = (y * cw + x) * 3;
      rgb[o] = Math.min(255, 255 * (hair[i] + lips[i]) + 140 * skin[i]);
      rgb[o + 1] = Math.min(255, 140 * skin[i] + 255 * neck[i]);
      rgb[o + 2] = Math.min(255, 140 * skin[i] + 255 * (lips[i] + mouth[i]));
    }
    tiles.push(await sharp(rgb, { raw: { width: cw, height: ch, channels: 3 } }).resize(W, H, { kernel: 'nearest' }).png().toBuffer());
    const moustache = windowed(regions.moustache, win);
    const e = m.evidence;
    const scaled = (p: Float32Array, k: number, o = 0) => Float32Array.from(p, (v) => (v + o) / k);
    const planes = [m.zone, moustache, e.texture, e.dark, e.grey, e.pixel, e.pooled, e.seed, m.beard, e.hairColour, scaled(e.darkness, 8), scaled(e.satDrop, 0.8), scaled(e.texRatio, 3, 1)];
    for (const p of planes) {
      const gb = Buffer.alloc(cw * ch);
      for (let y = 0; y < ch; y++) for (let x = 0; x < cw; x++) gb[y * cw + x] = Math.max(0, Math.min(255, Math.round(255 * p[(y0 + y) * win.w + x0 + x])));
      tiles.push(await sharp(gb, { raw: { width: cw, height: ch, channels: 1 } }).resize(W, H, { kernel: 'nearest' }).png().toBuffer());
    }
    const COLS = 6;
    for (const [t, input] of tiles.entries()) comp.push({ input, left: (t % COLS) * (W + 4), top: top + Math.floor(t / COLS) * (H + 4) });
    width = Math.max(width, COLS * (W + 4));
    top += Math.ceil(tiles.length / COLS) * (H + 4) + 8;

    // Figures over the moustache zone and the chin.
    const lab = toLab(img, win);
    const cheeks = new Float32Array(m.zone.length);
    const lc = windowed(regions.leftCheek, win), rc = windowed(regions.rightCheek, win);
    const zoneRaw = windowed(regions.beard, win);
    const stat = (sel: (i: number) => boolean) => {
      let n = 0; const s = { L: 0, C: 0, tex: 0, dark: 0, grey: 0, pixel: 0, pooledMax: 0, seeds: 0, hair: 0, beard: 0 };
      for (let i = 0; i < m.zone.length; i++) {
        if (!sel(i)) continue;
        n++; s.L += lab.L[i]; s.C += Math.hypot(lab.a[i], lab.b[i]); s.tex += m.evidence.texture[i]; s.dark += m.evidence.dark[i]; s.grey += m.evidence.grey[i];
        s.pixel += m.evidence.pixel[i]; s.pooledMax = Math.max(s.pooledMax, m.evidence.pooled[i]); s.seeds += m.evidence.seed[i]; s.hair += hair[i]; s.beard += m.beard[i] > 0.5 ? 1 : 0;
      }
      return `n ${n} L ${f2(s.L / n)} C ${f2(s.C / n)} tex ${f2(s.tex / n)} dark ${f2(s.dark / n)} grey ${f2(s.grey / n)} pixel ${f2(s.pixel / n)} pooledMax ${f2(s.pooledMax)} seeds ${s.seeds} hair ${f2(s.hair / n)} beard ${s.beard}`;
    };
    for (let i = 0; i < cheeks.length; i++) cheeks[i] = (lc[i] > 0.5 || rc[i] > 0.5) && skin[i] > 0.6 && zoneRaw[i] < 0.15 && moustache[i] < 0.15 ? 1 : 0;
    console.log(`${rel} face ${k} fw ${m.faceWidth.toFixed(0)} coverage ${m.coverage.toFixed(3)} dense ${m.dense} hidden ${m.hidden.toFixed(2)}`);
    console.log(`  moustache ${stat((i) => moustache[i] > 0.5 && m.zone[i] > 0.3)}`);
    console.log(`  chin      ${stat((i) => zoneRaw[i] > 0.5 && moustache[i] < 0.2 && m.zone[i] > 0.3)}`);
    console.log(`  cheeks    ${stat((i) => cheeks[i] > 0)}`);
  }
  if (!top) continue;
  await sharp({ create: { width, height: top, channels: 3, background: '#303' } }).composite(comp).png().toFile(path.join(out, `${path.basename(rel)}.png`));
}
