/**
 * Unsharp masking on lightness only: the luma's high band (sigma px) times `amount` is added to all three
 * channels alike, so edges gain contrast without colour fringes. A coverage mask (0..1) says where.
 */
import { lumaPlane } from '../luma.ts';
import { splitBands } from './frequency.ts';

export function sharpenMasked(rgb: Uint8Array | Buffer, ch: number, w: number, h: number, mask: Float32Array, sigma: number, amount: number): void {
  if (amount <= 0) return;
  const { high } = splitBands(lumaPlane(rgb, w, h, ch), w, h, sigma);
  for (let i = 0, j = 0; i < w * h; i++, j += ch) {
    const k = mask[i];
    if (k <= 0) continue;
    const d = 255 * amount * k * high[i];
    for (let c = 0; c < 3; c++) {
      const v = rgb[j + c] + d;
      rgb[j + c] = v <= 0 ? 0 : v >= 255 ? 255 : v + 0.5;
    }
  }
}
