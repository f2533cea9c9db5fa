/**
 * The skin maps (docs/interface.md#skin-analysis), each the size of the input: the photo (grey for the
 * texture maps, so the colour marks read) with one measured quantity laid over the analysed skin in one colour, its
 * opacity the quantity's strength. red_area and brown_area are the haemoglobin and melanin densities
 * (pigment.ts) above the face's own median, over its 10-90 % spread; the texture maps are the pore-scale
 * darkening (faintly) with the pores found, the blackheads found on the nose, the shine, and the dark-line depth.
 */
import sharp from 'sharp';
import type { EncodedImage, RasterImage } from '../../../image/raster.ts';
import type { SkinAnalysis } from './analyse.ts';
import { resamplePlane } from './frame.ts';
import { gauss } from '../../../image/gauss.ts';
import { quantilesIn } from './pigment.ts';

export const MAP_NAMES = ['red_area', 'brown_area', 'texture_enhanced_pores', 'texture_enhanced_blackheads', 'texture_enhanced_oily_area', 'texture_enhanced_lines'] as const;
export type MapName = (typeof MAP_NAMES)[number];

interface Overlay { alpha: Float32Array; colour: [number, number, number]; grey: boolean }

/** Relative density over skin: 0 up to the face's 70th percentile, 1 from its 98th. */
function relative(v: Float32Array, skin: Float32Array): Float32Array {
  const [med, top] = quantilesIn(v, skin, [0.7, 0.98]);
  const spread = Math.max(1e-3, top - med);
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = skin[i] * Math.max(0, Math.min(1, (v[i] - med) / spread));
  return out;
}

function discs(a: SkinAnalysis, blobs: readonly { x: number; y: number; r: number }[], into: Float32Array) {
  const { w, h } = a.frame;
  for (const b of blobs) {
    const R = Math.max(1, b.r * 1.3);
    for (let y = Math.max(0, Math.floor(b.y - R)); y <= Math.min(h - 1, Math.ceil(b.y + R)); y++) {
      for (let x = Math.max(0, Math.floor(b.x - R)); x <= Math.min(w - 1, Math.ceil(b.x + R)); x++) if (Math.hypot(x - b.x, y - b.y) <= R) into[y * w + x] = 1;
    }
  }
}

export function overlay(a: SkinAnalysis, name: MapName): Overlay {
  const { w, h, s } = a.frame, skin = a.zones.skin, { lab, pig, shine, fine, pores, blackheads } = a.internals;
  const n = w * h;
  switch (name) {
    case 'red_area': return { alpha: relative(pig.haemoglobin, skin), colour: [225, 25, 45], grey: false };
    case 'brown_area': return { alpha: relative(pig.melanin, skin), colour: [125, 70, 15], grey: false };
    case 'texture_enhanced_pores': {
      const low = gauss(lab.L, w, h, Math.max(0.8, 0.6 * s)), alpha = new Float32Array(n);
      for (let i = 0; i < n; i++) alpha[i] = skin[i] * Math.max(0, Math.min(0.35, (low[i] - lab.L[i] - 1.5) / 10));
      discs(a, pores, alpha);
      return { alpha, colour: [0, 140, 255], grey: true };
    }
    case 'texture_enhanced_blackheads': {
      const alpha = new Float32Array(n);
      discs(a, blackheads, alpha);
      for (let i = 0; i < n; i++) alpha[i] = Math.max(alpha[i], 0.15 * a.zones.nose[i]);
      return { alpha, colour: [200, 0, 200], grey: true };
    }
    case 'texture_enhanced_oily_area': {
      const alpha = new Float32Array(n);
      for (let i = 0; i < n; i++) alpha[i] = skin[i] * Math.min(1, shine[i] * 2);
      return { alpha, colour: [255, 190, 0], grey: true };
    }
    case 'texture_enhanced_lines': {
      const alpha = new Float32Array(n);
      for (let i = 0; i < n; i++) alpha[i] = skin[i] * Math.max(0, Math.min(1, (fine.depth[i] - 1.5) / 6));
      return { alpha, colour: [0, 210, 110], grey: true };
    }
  }
}

/** The requested maps as JPEGs the size of `image`. */
export async function renderMaps(image: RasterImage, a: SkinAnalysis, names: readonly MapName[], ms: Record<string, number> = {}): Promise<Record<MapName, EncodedImage>> {
  const out = {} as Record<MapName, EncodedImage>;
  if (names.length === 0) return out;
  // Encodes run in sharp's thread pool while the next map is drawn, and all together at the end.
  const pending: Promise<void>[] = [];
  const { win, w, h } = a.frame, ch = image.channels, W = image.width, n = image.width * image.height;
  // The two backgrounds (the photo as RGB, and grey) are made once and shared by the maps.
  let colour: Buffer | undefined, grey: Buffer | undefined;
  const background = (isGrey: boolean): Buffer => {
    if (isGrey) {
      if (!grey) {
        grey = Buffer.alloc(n * 3);
        for (let i = 0, j = 0, k = 0; i < n; i++, j += ch, k += 3) grey[k] = grey[k + 1] = grey[k + 2] = (54 * image.data[j] + 183 * image.data[j + 1] + 19 * image.data[j + 2]) >> 8;
      }
      return grey;
    }
    if (!colour) {
      if (ch === 3) colour = Buffer.from(image.data.buffer, image.data.byteOffset, n * 3);
      else {
        colour = Buffer.alloc(n * 3);
        for (let i = 0, j = 0, k = 0; i < n; i++, j += ch, k += 3) { colour[k] = image.data[j]; colour[k + 1] = image.data[j + 1]; colour[k + 2] = image.data[j + 2]; }
      }
    }
    return colour;
  };
  let t = performance.now();
  const lap = (k: string) => { const now = performance.now(); ms[k] = (ms[k] ?? 0) + now - t; t = now; };
  for (const name of names) {
    const o = overlay(a, name);
    lap('map overlays');
    const alpha = w === win.w && h === win.h ? o.alpha : resamplePlane(o.alpha, w, h, win.w, win.h);
    lap('map resample');
    // A copy of the background (a memcpy into memory not zeroed first), coloured only inside the face's window.
    const bg = background(o.grey), px = Buffer.allocUnsafe(bg.length);
    px.set(bg);
    const [cr, cg, cb] = o.colour;
    for (let y = 0; y < win.h; y++) {
      for (let x = 0, i = y * win.w, j = ((win.y0 + y) * W + win.x0) * 3; x < win.w; x++, i++, j += 3) {
        const v = alpha[i];
        if (v <= 0.01) continue;
        px[j] += (cr - px[j]) * v; px[j + 1] += (cg - px[j + 1]) * v; px[j + 2] += (cb - px[j + 2]) * v;
      }
    }
    lap('map drawing');
    pending.push(sharp(px, { raw: { width: image.width, height: image.height, channels: 3 } }).jpeg({ quality: 88 }).toBuffer()
      .then((data) => { out[name] = { data, format: 'jpeg' }; }));
  }
  await Promise.all(pending);
  lap('map encode wait');
  // In the order asked for.
  return Object.fromEntries(names.map((n) => [n, out[n]])) as Record<MapName, EncodedImage>;
}
