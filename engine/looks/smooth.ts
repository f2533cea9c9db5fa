/**
 * Edge-aware skin smoothing with texture restored: each channel through a self-guided filter (He et al.:
 * variations below about sqrt(eps) are flattened, edges above it kept, so blotches and small blemishes go
 * while the jaw, nostrils and lashes stay), then the pore-scale band of the original added back in part,
 * so the skin keeps a real surface and never looks airbrushed. Planes are Float32Array in [0, 1].
 */
import { fastGuidedFilter } from '../image/guided-filter.ts';
import { blurPlane } from '../image/frequency.ts';

export interface SmoothOptions {
  /** Guided filter radius in pixels: the largest feature size that gets flattened. */
  radius: number;
  /** Guided filter eps (on 0..1 values): contrasts below about sqrt(eps) count as texture, not edges. */
  eps: number;
  /** Pore scale: sigma in pixels of the finest band, which is restored. */
  poreSigma: number;
  /** How much of the finest band comes back (0 = none, 1 = all of it). */
  texture: number;
  /**
   * Sigma in pixels above which what the filter removed is shape, not blemish: shading of the nose,
   * cheekbones and folds that a face is recognised by. `shape` of it comes back (default none).
   */
  shapeSigma?: number;
  shape?: number;
  /**
   * Texture kept, as a share of the fine band's energy: where the filter and `texture` leave the skin
   * with less than `energy` of its energy above `sigma` px (over the weights `where`, the plane's own
   * pixels), more of the pore band comes back, up to all of it, until it has that share. So a finely
   * textured face is never left airbrushed, and one the filter barely touched is left as `texture` says.
   */
  keep?: { energy: number; sigma: number; where: Float32Array };
}

/**
 * The guided filter's eps for a face `faceWidth` px wide: `eps` as it is from `fullWidth` px up, and
 * growing as the face shrinks below it, by (fullWidth / faceWidth) to the power `power`. On a 50 px face a
 * pixel is 2 % of it: what is left at pixel scale on its skin is JPEG blocks and noise, not pores (no pore
 * band below ~175 px) nor features (masked out), so a contrast the filter keeps as an edge on a large face
 * is one it should flatten on a small one. With power 2 the contrast threshold (sqrt eps) grows as the
 * pixel's share of the face does. A wider radius is no substitute: its window sees more variance and keeps more.
 */
export const faceEps = (eps: number, faceWidth: number, fullWidth: number, power = 1): number => eps * Math.max(1, fullWidth / faceWidth) ** power;

/** 0 for a face up to `from` px wide, 1 from `to` px, linear between: how much of a size-bound part applies. */
export const sizeRamp = (faceWidth: number, from: number, to: number): number => Math.min(1, Math.max(0, (faceWidth - from) / (to - from)));

/** How the shape band (SmoothOptions.shapeSigma, .shape) is set for a face's width. */
export interface ShapeTuning {
  /** The band's sigma as a fraction of the face width, and the share of it given back. */
  sigma: number;
  share: number;
  /** The band is never finer than this (px): below it is the pixel grain the smoothing is for. */
  minPx: number;
  /** The share given back where the face is too small for `sigma` to reach minPx. */
  smallShare: number;
}

/**
 * The shape band for a face `faceWidth` px wide: above `sigma` of the face, and never finer than minPx.
 * On faces too small for `sigma` to reach it (below 100 px at 1.5 %), the floor band is the face's own
 * shading and features, which it is recognised by, so more of it comes back (smallShare), fading to
 * `share` as the face's band grows to twice the floor.
 */
export function faceShapeBand(faceWidth: number, t: ShapeTuning): { shapeSigma: number; shape: number } {
  const sigma = t.sigma * faceWidth;
  const k = Math.min(1, Math.max(0, (sigma - t.minPx) / t.minPx));
  return { shapeSigma: Math.max(t.minPx, sigma), shape: t.smallShare + (t.share - t.smallShare) * k };
}

/**
 * Block size of the fast guided filter's grid for a radius: the window keeps at least 3 grid cells of
 * radius, where the coefficients (smooth at the scale of r) lose nothing visible; below r = 6 it is exact.
 */
export const gridStep = (r: number) => Math.max(1, Math.floor(r / 3));

/** A plane split for smoothing: what the filter (and `shape`) leave, and the pore band it took away. */
interface SmoothBands { base: Float32Array; fine: Float32Array | null }

/**
 * guided(self) with `shape` of its broad removal given back (base), and the pore band of what it removed
 * (fine(plane - base)), null where that band is finer than a pixel. The smoothed plane is base + t x fine.
 */
function smoothBands(plane: Float32Array, w: number, h: number, o: SmoothOptions): SmoothBands {
  const r = Math.max(1, Math.round(o.radius));
  const base = fastGuidedFilter(plane, plane, w, h, r, o.eps, gridStep(r));
  const shape = o.shape && o.shapeSigma ? o.shape : 0;
  if (!(o.texture > 0 || shape > 0 || o.keep)) return { base, fine: null };
  const diff = new Float32Array(base.length);
  for (let i = 0; i < diff.length; i++) diff[i] = plane[i] - base[i];
  if (shape > 0) {
    const broad = blurPlane(diff, w, h, o.shapeSigma!);
    for (let i = 0; i < base.length; i++) base[i] += shape * broad[i];
  }
  const low = blurPlane(diff, w, h, o.poreSigma);
  let band = false;
  for (let i = 0; i < diff.length; i++) { diff[i] -= low[i]; band ||= diff[i] !== 0; }
  // A pore band finer than a pixel is empty (blurPlane leaves the plane): nothing to weigh or add.
  return { base, fine: band ? diff : null };
}

