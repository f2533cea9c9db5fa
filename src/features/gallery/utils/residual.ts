/**
 * Residual upsampling: an in-place edit made on a fitted copy, carried over to the original photo. What the
 * engine changed (its result minus the copy it was sent) is enlarged to the original's size and added to it,
 * so the original keeps its own detail and every pixel the edit did not touch stays as it was.
 * Pure functions on RGBA arrays: the studio runs them in the browser, scripts/quality/full-size.ts in Node.
 */
import type { Pixels } from '../../cutout-editor/utils/mask-ops.ts';

export interface ResidualOptions {
  /**
   * Edge-aware enlargement (joint bilateral, Kopf et al. 2007): each of the four nearest copy pixels counts
   * less the more its colour differs from the original pixel's, so a change stops at the original's edges
   * (a lip colour does not bleed onto the skin). The colour distance (0..255 scale) at which a neighbour's
   * weight falls to about 0.6; 0: plain bilinear.
   */
  sigma?: number;
}

export const RESIDUAL_DEFAULTS: Required<ResidualOptions> = { sigma: 24 };

/** The change per copy pixel (3 channels, result minus copy). */
function changeOf(sent: Pixels, result: Pixels): Float32Array {
  const n = sent.width * sent.height;
  const change = new Float32Array(n * 3);
  for (let i = 0, j = 0; i < n; i++, j += 4) {
    change[i * 3] = result.data[j] - sent.data[j];
    change[i * 3 + 1] = result.data[j + 1] - sent.data[j + 1];
    change[i * 3 + 2] = result.data[j + 2] - sent.data[j + 2];
  }
  return change;
}

/**
 * The original with the engine's change added: `sent` is the copy the engine was given and `result` its answer
 * (both the copy's size), `original` the photo at its own size. Alpha is the original's.
 */
export function addResidual(original: Pixels, sent: Pixels, result: Pixels, options: ResidualOptions = {}): Uint8ClampedArray<ArrayBuffer> {
  const { sigma } = { ...RESIDUAL_DEFAULTS, ...options };
  if (sent.width !== result.width || sent.height !== result.height) throw new Error('The result is not the size of the copy sent.');
  const { width: W, height: H } = original;
  const { width: w, height: h } = sent;
  const change = changeOf(sent, result);
  const out = new Uint8ClampedArray(W * H * 4);
  const o = original.data, s = sent.data;
  // exp(-d²/2σ²) looked up by d²/16 rather than computed 4 times a pixel.
  const table = sigma > 0 ? Float32Array.from({ length: Math.floor((3 * 255 * 255) / 16) + 2 }, (_, k) => Math.exp((-k * 16) / (2 * sigma * sigma))) : undefined;
  const kx = w / W, ky = h / H;
  const x0s = new Int32Array(W), fxs = new Float32Array(W);
  for (let x = 0; x < W; x++) {
    const sx = Math.min(w - 1, Math.max(0, (x + 0.5) * kx - 0.5));
    x0s[x] = Math.floor(sx);
    fxs[x] = sx - x0s[x];
  }
  const idx = [0, 0, 0, 0], wt = [0, 0, 0, 0];
  for (let y = 0; y < H; y++) {
    const sy = Math.min(h - 1, Math.max(0, (y + 0.5) * ky - 0.5));
    const y0 = Math.floor(sy), y1 = Math.min(h - 1, y0 + 1), fy = sy - y0;
    for (let x = 0; x < W; x++) {
      const x0 = x0s[x], x1 = Math.min(w - 1, x0 + 1), fx = fxs[x];
      idx[0] = y0 * w + x0;
      idx[1] = y0 * w + x1;
      idx[2] = y1 * w + x0;
      idx[3] = y1 * w + x1;
      wt[0] = (1 - fx) * (1 - fy);
      wt[1] = fx * (1 - fy);
      wt[2] = (1 - fx) * fy;
      wt[3] = fx * fy;
      const j = (y * W + x) * 4;
      const or = o[j], og = o[j + 1], ob = o[j + 2];
      let sum = 0;
      if (table) {
        for (let k = 0; k < 4; k++) {
          const q = idx[k] * 4;
          const dr = or - s[q], dg = og - s[q + 1], db = ob - s[q + 2];
          wt[k] *= table[((dr * dr + dg * dg + db * db) >> 4)];
          sum += wt[k];
        }
        // No neighbour like this pixel (a detail finer than the copy): plain bilinear.
        if (sum < 1e-6) {
          wt[0] = (1 - fx) * (1 - fy);
          wt[1] = fx * (1 - fy);
          wt[2] = (1 - fx) * fy;
          wt[3] = fx * fy;
          sum = 1;
        }
      } else sum = 1;
      let r = 0, g = 0, b = 0;
      for (let k = 0; k < 4; k++) {
        const c = idx[k] * 3;
        r += wt[k] * change[c];
        g += wt[k] * change[c + 1];
        b += wt[k] * change[c + 2];
      }
      out[j] = or + r / sum;
      out[j + 1] = og + g / sum;
      out[j + 2] = ob + b / sum;
      out[j + 3] = o[j + 3];
    }
  }
  return out;
}

/**
 * Smart crop's window on the original: retain_location (copy pixels) scaled by the original's size over the
 * copy's, rounded inside the photo.
 */
export function windowOnOriginal(loc: { x: number; y: number; width: number; height: number }, sent: { width: number; height: number }, original: { width: number; height: number }) {
  const kx = original.width / sent.width, ky = original.height / sent.height;
  const x = Math.max(0, Math.round(loc.x * kx)), y = Math.max(0, Math.round(loc.y * ky));
  const width = Math.max(1, Math.min(original.width - x, Math.round(loc.width * kx)));
  const height = Math.max(1, Math.min(original.height - y, Math.round(loc.height * ky)));
  return { x, y, width, height };
}
