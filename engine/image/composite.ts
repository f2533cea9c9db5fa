/** Compositing a matted subject over a flat colour. */

/** RGB result of the image's RGB over white, weighted by `alpha` (0 = white, 255 = the pixel). */
export function overWhite(data: Uint8Array, channels: number, alpha: Uint8Array): Buffer {
  const n = alpha.length;
  const out = Buffer.allocUnsafe(n * 3);
  for (let i = 0, j = 0, k = 0; i < n; i++, j += channels, k += 3) {
    const a = alpha[i], w = 255 * (255 - a) + 127;
    out[k] = (data[j] * a + w) / 255;
    out[k + 1] = (data[j + 1] * a + w) / 255;
    out[k + 2] = (data[j + 2] * a + w) / 255;
  }
  return out;
}
