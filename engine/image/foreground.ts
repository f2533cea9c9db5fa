/**
 * Foreground colour under a soft alpha ("decontamination"): at an edge pixel the photo holds
 * I = a F + (1 - a) B, the subject's colour mixed with the old background's. Cutting it out with its
 * original colour keeps B's share, which shows as a fringe of the old background (a pink rim from a red
 * wall) on any new one. This estimates F by blur fusion (Forte and Pitié, "Approximate fast foreground
 * colour estimation", ICIP 2021): local means of the foreground and background, each weighted by its
 * alpha, then the residual of the compositing equation given to F in proportion to alpha; twice, a wide
 * window then a narrow one. Box sums make each pass linear in the pixels whatever the radius.
 * The local means are smooth, so both passes run on a grid of at most GRID_SIDE px per side (block
 * averages of the photo and its alpha); only the last fusion runs at full resolution, on the soft pixels
 * alone, with the means interpolated. A 12 Mpx photo then costs little more than a 1 Mpx one.
 */

/**
 * The largest side of the grid the local means are computed on: 512 takes a third of 1024's time for the same
 * error (docs/experiments/commodity-background-removal.md#edge-colours).
 */
export const GRID_SIDE = 512;

/** The long side, in px of the image, at which the radii below are given. */
const RADII_SIDE = 1024;

/**
 * Window radii of the two passes, in px of an image RADII_SIDE px on its long side (scaled with the image:
 * a smaller one's soft band is narrower): a wide one finds colours far from the edge, a narrow one refines them.
 */
export interface ForegroundRadii { wide: number; narrow: number }

/**
 * Unnormalised box sums of `src` (w x h) over a (2r + 1)^2 window clipped at the borders, into `dst`;
 * `tmp` is scratch of the same size.
 */
function boxSum(src: Float32Array, dst: Float32Array, tmp: Float32Array, w: number, h: number, r: number): void {
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let s = 0;
    for (let x = 0; x <= Math.min(r, w - 1); x++) s += src[row + x];
    for (let x = 0; x < w; x++) {
      tmp[row + x] = s;
      const add = x + r + 1, drop = x - r;
      if (add < w) s += src[row + add];
      if (drop >= 0) s -= src[row + drop];
    }
  }
  const col = new Float64Array(w);
  for (let y = 0; y <= Math.min(r, h - 1); y++) for (let x = 0; x < w; x++) col[x] += tmp[y * w + x];
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) dst[row + x] = col[x];
    const add = y + r + 1, drop = y - r;
    if (add < h) for (let x = 0, k = add * w; x < w; x++, k++) col[x] += tmp[k];
    if (drop >= 0) for (let x = 0, k = drop * w; x < w; x++, k++) col[x] -= tmp[k];
  }
}

/** How many pixels the clipped window around each column (or row) index covers along one axis. */
function spans(n: number, r: number): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.min(i + r, n - 1) - Math.max(i - r, 0) + 1;
  return out;
}

/**
 * One blur-fusion pass for one channel on the grid: from the current foreground `f` and background `b`
 * (planes, 0..255) and alpha `a` (0..1) with its box sums `sumA`, the alpha-weighted local means of each, into
 * `fMean` and `bMean`
 * (where a window holds no foreground, or no background, the photo's own colour stands in).
 */
function means(
  f: Float32Array, b: Float32Array, image: Float32Array, a: Float32Array, sumA: Float32Array, r: number, w: number, h: number,
  scratch: { weighted: Float32Array; tmp: Float32Array }, fMean: Float32Array, bMean: Float32Array,
): void {
  const { weighted, tmp } = scratch;
  const n = w * h;
  for (let i = 0; i < n; i++) weighted[i] = f[i] * a[i];
  boxSum(weighted, fMean, tmp, w, h, r);
  for (let i = 0; i < n; i++) weighted[i] = b[i] * (1 - a[i]);
  boxSum(weighted, bMean, tmp, w, h, r);
  const cols = spans(w, r), rows = spans(h, r);
  for (let y = 0, i = 0; y < h; y++) for (let x = 0; x < w; x++, i++) {
    const sa = sumA[i], sb = cols[x] * rows[y] - sa;
    fMean[i] = sa > 1e-4 ? fMean[i] / sa : image[i];
    bMean[i] = sb > 1e-4 ? bMean[i] / sb : image[i];
  }
}

