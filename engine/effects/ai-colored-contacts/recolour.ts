/**
 * Tints one iris as a coloured contact lens does: in Lab, the iris keeps its own texture (each pixel's
 * offset from the iris's mean lightness) while its mean lightness and its colour move toward the lens's;
 * a darker limbal ring is drawn at the iris's edge; the pupil and the catchlights are left alone, and the
 * eyelids clip it (the weight is the iris region times the eye opening).
 */
import { type Mask } from '../../image/mask.ts';
import type { RasterImage } from '../../image/raster.ts';
import { labOf, labToRgb, rgbToLab } from '../../image/colour.ts';
import type { Lens } from './lens.ts';
import { CATCHLIGHT_FROM, CATCHLIGHT_GREY, CATCHLIGHT_L, FIBRE_CHROMA, FIBRE_CONTRAST_MOST, IRIS_REACH, LIGHTNESS_REACH, LIMBAL, PUPIL, PUPIL_MEAN, TOUCHED } from './tuning.ts';


export interface Iris { cx: number; cy: number; r: number }

const smoothstep = (a: number, b: number, x: number) => { const t = Math.min(1, Math.max(0, (x - a) / (b - a))); return t * t * (3 - 2 * t); };

/**
 * Recolours the iris in place in `out` (same size and channels as `image`). `iris` is the weight plane
 * (0..255, full resolution; iris region times eye opening). Returns how many pixels it changed.
 */
export function tintIris(image: RasterImage, out: Buffer, weight: Mask, iris: Iris, lens: Lens): number {
  const { width, height, channels } = image;
  const x0 = Math.max(0, Math.floor(iris.cx - iris.r * IRIS_REACH)), x1 = Math.min(width, Math.ceil(iris.cx + iris.r * IRIS_REACH));
  const y0 = Math.max(0, Math.floor(iris.cy - iris.r * IRIS_REACH)), y1 = Math.min(height, Math.ceil(iris.cy + iris.r * IRIS_REACH));
  const px: { i: number; w: number; rr: number; L: number; a: number; b: number }[] = [];
  const lab = [0, 0, 0];
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = y * width + x;
      const w = weight.data[i] / 255;
      if (w <= 0) continue;
      const o = i * channels;
      rgbToLab(image.data[o], image.data[o + 1], image.data[o + 2], lab);
      px.push({ i, w, rr: Math.hypot(x + 0.5 - iris.cx, y + 0.5 - iris.cy) / iris.r, L: lab[0], a: lab[1], b: lab[2] });
    }
  }
  if (px.length === 0) return 0;
  const sorted = px.map((p) => p.L).sort((p, q) => p - q);
  const median = sorted[sorted.length >> 1];
  // Mean lightness of the iris itself, catchlights and pupil left out.
  let sw = 0, sl = 0;
  for (const p of px) if (p.rr > PUPIL_MEAN && p.L < median + CATCHLIGHT_L) { sw += p.w; sl += p.w * p.L; }
  const meanL = sw > 0 ? sl / sw : median;
  const hex = parseInt(lens.hex.slice(1), 16);
  const { l: lensL, a: lensA, b: lensB } = labOf(hex >> 16, (hex >> 8) & 255, hex & 255);
  const shift = (lensL - meanL) * LIGHTNESS_REACH;
  // A lighter lens over a dark iris: its fibres' contrast grows with its lightness (a dark iris's texture
  // spans few L levels, and moved up as it is it would read as a flat printed disc).
  const contrast = Math.min(FIBRE_CONTRAST_MOST, Math.max(1, (meanL + shift) / Math.max(1, meanL)));
  let changed = 0;
  const rgb = [0, 0, 0];
  for (const p of px) {
    const chroma = Math.hypot(p.a, p.b);
    const catchlight = smoothstep(CATCHLIGHT_L * CATCHLIGHT_FROM, CATCHLIGHT_L, p.L - median) * (1 - smoothstep(CATCHLIGHT_GREY.from, CATCHLIGHT_GREY.to, chroma));
    // The pupil (about 0.4 of the iris radius) fades in over the next tenth; the lens is clear there.
    const pupil = 1 - smoothstep(PUPIL.to, PUPIL.from, p.rr);
    const ring = smoothstep(LIMBAL.from, LIMBAL.to, p.rr) * lens.limbalRing;
    const k = p.w * lens.strength * (1 - catchlight) * (1 - pupil);
    if (k <= TOUCHED) continue;
    const L = Math.max(0, meanL + shift + contrast * (p.L - meanL) - LIMBAL.darken * ring);
    // Darker fibres carry less of the lens colour, as a tint over a darker ground does.
    const c = Math.min(FIBRE_CHROMA.most, Math.max(FIBRE_CHROMA.least, FIBRE_CHROMA.base + FIBRE_CHROMA.gain * (L / Math.max(1, lensL)))) * (1 - LIMBAL.chroma * ring);
    labToRgb(L, lensA * c, lensB * c, rgb);
    const o = p.i * channels;
    let moved = false;
    for (let ch = 0; ch < 3; ch++) {
      const v = Math.round(image.data[o + ch] + k * (rgb[ch] - image.data[o + ch]));
      if (v !== image.data[o + ch]) moved = true;
      out[o + ch] = v;
    }
    if (moved) changed++;
  }
  return changed;
}