/**
 * The smoothed plane: guided(self), with `texture` of its pore band swapped back for the original's
 * (out = g + texture x (fine(plane) - fine(g)), i.e. texture x fine(plane - g), the band being linear),
 * so what the filter kept is not added twice.
 */
export function smoothPlane(plane: Float32Array, w: number, h: number, o: SmoothOptions): Float32Array {
  const { base, fine } = smoothBands(plane, w, h, o);
  if (!fine) return base;
  const t = o.keep ? textureFor(plane, base, fine, w, h, o.texture, o.keep) : o.texture;
  for (let i = 0; i < base.length; i++) base[i] += t * fine[i];
  return base;
}

/**
 * The share t (texture..1) of the pore band `fine` to add to `base` so that the high band (above sigma)
 * of base + t x fine has `keep.energy` of the plane's own high-band energy over the weights. The band is
 * linear, so that energy is a quadratic in t: a + 2bt + ct^2.
 */
function textureFor(plane: Float32Array, base: Float32Array, fine: Float32Array, w: number, h: number, texture: number, keep: NonNullable<SmoothOptions['keep']>): number {
  const high = (p: Float32Array) => { const b = blurPlane(p, w, h, keep.sigma); for (let i = 0; i < b.length; i++) b[i] = p[i] - b[i]; return b; };
  const hp = high(plane), hb = high(base), hf = high(fine);
  let a = 0, b = 0, c = 0, e = 0;
  for (let i = 0; i < hp.length; i++) {
    const m = keep.where[i];
    if (m <= 0) continue;
    a += m * hb[i] * hb[i]; b += m * hb[i] * hf[i]; c += m * hf[i] * hf[i]; e += m * hp[i] * hp[i];
  }
  const target = keep.energy * e;
  const at = (t: number) => a + 2 * b * t + c * t * t;
  if (c <= 0 || at(texture) >= target) return texture;
  if (at(1) <= target) return 1;
  return Math.min(1, Math.max(texture, (-b + Math.sqrt(Math.max(0, b * b - c * (a - target)))) / c));
}

/**
 * Smooths interleaved 8-bit pixels (`ch` channels, w x h) in place: each colour channel through
 * smoothPlane, then blended in by `mask` x `strength` (0..1). Only the mask's bounding box is filtered,
 * grown by the filters' reach (2r for the guided filter's two window means, 3 box radii for the pore band),
 * so pixels the mask covers see the same neighbourhood as over the whole plane. `keep` is weighed once, on
 * the luma of the three channels' bands (the texture a viewer sees, and what quality:retouch measures),
 * and the one share applies to all three: a third of the cost of weighing each, and no channel's grain
 * comes back more than another's.
 */
export function smoothMasked(rgb: Uint8Array | Buffer, ch: number, w: number, h: number, mask: Float32Array, o: SmoothOptions, strength: number): void {
  if (strength <= 0) return;
  let x0 = w, y0 = h, x1 = -1, y1 = -1;
  for (let y = 0; y < h; y++) {
    for (let x = 0, i = y * w; x < w; x++, i++) {
      if (mask[i] > 0) { if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; y1 = y; }
    }
  }
  if (x1 < 0) return;
  const m = 2 * Math.max(1, Math.round(o.radius)) + 3 * Math.ceil(o.poreSigma) + 2;
  x0 = Math.max(0, x0 - m); y0 = Math.max(0, y0 - m); x1 = Math.min(w, x1 + 1 + m); y1 = Math.min(h, y1 + 1 + m);
  const bw = x1 - x0, bh = y1 - y0, n = bw * bh;
  const planes: Float32Array[] = [], bands: SmoothBands[] = [];
  for (let c = 0; c < 3; c++) {
    const plane = new Float32Array(n);
    for (let y = 0; y < bh; y++) for (let x = 0, i = y * bw, j = ((y0 + y) * w + x0) * ch + c; x < bw; x++, i++, j += ch) plane[i] = rgb[j] / 255;
    planes.push(plane);
    bands.push(smoothBands(plane, bw, bh, o));
  }
  let t = o.texture;
  if (o.keep && bands.every((b) => b.fine)) {
    // The weights over the box, as the bands see it; and `keep` is for the result blended in at
    // `strength`: the smoothed plane's high band, amplitude a, comes out as (1 - strength) + strength x a
    // of the original's, so a weaker blend asks less of it (often nothing beyond `texture`).
    const where = new Float32Array(n);
    for (let y = 0; y < bh; y++) where.set(o.keep.where.subarray((y0 + y) * w + x0, (y0 + y) * w + x1), y * bw);
    const k = Math.min(1, strength), amp = (Math.sqrt(o.keep.energy) - (1 - k)) / k;
    const luma = (p: (c: number) => Float32Array) => {
      const r = p(0), g = p(1), b = p(2), out = new Float32Array(n);
      for (let i = 0; i < n; i++) out[i] = 0.299 * r[i] + 0.587 * g[i] + 0.114 * b[i];
      return out;
    };
    t = textureFor(luma((c) => planes[c]), luma((c) => bands[c].base), luma((c) => bands[c].fine!), bw, bh, o.texture,
      { ...o.keep, energy: amp > 0 ? amp * amp : 0, where });
  }
  for (let c = 0; c < 3; c++) {
    const plane = planes[c], { base, fine } = bands[c];
    for (let y = 0; y < bh; y++) {
      for (let x = 0, i = y * bw, q = (y0 + y) * w + x0; x < bw; x++, i++, q++) {
        const k = mask[q] * strength;
        if (k <= 0) continue;
        const s = fine ? base[i] + t * fine[i] : base[i];
        const v = 255 * (plane[i] + k * (s - plane[i])) + 0.5;
        rgb[q * ch + c] = v <= 0 ? 0 : v >= 255 ? 255 : v;
      }
    }
  }
}