/** One channel of interleaved pixels as a float plane. */
function plane(data: Uint8Array, channels: number, c: number): Float32Array {
  const out = new Float32Array(data.length / channels);
  for (let i = 0, j = c; i < out.length; i++, j += channels) out[i] = data[j];
  return out;
}

/** Alpha as 0..1 floats. */
function alphaPlane(alpha: Uint8Array): Float32Array {
  const out = new Float32Array(alpha.length);
  for (let i = 0; i < alpha.length; i++) out[i] = alpha[i] / 255;
  return out;
}

/** The fused foreground from a pixel's colour `v`, alpha `a` and the local means: F + a * residual, in 0..255. */
function fuse(v: number, a: number, fm: number, bm: number): number {
  const f = fm + a * (v - a * fm - (1 - a) * bm);
  return f < 0 ? 0 : f > 255 ? 255 : f;
}

/**
 * Block averages over s x s blocks (partial at the far borders) of the plane `src[i * stride + offset] / div`
 * (w x h pixels). Plain loops: a per-pixel callback here cost more than the rest of the estimate.
 */
function shrink(src: Uint8Array, stride: number, offset: number, div: number, w: number, h: number, s: number, gw: number, gh: number): Float32Array {
  const sum = new Float32Array(gw * gh), count = new Float32Array(gw * gh);
  const block = new Int32Array(w);
  for (let x = 0; x < w; x++) block[x] = (x / s) | 0;
  for (let y = 0; y < h; y++) {
    const gy = ((y / s) | 0) * gw;
    for (let x = 0, j = y * w * stride + offset; x < w; x++, j += stride) {
      const g = gy + block[x];
      sum[g] += src[j] / div;
      count[g]++;
    }
  }
  for (let g = 0; g < sum.length; g++) sum[g] /= count[g];
  return sum;
}

/**
 * The photo with the colour of every partly transparent pixel (0 < alpha < 255) replaced by the estimated
 * foreground colour; opaque and fully transparent pixels, and an alpha channel, are copied as they are.
 * `data`: interleaved 8-bit pixels with `channels` (3 or 4) per pixel; `alpha`: one byte per pixel.
 */
export function decontaminate(
  data: Uint8Array, width: number, height: number, channels: number, alpha: Uint8Array, radii: ForegroundRadii,
): Buffer {
  return decontaminator(data, width, height, channels, radii)(alpha);
}

/**
 * decontaminate for several alphas over the same photo (one cutout per garment): the photo's planes on the
 * grid are made once, at the first alpha with a soft edge, and each alpha's result is decontaminate's.
 */
export function decontaminator(
  data: Uint8Array, width: number, height: number, channels: number, radii: ForegroundRadii,
): (alpha: Uint8Array) => Buffer {
  const n = width * height;
  const s = Math.ceil(Math.max(width, height) / GRID_SIDE);
  const gw = Math.ceil(width / s), gh = Math.ceil(height / s);
  let images: Float32Array[] | undefined;
  return (alpha) => {
    if (alpha.length !== n || data.length !== n * channels) throw new Error(`decontaminate: ${width}x${height}x${channels} pixels, ${data.length} bytes and ${alpha.length} alpha values`);
    return estimate(data, width, height, channels, alpha, radii, () => (images ??= [0, 1, 2].map((c) => (s === 1 ? plane(data, channels, c) : shrink(data, channels, c, 1, width, height, s, gw, gh)))));
  };
}

