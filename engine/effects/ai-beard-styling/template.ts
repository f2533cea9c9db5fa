/**
 * Beard transfer from a template photo: the template's beard found in the mesh's beard and moustache zones
 * as what is darker than the face's skin or rougher than it (hair-coloured, high-frequency texture), lips,
 * nostrils, background and clothes excluded; carried onto each target face through both meshes (piecewise
 * affine over the mesh triangles, mesh-warp.ts); relit by the ratio of the two faces' light; then blended
 * in the gradient domain (poisson.ts), so the beard keeps its texture and takes the target's skin tone at
 * its border, without a seam.
 */
import { lumaPlane } from '../../image/luma.ts';
import { poissonBlend } from '../../image/poisson.ts';
import type { RasterImage } from '../../image/raster.ts';
import { readWindow, writeWindow } from '../../image/window.ts';
import type { Face } from '../../vision/faces/detect.ts';
import type { FaceParsing } from '../../vision/parsing/face-parsing.ts';
import { atlas } from '../../vision/regions/atlas.ts';
import { feather } from '../../vision/regions/feather.ts';
import { meshWarp } from '../../vision/regions/mesh-warp.ts';
import type { Win } from '../../vision/regions/polygon.ts';
import { parsingPlane } from '../../vision/regions/skin-mask.ts';
import { faceWindow, sampleAtlas, uvField, type P3 } from '../../vision/regions/uv-map.ts';
import { faceTone, lightPlane } from './colour.ts';
import { BEARD_SKIRT } from './shape.ts';

export interface TemplateBeard {
  image: RasterImage;
  mesh: readonly P3[];
  win: Win;
  /** The beard's coverage over `win`, 0..1. */
  mask: Float32Array;
  /** The template's light over `win`, relative to its skin (colour.ts lightPlane). */
  light: Float32Array;
}

/** A beard smaller than this share of the face width squared is no beard (a shadow, a few stray pixels). */
const MIN_AREA = 0.012;

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
  // Texture: local mean of |luma - its blur|, against the forehead skin's.
  const base = feather(l, win, Math.max(1.5, 0.008 * fw));
  const hp = new Float32Array(l.length);
  for (let i = 0; i < l.length; i++) hp[i] = Math.abs(l[i] - base[i]);
  const energy = feather(hp, win, Math.max(1, 0.01 * fw));
  const skin = parsingPlane(parsing, ['skin'], win);
  const ref: number[] = [];
  for (let i = 0; i < l.length; i++) if (forehead[i] > 0.5 && skin[i] > 0.6) ref.push(energy[i]);
  ref.sort((a, b) => a - b);
  const skinEnergy = Math.max(0.004, ref.length ? ref[ref.length >> 1] : 0.01);
  const other = parsingPlane(parsing, ['upperLip', 'lowerLip', 'mouth', 'nose', 'background', 'cloth'], win);
  const skinL = tone.skinLuma / 255;
  const raw = new Float32Array(l.length);
  for (let i = 0; i < l.length; i++) {
    const zone = Math.max(beardZone[i], moustacheZone[i]);
    if (zone <= 0) continue;
    const dark = clamp01((0.9 * skinL - fine[i]) / (0.3 * skinL));
    const rough = clamp01((energy[i] / skinEnergy - 1.6) / 2);
    raw[i] = zone * clamp01(0.8 * dark + 0.5 * rough) * (1 - clamp01(other[i] * 1.5));
  }
  const soft = feather(raw, win, Math.max(1, 0.012 * fw));
  const mask = new Float32Array(l.length);
  let area = 0;
  for (let i = 0; i < l.length; i++) { mask[i] = smoothstep(0.15, 0.5, soft[i]); area += mask[i]; }
  if (area < MIN_AREA * fw * fw) return null;
  const light = lightPlane(image, win, tone.skinLuma, 0.03 * fw, parsingPlane(parsing, ['skin', 'neck'], win));
  return { image, mesh, win, mask, light };
}

/** Bilinear sample of a window plane at window coordinates (pixel centres at +0.5); 0 outside. */
function samplePlane(p: Float32Array, win: Win, x: number, y: number): number {
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
  const light = lightPlane(image, win, tone.skinLuma, 0.03 * fw, parsingPlane(parsing, ['skin', 'neck'], win));
  const n = win.w * win.h, ch = result.channels, tch = t.image.channels, timg = t.image;
  const mask = new Float32Array(n), src = new Float32Array(n * 3);
  let x0 = win.w, y0 = win.h, x1 = -1, y1 = -1;
  for (let i = 0; i < n; i++) {
    const sx = warp.sx[i];
    if (sx !== sx) continue;
    const sy = warp.sy[i];
    const m = samplePlane(t.mask, t.win, sx, sy);
    if (m <= 0.01) continue;
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
    const x = i % win.w, y = (i / win.w) | 0;
    if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
  }
  if (x1 < 0) return;
  // The blend works on the beard's box and a margin of known pixels around it.
  const m = 3;
  const bx0 = Math.max(0, x0 - m), by0 = Math.max(0, y0 - m), bw = Math.min(win.w, x1 + m + 1) - bx0, bh = Math.min(win.h, y1 + m + 1) - by0;
  const box: Win = { x0: win.x0 + bx0, y0: win.y0 + by0, w: bw, h: bh };
  const px = readWindow(result, box);
  const dst = new Float32Array(bw * bh * 3), s = new Float32Array(bw * bh * 3), inside = new Uint8Array(bw * bh);
  for (let y = 0; y < bh; y++) {
    for (let x = 0; x < bw; x++) {
      const k = y * bw + x, i = (by0 + y) * win.w + bx0 + x;
      for (let c = 0; c < 3; c++) { dst[k * 3 + c] = px[k * ch + c]; s[k * 3 + c] = mask[i] > 0.01 ? src[i * 3 + c] : px[k * ch + c]; }
      inside[k] = mask[i] > 0.02 ? 1 : 0;
    }
  }
  const blended = poissonBlend(dst, s, inside, bw, bh, 3);
  for (let y = 0; y < bh; y++) {
    for (let x = 0; x < bw; x++) {
      const k = y * bw + x, a = smoothstep(0.02, 0.45, mask[(by0 + y) * win.w + bx0 + x]);
      if (a <= 0) continue;
      for (let c = 0; c < 3; c++) {
        const v = dst[k * 3 + c] + (blended[k * 3 + c] - dst[k * 3 + c]) * a;
        px[k * ch + c] = v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
      }
    }
  }
  writeWindow(result, box, px);
}
