/**
 * Beard transfer from a template photo: the template's beard found in the mesh's beard and moustache zones
 * as what is darker than the face's skin or rougher than it (hair-coloured, high-frequency texture), lips,
 * nostrils, background and clothes excluded; carried onto each target face through both meshes (piecewise
 * affine over the mesh triangles, mesh-warp.ts); relit by the ratio of the two faces' light; then blended
 * in the gradient domain (poisson.ts), so the beard keeps its texture and takes the target's skin tone at
 * its border, without a seam.
 */
import { dilate } from '../../image/change.ts';
import { lumaPlane } from '../../image/luma.ts';
import { poissonBlend } from './poisson.ts';
import type { RasterImage } from '../../image/raster.ts';
import type { Rect } from '../../image/rect.ts';
import { readWindow, writeWindow } from '../../image/window.ts';
import type { Face } from '../../vision/faces/detect.ts';
import type { FaceParsing } from '../../vision/parsing/face-parsing.ts';
import { atlas } from '../../vision/regions/atlas.ts';
import { feather } from '../../image/feather.ts';
import { meshWarp } from './mesh-warp.ts';
import { parsingPlane } from '../../vision/regions/skin-mask.ts';
import { faceWindow, sampleAtlas, uvField, type P3 } from '../../vision/regions/uv-map.ts';
import { faceTone, lightPlane } from './colour.ts';
import { BEARD_SKIRT, LIGHT_SIGMA, TEMPLATE_GROW, TEMPLATE_LOG_FLOOR, TEMPLATE_MAX_TONE, TEMPLATE_MIN_AREA, TEMPLATE_OPEN, TEMPLATE_ROUGH } from './tuning.ts';

export interface TemplateBeard {
  image: RasterImage;
  mesh: readonly P3[];
  win: Rect;
  /** The beard's coverage over `win`, 0..1. */
  mask: Float32Array;
  /** The template's light over `win`, relative to its skin (colour.ts lightPlane). */
  light: Float32Array;
  /** The template's skin and neck (parsing) over `win`. */
  skin: Float32Array;
}

const clamp01 = (x: number) => (x < 0 ? 0 : x > 1 ? 1 : x);
const smoothstep = (a: number, b: number, x: number) => { const t = clamp01((x - a) / (b - a)); return t * t * (3 - 2 * t); };