function estimate(
  data: Uint8Array, width: number, height: number, channels: number, alpha: Uint8Array, radii: ForegroundRadii, photoPlanes: () => Float32Array[],
): Buffer {
  const n = width * height;
  const result = Buffer.allocUnsafe(data.length);
  result.set(data);
  let soft = 0;
  for (let i = 0; i < n; i++) if (alpha[i] > 0 && alpha[i] < 255) soft++;
  if (soft === 0) return result;

  const s = Math.ceil(Math.max(width, height) / GRID_SIDE);
  const gw = Math.ceil(width / s), gh = Math.ceil(height / s), gn = gw * gh;
  const k = Math.max(width, height) / RADII_SIDE / s;
  const wide = Math.max(1, Math.round(radii.wide * k)), narrow = Math.max(1, Math.round(radii.narrow * k));
  // Typed-array loops throughout: Float32Array.from with a mapping function took 140 ms for 240,000 pixels.
  const a = s === 1 ? alphaPlane(alpha) : shrink(alpha, 1, 0, 255, width, height, s, gw, gh);
  const scratch = { weighted: new Float32Array(gn), tmp: new Float32Array(gn) };
  const wideA = new Float32Array(gn), narrowA = new Float32Array(gn);
  boxSum(a, wideA, scratch.tmp, gw, gh, wide);
  boxSum(a, narrowA, scratch.tmp, gw, gh, narrow);
  const f1 = new Float32Array(gn), b1 = new Float32Array(gn);
  const fMean = [0, 1, 2].map(() => new Float32Array(gn)), bMean = [0, 1, 2].map(() => new Float32Array(gn));
  const images = photoPlanes();
  for (let c = 0; c < 3; c++) {
    const image = images[c];
    means(image, image, image, a, wideA, wide, gw, gh, scratch, f1, b1);
    for (let i = 0; i < gn; i++) f1[i] = fuse(image[i], a[i], f1[i], b1[i]);
    means(f1, b1, image, a, narrowA, narrow, gw, gh, scratch, fMean[c], bMean[c]);
  }

  // The last fusion at full resolution, the grid's means interpolated bilinearly between block centres
  // (each column's place on the grid worked out once, not at every soft pixel of it).
  const cx0 = new Int32Array(width), cx1 = new Int32Array(width), ctx = new Float64Array(width);
  for (let x = 0; x < width; x++) {
    const gx = Math.min(Math.max((x + 0.5) / s - 0.5, 0), gw - 1), x0 = Math.floor(gx);
    cx0[x] = x0; cx1[x] = Math.min(x0 + 1, gw - 1); ctx[x] = gx - x0;
  }
  for (let y = 0; y < height; y++) {
    const gy = Math.min(Math.max((y + 0.5) / s - 0.5, 0), gh - 1), y0 = Math.floor(gy), y1 = Math.min(y0 + 1, gh - 1), ty = gy - y0;
    for (let x = 0, i = y * width; x < width; x++, i++) {
      const av = alpha[i];
      if (av === 0 || av === 255) continue;
      const x0 = cx0[x], x1 = cx1[x], tx = ctx[x];
      const k00 = y0 * gw + x0, k01 = y0 * gw + x1, k10 = y1 * gw + x0, k11 = y1 * gw + x1;
      const w00 = (1 - tx) * (1 - ty), w01 = tx * (1 - ty), w10 = (1 - tx) * ty, w11 = tx * ty;
      for (let c = 0; c < 3; c++) {
        const fm = fMean[c], bm = bMean[c];
        const f = w00 * fm[k00] + w01 * fm[k01] + w10 * fm[k10] + w11 * fm[k11];
        const b = w00 * bm[k00] + w01 * bm[k01] + w10 * bm[k10] + w11 * bm[k11];
        result[i * channels + c] = Math.round(fuse(data[i * channels + c], av / 255, f, b));
      }
    }
  }
  return result;
}
