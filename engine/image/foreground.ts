/**
 * Foreground colour under a soft alpha ("decontamination"): at an edge pixel the photo holds
 * I = a F + (1 - a) B, the subject's colour mixed with the old background's. Cutting it out with its
 * original colour keeps B's share, which shows as a fringe of the old background (a pink rim from a red
 * wall) on any new one. This estimates F by blur fusion (Forte and Pitié, "Approximate fast foreground
 * colour estimation", ICIP 2021): local means of the foreground and background, each weighted by its
 * alpha, then the residual of the compositing equation given to F in proportion to alpha; twice, a wide
 * window then a narrow one. Box sums make each pass linear in the pixels whatever the radius.
 */

/** Window radii (px) of the two passes: a wide one finds colours far from the edge, a narrow one refines them. */
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
 * One blur-fusion pass for one channel: from the current foreground `f` and background `b` (planes, 0..255)
 * and alpha `a` (0..1), writes the next foreground into `fOut` and, when given, the background's local mean
 * into `bOut` (the paper's second pass starts from that mean, not from a corrected background).
 */
function pass(
  f: Float32Array, b: Float32Array, image: Float32Array, a: Float32Array, sumA: Float32Array, count: Float32Array,
  scratch: { weighted: Float32Array; sumF: Float32Array; sumB: Float32Array; tmp: Float32Array },
  w: number, h: number, r: number, fOut: Float32Array, bOut?: Float32Array,
): void {
  const { weighted, sumF, sumB, tmp } = scratch;
  const n = w * h;
  for (let i = 0; i < n; i++) weighted[i] = f[i] * a[i];
  boxSum(weighted, sumF, tmp, w, h, r);
  for (let i = 0; i < n; i++) weighted[i] = b[i] * (1 - a[i]);
  boxSum(weighted, sumB, tmp, w, h, r);
  for (let i = 0; i < n; i++) {
    const ai = a[i], sa = sumA[i], sb = count[i] - sa;
    // No foreground (background) in the window: the photo's own colour stands in for the mean.
    const fm = sa > 1e-4 ? sumF[i] / sa : image[i];
    const bm = sb > 1e-4 ? sumB[i] / sb : image[i];
    const residual = image[i] - ai * fm - (1 - ai) * bm;
    const fi = fm + ai * residual;
    fOut[i] = fi < 0 ? 0 : fi > 255 ? 255 : fi;
    if (bOut) bOut[i] = bm;
  }
}

/**
 * The photo with the colour of every partly transparent pixel (0 < alpha < 255) replaced by the estimated
 * foreground colour; opaque and fully transparent pixels, and an alpha channel, are copied as they are.
 * `data`: interleaved 8-bit pixels with `channels` (3 or 4) per pixel; `alpha`: one byte per pixel.
 */
export function decontaminate(
  data: Uint8Array, width: number, height: number, channels: number, alpha: Uint8Array, radii: ForegroundRadii,
): Buffer {
  const n = width * height;
  if (alpha.length !== n || data.length !== n * channels) throw new Error(`decontaminate: ${width}x${height}x${channels} pixels, ${data.length} bytes and ${alpha.length} alpha values`);
  const result = Buffer.allocUnsafe(data.length);
  result.set(data);
  let soft = 0;
  for (let i = 0; i < n; i++) if (alpha[i] > 0 && alpha[i] < 255) soft++;
  if (soft === 0) return result;

  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = alpha[i] / 255;
  const sumAt = (r: number) => {
    const cs = spans(width, r), rs = spans(height, r);
    const count = new Float32Array(n);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) count[y * width + x] = cs[x] * rs[y];
    const sumA = new Float32Array(n);
    boxSum(a, sumA, new Float32Array(n), width, height, r);
    return { sumA, count };
  };
  const wide = sumAt(radii.wide), narrow = sumAt(radii.narrow);
  const scratch = { weighted: new Float32Array(n), sumF: new Float32Array(n), sumB: new Float32Array(n), tmp: new Float32Array(n) };
  const image = new Float32Array(n), f1 = new Float32Array(n), b1 = new Float32Array(n), f2 = new Float32Array(n);

  // Channel by channel, so only a handful of float planes are alive at once, whatever the photo's size.
  for (let c = 0; c < 3; c++) {
    for (let i = 0, j = c; i < n; i++, j += channels) image[i] = data[j];
    pass(image, image, image, a, wide.sumA, wide.count, scratch, width, height, radii.wide, f1, b1);
    pass(f1, b1, image, a, narrow.sumA, narrow.count, scratch, width, height, radii.narrow, f2);
    for (let i = 0, j = c; i < n; i++, j += channels) if (alpha[i] > 0 && alpha[i] < 255) result[j] = Math.round(f2[i]);
  }
  return result;
}