/** The template face's beard, or null when it has none. */
export function templateBeard(image: RasterImage, face: Face, parsing: FaceParsing): TemplateBeard | null {
  const mesh = face.mesh!;
  const fw = Math.hypot(mesh[454][0] - mesh[234][0], mesh[454][1] - mesh[234][1]);
  const win = faceWindow(mesh, image, BEARD_SKIRT);
  const field = uvField(mesh, win, BEARD_SKIRT);
  const beardZone = sampleAtlas(atlas('beard'), field), moustacheZone = sampleAtlas(atlas('moustache'), field);
  const forehead = sampleAtlas(atlas('forehead'), field);
  const tone = faceTone(image, parsing);
  const l = lumaPlane(readWindow(image, win), win.w, win.h, image.channels);
  const fine = feather(l, win, Math.max(1, 0.004 * fw));
  // Texture: the local contrast of fine detail (|luma - its blur| over the broad luma), against the
  // forehead skin's. Hair is rough at this scale; a shadow under the jaw is dark but smooth.
  const base = feather(l, win, Math.max(1, 0.004 * fw));
  const broad = feather(l, win, Math.max(2, 0.02 * fw));
  const hp = new Float32Array(l.length);
  for (let i = 0; i < l.length; i++) hp[i] = Math.abs(l[i] - base[i]) / Math.max(0.04, broad[i]);
  const energy = feather(hp, win, Math.max(1, 0.012 * fw));
  const skin = parsingPlane(parsing, ['skin'], win);
  const ref: number[] = [];
  for (let i = 0; i < l.length; i++) if (forehead[i] > 0.5 && skin[i] > 0.6) ref.push(energy[i]);
  ref.sort((a, b) => a - b);
  const skinEnergy = Math.max(0.004, ref.length ? ref[ref.length >> 1] : 0.02);
  const other = parsingPlane(parsing, ['upperLip', 'lowerLip', 'mouth', 'nose', 'background', 'cloth', 'hair'], win);
  const skinL = tone.skinLuma / 255;
  const raw = new Float32Array(l.length);
  for (let i = 0; i < l.length; i++) {
    const zone = Math.max(beardZone[i], moustacheZone[i]);
    if (zone <= 0) continue;
    const dark = clamp01((0.95 * skinL - fine[i]) / (0.25 * skinL));
    const rough = clamp01((energy[i] / skinEnergy - TEMPLATE_ROUGH) / 1.5);
    raw[i] = zone * rough * (0.4 + 0.6 * dark) * (1 - clamp01(other[i] * 1.5));
  }
  // Closed over the gaps a lit chin or a blurred photo leaves in a beard, then opened: a band thinner than
  // twice TEMPLATE_OPEN (the jaw's contour, a strand of scalp hair along it) is no beard, which is a mass.
  const soft = feather(raw, win, Math.max(1, 0.02 * fw));
  const on = new Uint8Array(l.length);
  for (let i = 0; i < l.length; i++) on[i] = soft[i] > 0.25 ? 0 : 1;
  const r = Math.max(1, Math.round(TEMPLATE_OPEN * fw));
  const eroded = dilate(on, win.w, win.h, r);
  for (let i = 0; i < l.length; i++) eroded[i] = eroded[i] ? 0 : 1;
  const opened = dilate(eroded, win.w, win.h, r + 1);
  const mask = new Float32Array(l.length);
  let area = 0;
  for (let i = 0; i < l.length; i++) { mask[i] = opened[i] ? smoothstep(0.1, 0.35, soft[i]) : 0; area += mask[i]; }
  if (area < TEMPLATE_MIN_AREA * fw * fw) return null;
  const skinNeck = parsingPlane(parsing, ['skin', 'neck'], win);
  const light = lightPlane(image, win, tone.skinLuma, LIGHT_SIGMA * fw, skinNeck);
  return { image, mesh, win, mask, light, skin: skinNeck };
}

/** Bilinear sample of a window plane at window coordinates (pixel centres at +0.5); 0 outside. */
function samplePlane(p: Float32Array, win: Rect, x: number, y: number): number {
  const fx = x - win.x0 - 0.5, fy = y - win.y0 - 0.5;
  if (fx < 0 || fy < 0 || fx > win.w - 1 || fy > win.h - 1) return 0;
  const x0 = Math.min(win.w - 2, Math.floor(fx)), y0 = Math.min(win.h - 2, Math.floor(fy));
  const ax = fx - x0, ay = fy - y0, o = y0 * win.w + x0;
  return (p[o] * (1 - ax) + p[o + 1] * ax) * (1 - ay) + (p[o + win.w] * (1 - ax) + p[o + win.w + 1] * ax) * ay;
}

