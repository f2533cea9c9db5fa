/**
 * Grain for what shows where hair goes: the scalp's, carried from the forehead's fine band, and the
 * backdrop's, so neither fill is smoother than the photo around it.
 */
import { blurPlane } from '../../image/frequency.ts';
import { dilatePlane } from '../../image/morphology.ts';
import type { Rect } from '../../image/rect.ts';
import { mirror } from './scalp.ts';
import { hash2 } from './strands.ts';
import { BACKDROP_FINE, BACKDROP_GRAIN, GRAIN_SIGMA, LINES, MOTTLE_BLOTCH, MOTTLE_BROAD, MOTTLE_GAIN, MOTTLE_MOST, TEXTURE_CLIP, TEXTURE_GAIN, TEXTURE_MARGIN, TEXTURE_SIGMA, TILE_LEAST } from './tuning.ts';

/** Seeded white noise, blurred to `sigma` (about a pixel's grain by default), scaled to unit spread. */
function grainPlane(w: number, h: number, seed: number, sigma = GRAIN_SIGMA): Float32Array {
  const g = new Float32Array(w * h);
  for (let y = 0, i = 0; y < h; y++) for (let x = 0; x < w; x++, i++) g[i] = hash2(x, y, seed) - 0.5;
  const b = blurPlane(g, w, h, sigma);
  let s = 0;
  for (let i = 0; i < b.length; i++) s += b[i] * b[i];
  const k = 1 / Math.sqrt(s / b.length || 1);
  for (let i = 0; i < b.length; i++) b[i] *= k;
  return b;
}

/**
 * The scalp's grain: the forehead's fine band, mirror-tiled from skin well inside the forehead (the brows,
 * eyes and hairline beside it never bleed in), its lines taken out (isotropic), soft-clipped, its holes
 * and, without a forehead, all of it filled with grain of the same spread.
 */
export function scalpTexture(L: Float32Array, sample: Float32Array, forehead: boolean, win: Rect, fw: number, seed: number): Float32Array {
  const n = win.w * win.h, tsig = Math.max(1, TEXTURE_SIGMA * fw);
  const fine = blurPlane(L, win.w, win.h, tsig);
  const outside = new Float32Array(n);
  for (let i = 0; i < n; i++) outside[i] = sample[i] ? 0 : 1;
  const near = dilatePlane(outside, win.w, win.h, Math.ceil(TEXTURE_MARGIN * tsig));
  let s = 0, count = 0, bx0 = win.w, by0 = win.h, bx1 = -1, by1 = -1;
  for (let y = 0, i = 0; y < win.h; y++) for (let x = 0; x < win.w; x++, i++) {
    if (near[i]) continue;
    const d = L[i] - fine[i];
    s += d * d; count++;
    if (x < bx0) bx0 = x; if (x > bx1) bx1 = x; if (y < by0) by0 = y; if (y > by1) by1 = y;
  }
  const spread = count ? Math.sqrt(s / count) : 1;
  // A forehead's fine band holds its pores and grain, which a scalp has too, and its frown lines, which it
  // has not (tiled, they came back as a lattice of wrinkles over the dome). A line is oriented: where the
  // band's structure tensor is coherent the band is let through only as far as it is not, and what is
  // left is brought back to the forehead's own spread, so the dome's fine energy is the forehead's.
  // (Read over the tile's box alone: the rest of the window is never tiled from.)
  const tw = bx1 - bx0 + 1, th = by1 - by0 + 1, iso = new Float32Array(n);
  if (count) {
    const box = new Float32Array(tw * th), boxFine = new Float32Array(tw * th);
    for (let y = 0; y < th; y++) for (let x = 0; x < tw; x++) { const j = (by0 + y) * win.w + bx0 + x; box[y * tw + x] = L[j]; boxFine[y * tw + x] = fine[j]; }
    const got = isotropic(box, boxFine, tw, th, tsig);
    for (let y = 0; y < th; y++) iso.set(got.subarray(y * tw, (y + 1) * tw), (by0 + y) * win.w + bx0);
  }
  let si = 0;
  for (let i = 0; i < n; i++) if (!near[i]) { const d = (L[i] - fine[i]) * iso[i]; si += d * d; }
  const lift = count && si > 0 ? Math.min(LINES.lift, spread / Math.sqrt(si / count)) : 1;
  // The forehead's mottling (the band between a few and a dozen grain widths), as smooth noise of its spread.
  const broad = blurPlane(L, win.w, win.h, MOTTLE_BROAD * tsig);
  let sm = 0, cm = 0;
  for (let i = 0; i < n; i++) if (!near[i]) { const d = fine[i] - broad[i]; sm += d * d; cm++; }
  const mottle = Math.min(MOTTLE_MOST, cm ? Math.sqrt(sm / cm) : 0);
  const blotch = grainPlane(win.w, win.h, seed + 21, MOTTLE_BLOTCH * tsig), bk = MOTTLE_GAIN * mottle;
  const grain = grainPlane(win.w, win.h, seed + 11);
  const out = new Float32Array(n);
  // On a small face the forehead's finest band is its lines (a wrinkle is a pixel or two wide there): tiled,
  // they came back as a lattice of wrinkles over the dome, so it takes grain of the same spread instead.
  const useTile = forehead && count >= TILE_LEAST && TEXTURE_SIGMA * fw >= 1, clip = TEXTURE_CLIP * spread;
  for (let y = 0, i = 0; y < win.h; y++) for (let x = 0; x < win.w; x++, i++) {
    let t = TEXTURE_GAIN * spread * grain[i];
    if (useTile) {
      const j = (by0 + mirror(y, th)) * win.w + bx0 + mirror(x, tw);
      if (!near[j]) t = TEXTURE_GAIN * clip * Math.tanh(((L[j] - fine[j]) * iso[j] * lift) / clip);
    }
    out[i] = t + bk * blotch[i];
  }
  return out;
}

