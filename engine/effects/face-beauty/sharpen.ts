/**
 * Unsharp masking on lightness only: the luma's high band (sigma px) times `amount` is added to all three
 * channels alike, so edges gain contrast without colour fringes. A coverage mask (0..1) says where.
 */
import { splitBands } from '../../image/frequency.ts';

export function sharpenMasked(rgb: Uint8Array | Buffer, ch: number, w: number, h: number, mask: Float32Array, sigma: number, amount: number): void {
  if (amount <= 0) return;
  // The band is computed over the mask's box only, grown by the blur's reach (three box means of radius r
  // reach 3r; past 4r + 1 the box's clipped edge cannot tell it from the whole plane): the same values.
  let x0 = w, y0 = h, x1 = -1, y1 = -1;
  for (let y = 0; y < h; y++) {
    for (let x = 0, i = y * w; x < w; x++, i++) {
      if (mask[i] > 0) { if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; y1 = y; }
    }
  }
  if (x1 < 0) return;
  const r = Math.round(Math.sqrt(sigma * sigma + 0.25) - 0.5), m = 4 * r + 2;
  x0 = Math.max(0, x0 - m); y0 = Math.max(0, y0 - m); x1 = Math.min(w, x1 + 1 + m); y1 = Math.min(h, y1 + 1 + m);
  const bw = x1 - x0, bh = y1 - y0;
  const luma = new Float32Array(bw * bh), kr = 0.299 / 255, kg = 0.587 / 255, kb = 0.114 / 255;
  for (let y = 0; y < bh; y++) {
    for (let x = 0, i = y * bw, j = ((y0 + y) * w + x0) * ch; x < bw; x++, i++, j += ch) luma[i] = kr * rgb[j] + kg * rgb[j + 1] + kb * rgb[j + 2];
  }
  const { high } = splitBands(luma, bw, bh, sigma);
  for (let y = 0; y < bh; y++) {
    for (let x = 0, i = y * bw, q = (y0 + y) * w + x0; x < bw; x++, i++, q++) {
      const k = mask[q];
      if (k <= 0) continue;
      const d = 255 * amount * k * high[i], j = q * ch;
      for (let c = 0; c < 3; c++) {
        const v = rgb[j + c] + d;
        rgb[j + c] = v <= 0 ? 0 : v >= 255 ? 255 : v + 0.5;
      }
    }
  }
}
