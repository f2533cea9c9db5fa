/**
 * Edge-aware skin smoothing with texture restored: each channel through a self-guided filter (He et al.:
 * variations below about sqrt(eps) are flattened, edges above it kept, so blotches and small blemishes go
 * while the jaw, nostrils and lashes stay), then the pore-scale band of the original added back in part,
 * so the skin keeps a real surface and never looks airbrushed. Planes are Float32Array in [0, 1].
 */
import { guidedFilter } from '../guided-filter.ts';
import { splitBands } from './frequency.ts';

export interface SmoothOptions {
  /** Guided filter radius in pixels: the largest feature size that gets flattened. */
  radius: number;
  /** Guided filter eps (on 0..1 values): contrasts below about sqrt(eps) count as texture, not edges. */
  eps: number;
  /** Pore scale: sigma in pixels of the finest band, which is restored. */
  poreSigma: number;
  /** How much of the finest band comes back (0 = none, 1 = all of it). */
  texture: number;
}

/**
 * The smoothed plane: guided(self), with `texture` of its pore band swapped back for the original's
 * (out = g + texture x (fine(plane) - fine(g))), so what the filter kept is not added twice.
 */
export function smoothPlane(plane: Float32Array, w: number, h: number, o: SmoothOptions): Float32Array {
  const flat = guidedFilter(plane, plane, w, h, Math.max(1, Math.round(o.radius)), o.eps);
  if (o.texture > 0) {
    const before = splitBands(plane, w, h, o.poreSigma).high, after = splitBands(flat, w, h, o.poreSigma).high;
    for (let i = 0; i < flat.length; i++) flat[i] += o.texture * (before[i] - after[i]);
  }
  return flat;
}

/**
 * Smooths interleaved 8-bit pixels (`ch` channels, w x h) in place: each colour channel through
 * smoothPlane, then blended in by `mask` x `strength` (0..1).
 */
export function smoothMasked(rgb: Uint8Array | Buffer, ch: number, w: number, h: number, mask: Float32Array, o: SmoothOptions, strength: number): void {
  if (strength <= 0) return;
  const n = w * h;
  const plane = new Float32Array(n);
  for (let c = 0; c < 3; c++) {
    for (let i = 0; i < n; i++) plane[i] = rgb[i * ch + c] / 255;
    const s = smoothPlane(plane, w, h, o);
    for (let i = 0; i < n; i++) {
      const k = mask[i] * strength;
      if (k <= 0) continue;
      const v = 255 * (plane[i] + k * (s[i] - plane[i])) + 0.5;
      rgb[i * ch + c] = v <= 0 ? 0 : v >= 255 ? 255 : v;
    }
  }
}
