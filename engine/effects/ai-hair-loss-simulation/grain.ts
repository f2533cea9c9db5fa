/**
 * Grain for what shows where hair goes: the scalp's, carried from the forehead's fine band, and the
 * backdrop's, so neither fill is smoother than the photo around it.
 */
import { blurPlane } from '../../image/frequency.ts';
import { dilatePlane } from '../../image/morphology.ts';
import type { Rect } from '../../image/rect.ts';
import { mirror } from './scalp.ts';
import { hash2 } from './strands.ts';
import { BACKDROP_FINE, BACKDROP_GRAIN, GRAIN_SIGMA, MOTTLE_BLOTCH, MOTTLE_BROAD, MOTTLE_GAIN, MOTTLE_MOST, TEXTURE_CLIP, TEXTURE_GAIN, TEXTURE_MARGIN, TEXTURE_SIGMA, TILE_LEAST } from './tuning.ts';

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
 * eyes and hairline beside it never bleed in), soft-clipped, its holes and, without a forehead, all of it
 * filled with grain of the same spread.
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
  const useTile = forehead && count >= TILE_LEAST && TEXTURE_SIGMA * fw >= 1, tw = bx1 - bx0 + 1, th = by1 - by0 + 1, clip = TEXTURE_CLIP * spread;
  for (let y = 0, i = 0; y < win.h; y++) for (let x = 0; x < win.w; x++, i++) {
    let t = TEXTURE_GAIN * spread * grain[i];
    if (useTile) {
      const j = (by0 + mirror(y, th)) * win.w + bx0 + mirror(x, tw);
      if (!near[j]) t = TEXTURE_GAIN * clip * Math.tanh((L[j] - fine[j]) / clip);
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
