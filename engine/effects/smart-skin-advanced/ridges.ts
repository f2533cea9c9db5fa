/**
 * Fine lines: dark valleys of a lightness plane found with the Hessian at one scale (a valley curves up
 * strongly across it and hardly along it; a pore or a freckle curves up both ways, an edge hardly at all),
 * and the depth of each line, so a wrinkle can be filled part way, softened rather than erased.
 */
import { blurPlane } from '../../image/frequency.ts';

/**
 * 0..1 per pixel: how much a dark line of width about 2 x sigma passes there. `contrast` is the
 * curvature (plane units per pixel², after the blur) that counts as a full line.
 */
export function valleyness(plane: Float32Array, w: number, h: number, sigma: number, contrast: number): Float32Array {
  const g = blurPlane(plane, w, h, sigma);
  const out = new Float32Array(w * h);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1, i = y * w + 1; x < w - 1; x++, i++) {
      const xx = g[i - 1] - 2 * g[i] + g[i + 1], yy = g[i - w] - 2 * g[i] + g[i + w];
      const xy = (g[i - w - 1] + g[i + w + 1] - g[i - w + 1] - g[i + w - 1]) / 4;
      const m = (xx + yy) / 2, d = Math.sqrt(((xx - yy) / 2) ** 2 + xy * xy);
      const across = m + d, along = m - d;
      if (across <= 0) continue;
      // Line-like: the curvature along the line is small next to the one across it (Frangi's blobness).
      const ratio = Math.abs(along) / across;
      const v = Math.min(1, (sigma * sigma * across) / contrast) * Math.exp(-(ratio * ratio) / 0.18);
      out[i] = v;
    }
  }
  return out;
}

/**
 * How much darker each pixel is than its surroundings at line scale: blur(plane, 3 sigma) - blur(plane,
 * sigma / 2), clipped at 0. Adding `k` times it (where valleyness says) fills lines by the fraction k.
 */
export function valleyDepth(plane: Float32Array, w: number, h: number, sigma: number): Float32Array {
  const wide = blurPlane(plane, w, h, 3 * sigma), fine = blurPlane(plane, w, h, sigma / 2);
  const out = new Float32Array(w * h);
  for (let i = 0; i < out.length; i++) out[i] = Math.max(0, wide[i] - fine[i]);
  return out;
}
