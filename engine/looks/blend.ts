/**
 * Blending a layer into an image through a soft mask, in linear light: mixing in gamma-encoded sRGB darkens
 * the half-covered edge of a mask and makes screen or soft light too strong in the shadows.
 */
import { LINEAR, toByte } from '../image/colour.ts';
import type { Pixels } from '../image/raster.ts';
import type { Rect } from '../image/rect.ts';

export type BlendMode = 'normal' | 'screen' | 'multiply' | 'soft-light';

/** The mode's result for one channel, base b and layer s in linear light 0..1 (W3C compositing formulas). */
export function blendChannel(mode: BlendMode, b: number, s: number): number {
  switch (mode) {
    case 'normal': return s;
    case 'screen': return b + s - b * s;
    case 'multiply': return b * s;
    case 'soft-light': {
      if (s <= 0.5) return b - (1 - 2 * s) * b * (1 - b);
      const d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : Math.sqrt(b);
      return b + (2 * s - 1) * (d - b);
    }
  }
}

/**
 * Blends `layer` into `base` over `area`, pixel by pixel weighted by `mask` (0..1 over the area) times
 * `opacity`. The layer is either pixels the size of the area or one 8-bit sRGB colour. Pixels whose weight
 * is 0 are not touched at all (not even re-encoded), so nothing outside the mask changes.
 */
export function blend(base: Pixels, layer: Pixels | readonly [number, number, number], mask: Float32Array, area: Rect, opacity = 1, mode: BlendMode = 'normal'): void {
  const ch = base.channels;
  const flat = !('data' in layer);
  const lc = flat ? 0 : layer.channels;
  const colour = flat ? [LINEAR[layer[0]], LINEAR[layer[1]], LINEAR[layer[2]]] : [0, 0, 0];
  for (let y = 0; y < area.h; y++) {
    let j = ((area.y0 + y) * base.width + area.x0) * ch;
    for (let x = 0, i = y * area.w; x < area.w; x++, i++, j += ch) {
      const w = mask[i] * opacity;
      if (!(w > 0)) continue;
      for (let c = 0; c < 3; c++) {
        const b = LINEAR[base.data[j + c]];
        const s = flat ? colour[c] : LINEAR[(layer as Pixels).data[i * lc + c]];
        base.data[j + c] = toByte(b + (blendChannel(mode, b, s) - b) * Math.min(1, w));
      }
    }
  }
}
