/**
 * Recolouring a region the way lipstick or dye does: hue and chroma come from the colour, the region keeps
 * its own shading and texture. Per pixel: the lightness keeps its offset from the region's mean (so shading,
 * creases and highlights stay), and the mean moves part of the way to the colour's own lightness (a pale pink
 * on dark lips still reads pink); chroma is the colour's, scaled by how saturated the pixel was against the
 * region's mean (a pale highlight stays paler); hue is the colour's.
 */
import type { Pixels } from '../image/raster.ts';
import type { Rect } from '../image/rect.ts';
import { blend } from './blend.ts';
import { chroma, fromLab, labOf, toLab } from '../image/colour.ts';

export interface Recolor {
  /** 8-bit sRGB. */
  rgb: readonly [number, number, number];
  /** 0..1. */
  opacity: number;
  /** Share of the distance between the region's mean lightness and the colour's that the region moves. */
  lightness: number;
}

/** How far a pixel's own chroma (against the region's mean) carries into the result: 0 flat, 1 fully. */
const CHROMA_TEXTURE = 0.6;
/** ... its ratio to the mean kept within this range (a highlight's or a crease's chroma is no texture). */
const CHROMA_RATIO = { least: 0.3, most: 1.5 };

/**
 * Recolours `img` in place over `area`, weighted by `mask` (0..1 over the area). `source` is read for the
 * region's colours (the original photo; it may be `img` itself).
 */
export function recolor(img: Pixels, source: Pixels, mask: Float32Array, area: Rect, c: Recolor): void {
  const lab = toLab(source, area);
  const t = labOf(c.rgb[0], c.rgb[1], c.rgb[2]);
  const tc = chroma(t.a, t.b), th = Math.atan2(t.b, t.a);
  let sw = 0, sl = 0, sc = 0;
  for (let i = 0; i < mask.length; i++) {
    const w = mask[i];
    if (w < 0.5) continue;
    sw += w; sl += w * lab.L[i]; sc += w * chroma(lab.a[i], lab.b[i]);
  }
  if (sw === 0) return;
  const meanL = sl / sw, meanC = Math.max(1, sc / sw);
  const shift = c.lightness * (t.l - meanL);
  const ca = Math.cos(th), sa = Math.sin(th);
  for (let i = 0; i < mask.length; i++) {
    if (mask[i] === 0) continue;
    const k = Math.min(CHROMA_RATIO.most, Math.max(CHROMA_RATIO.least, chroma(lab.a[i], lab.b[i]) / meanC)) ** CHROMA_TEXTURE;
    lab.L[i] = Math.min(100, Math.max(0, lab.L[i] + shift));
    lab.a[i] = tc * k * ca;
    lab.b[i] = tc * k * sa;
  }
  const layer = { data: new Uint8Array(area.w * area.h * 3), width: area.w, height: area.h, channels: 3 };
  fromLab({ ...lab, area: { x0: 0, y0: 0, w: area.w, h: area.h } }, layer);
  blend(img, layer, mask, area, c.opacity);
}