/** The template's beard onto one target face of `result` (light read from `image`, the untouched photo). */
export function transferBeard(image: RasterImage, result: RasterImage, face: Face, parsing: FaceParsing, t: TemplateBeard): void {
  const mesh = face.mesh!;
  const fw = Math.hypot(mesh[454][0] - mesh[234][0], mesh[454][1] - mesh[234][1]);
  const win = faceWindow(mesh, image, BEARD_SKIRT);
  const warp = meshWarp(mesh, t.mesh, win, BEARD_SKIRT);
  const tone = faceTone(image, parsing);
  const skin = parsingPlane(parsing, ['skin', 'neck'], win);
  const light = lightPlane(image, win, tone.skinLuma, LIGHT_SIGMA * fw, skin);
  const n = win.w * win.h, ch = result.channels, tch = t.image.channels, timg = t.image;
  const mask = new Float32Array(n), src = new Float32Array(n * 3);
  let x0 = win.w, y0 = win.h, x1 = -1, y1 = -1;
  for (let i = 0; i < n; i++) {
    const sx = warp.sx[i];
    if (sx !== sx) continue;
    const sy = warp.sy[i];
    const m = samplePlane(t.mask, t.win, sx, sy);
    mask[i] = m;
    const relight = light[i] / Math.max(0.2, samplePlane(t.light, t.win, sx, sy));
    // Bilinear colour from the template.
    const fx = Math.min(timg.width - 1.001, Math.max(0, sx - 0.5)), fy = Math.min(timg.height - 1.001, Math.max(0, sy - 0.5));
    const xa = Math.floor(fx), ya = Math.floor(fy), ax = fx - xa, ay = fy - ya;
    const o = (ya * timg.width + xa) * tch, r = timg.width * tch;
    for (let c = 0; c < 3; c++) {
      const v = (timg.data[o + c] * (1 - ax) + timg.data[o + tch + c] * ax) * (1 - ay) + (timg.data[o + r + c] * (1 - ax) + timg.data[o + r + tch + c] * ax) * ay;
      src[i * 3 + c] = v * Math.min(1.6, Math.max(0.6, relight));
    }
    if (m <= 0.01) continue;
    const x = i % win.w, y = (i / win.w) | 0;
    if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
  }
  if (x1 < 0) return;
  // The blend region reaches past the beard onto skin; only where both photos show skin there does the
  // border set the tone (a collar or background differs between them). Blended in log space, so the beard
  // keeps its contrast against the skin rather than its difference in levels.
  const reach = Math.max(2, Math.round(TEMPLATE_GROW * fw));
  const m = reach + 3;
  const bx0 = Math.max(0, x0 - m), by0 = Math.max(0, y0 - m), bw = Math.min(win.w, x1 + m + 1) - bx0, bh = Math.min(win.h, y1 + m + 1) - by0;
  const box: Rect = { x0: win.x0 + bx0, y0: win.y0 + by0, w: bw, h: bh };
  const px = readWindow(result, box);
  const nb = bw * bh;
  const dst = new Float32Array(nb * 3), s = new Float32Array(nb * 3), core = new Uint8Array(nb), trusted = new Uint8Array(nb);
  for (let k = 0; k < nb; k++) {
    const i = (by0 + ((k / bw) | 0)) * win.w + bx0 + (k % bw);
    const off = warp.sx[i] !== warp.sx[i];
    for (let c = 0; c < 3; c++) {
      dst[k * 3 + c] = Math.log(px[k * ch + c] + TEMPLATE_LOG_FLOOR);
      s[k * 3 + c] = off ? dst[k * 3 + c] : Math.log(src[i * 3 + c] + TEMPLATE_LOG_FLOOR);
    }
    core[k] = mask[i] > 0.05 ? 1 : 0;
    trusted[k] = !off && skin[i] > 0.5 && samplePlane(t.skin, t.win, warp.sx[i], warp.sy[i]) > 0.5 ? 1 : 0;
  }
  const inside = dilate(core, bw, bh, reach);
  const blended = poissonBlend(dst, s, inside, bw, bh, 3, trusted);
  const fade = new Float32Array(nb);
  for (let k = 0; k < nb; k++) fade[k] = core[k];
  const alpha = feather(fade, { x0: 0, y0: 0, w: bw, h: bh }, reach / 3);
  for (let k = 0; k < nb; k++) {
    const a = Math.min(1, alpha[k] * 1.3) * smoothstep(0, 0.3, mask[(by0 + ((k / bw) | 0)) * win.w + bx0 + (k % bw)] + alpha[k] * 0.3);
    if (a <= 0) continue;
    for (let c = 0; c < 3; c++) {
      // The tone correction is kept within a factor of TEMPLATE_MAX_TONE either way: where the template's border
      // pixels were not skin after all (a dark collar), an unbounded one would glare.
      const corr = Math.min(TEMPLATE_MAX_TONE, Math.max(-TEMPLATE_MAX_TONE, blended[k * 3 + c] - s[k * 3 + c]));
      const before = px[k * ch + c], v = before + (Math.exp(s[k * 3 + c] + corr) - TEMPLATE_LOG_FLOOR - before) * a;
      px[k * ch + c] = v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
    }
  }
  writeWindow(result, box, px);
}