/** Lightness of the background's fine band round the head, as grain of that spread over the fill. */
export function backgroundGrain(L: Float32Array, source: Float32Array, win: Rect, seed: number): Float32Array {
  const fine = blurPlane(L, win.w, win.h, BACKDROP_FINE);
  let s = 0, count = 0;
  for (let i = 0; i < L.length; i++) if (source[i]) { const d = L[i] - fine[i]; s += d * d; count++; }
  const spread = count ? Math.min(BACKDROP_GRAIN, Math.sqrt(s / count)) : 0;
  const g = grainPlane(win.w, win.h, seed + 13);
  for (let i = 0; i < g.length; i++) g[i] *= spread;
  return g;
}

/**
 * How far each pixel of L's fine band (L less `fine`) is free of lines, 0..1: one less the coherence of its
 * gradients' structure tensor over LINES.window band widths ((λ1 - λ2) / (λ1 + λ2), 1 along a wrinkle, low
 * over pores and grain), past LINES.from, fully suppressed at LINES.to.
 */
export function isotropic(L: Float32Array, fine: Float32Array, w: number, h: number, sigma: number): Float32Array {
  const n = w * h, d = new Float32Array(n);
  for (let i = 0; i < n; i++) d[i] = L[i] - fine[i];
  const xx = new Float32Array(n), yy = new Float32Array(n), xy = new Float32Array(n);
  for (let y = 1; y < h - 1; y++) for (let x = 1; x < w - 1; x++) {
    const i = y * w + x, gx = (d[i + 1] - d[i - 1]) / 2, gy = (d[i + w] - d[i - w]) / 2;
    xx[i] = gx * gx; yy[i] = gy * gy; xy[i] = gx * gy;
  }
  const r = LINES.window * sigma;
  const a = blurPlane(xx, w, h, r), b = blurPlane(yy, w, h, r), c = blurPlane(xy, w, h, r);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const tr = a[i] + b[i], coh = tr > 1e-9 ? Math.sqrt((a[i] - b[i]) ** 2 + 4 * c[i] * c[i]) / tr : 0;
    out[i] = 1 - Math.min(1, Math.max(0, (coh - LINES.from) / (LINES.to - LINES.from)));
  }
  return out;
}
