/**
 * Classical cartoon stylisation (after Winnemöller et al., "Real-time video abstraction", 2006, and
 * XDoG lines): colours flattened by iterated edge-preserving smoothing (the guided filter, each Lab
 * plane guided by lightness), lightness quantised into soft bands, and clean dark outlines from an
 * extended difference of Gaussians on lightness. Works on RGB or RGBA pixels in place (alpha untouched).
 */
import { guidedFilter } from '../../image/guided-filter.ts';
import { blurPlane } from '../../image/frequency.ts';
import { fromLab, toLab } from '../../image/colour.ts';
import type { Pixels } from '../../image/raster.ts';
import { BAND_HARDNESS, CARTOON, LINE_FLOOR, LINE_SCALE } from './tuning.ts';

export interface CartoonOptions {
  /** Smoothing passes and their radius (pixels) and eps (on L/100 scale squared). */
  passes: number; radius: number; eps: number;
  /** Lightness bands (L 0..100) and how soft their steps are (larger is harder). */
  levels: number; sharpness: number;
  /** XDoG: blur sigma, ratio, threshold and softness of the lines. */
  lineSigma: number; tau: number; epsilon: number; phi: number;
}

/** `keepLines`: per pixel, how much of the lines to draw (1 everywhere when absent). */
export function cartoon(img: Pixels, o: CartoonOptions = CARTOON, keepLines?: Float32Array): void {
  const { width: w, height: h } = img;
  const lab = toLab(img);
  const n = w * h;
  const L = new Float32Array(n), A = new Float32Array(n), B = new Float32Array(n);
  for (let i = 0; i < n; i++) { L[i] = lab.L[i] / 100; A[i] = lab.a[i] / 100; B[i] = lab.b[i] / 100; }
  let l: Float32Array = L, a: Float32Array = A, b: Float32Array = B;
  let lines: Float32Array | undefined;
  for (let p = 0; p < o.passes; p++) {
    const guide = l;
    l = guidedFilter(guide, l, w, h, o.radius, o.eps);
    a = guidedFilter(guide, a, w, h, o.radius, o.eps);
    b = guidedFilter(guide, b, w, h, o.radius, o.eps);
    // Lines from the first pass: smoothed enough to lose texture, not yet the outlines themselves.
    if (p === 0) lines = xdog(l, w, h, o);
  }
  lines ??= xdog(l, w, h, o);
  const step = 1 / o.levels;
  for (let i = 0; i < n; i++) {
    const nearest = Math.round(l[i] / step) * step;
    const banded = nearest + (step / 2) * Math.tanh(o.sharpness * BAND_HARDNESS * (l[i] - nearest));
    const line = keepLines ? 1 - (1 - lines[i]) * keepLines[i] : lines[i];
    lab.L[i] = Math.max(0, Math.min(100, banded * 100 * (LINE_FLOOR + (1 - LINE_FLOOR) * line)));
    lab.a[i] = a[i] * 100;
    lab.b[i] = b[i] * 100;
  }
  fromLab(lab, img);
}

/** XDoG edge plane: 1 away from edges, falling toward 0 on dark lines. */
export function xdog(l: Float32Array, w: number, h: number, o: Pick<CartoonOptions, 'lineSigma' | 'tau' | 'epsilon' | 'phi'>): Float32Array {
  const g1 = blurPlane(l, w, h, o.lineSigma);
  const g2 = blurPlane(l, w, h, o.lineSigma * LINE_SCALE);
  const out = new Float32Array(w * h);
  for (let i = 0; i < out.length; i++) {
    const d = g1[i] - o.tau * g2[i];
    out[i] = d >= o.epsilon ? 1 : Math.max(0, 1 + Math.tanh(o.phi * (d - o.epsilon)));
  }
  return out;
}
