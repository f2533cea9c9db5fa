/**
 * The guided filter (He, Sun, Tang 2010/2013) with a grey guide: an edge-aware smoothing whose output is
 * locally a linear function of the guide, so a soft or upscaled matte takes its edges from the photo.
 * The fast variant (He & Sun 2015) computes the linear coefficients on a small grid and applies them at
 * full resolution, which keeps the cost of big images to one multiply-add per pixel.
 * Planes are Float32Array, row-major, values in [0, 1].
 */

/**
 * 1 / (pixels of a (2r+1) window centred at i that fall inside [0, n)), for every i. Kept by (n, r): a
 * retouch asks for the same few (its window's sides at a handful of radii) a hundred times and more, and
 * the tables were 1 % of its CPU in allocation and division. Read only; the cache is emptied past 64 tables.
 */
const invCache = new Map<number, Float32Array>();
function inverseCounts(n: number, r: number): Float32Array {
  const key = n * 2 ** 21 + Math.min(r, 2 ** 21 - 1);
  let inv = invCache.get(key);
  if (inv) return inv;
  inv = new Float32Array(n);
  for (let i = 0; i < n; i++) inv[i] = 1 / (Math.min(i + r, n - 1) - Math.max(i - r, 0) + 1);
  if (invCache.size >= 64) invCache.clear();
  invCache.set(key, inv);
  return inv;
}

/**
 * The horizontal pass's plane, kept between calls (a retouch runs a hundred box means on one face's window:
 * a fresh plane each time cost more in allocation and collection than the pass itself). A worker runs one
 * kernel at a time, so one buffer is enough; it is never handed out.
 */
let tmpPlane = new Float32Array(0);
function scratch(n: number): Float32Array {
  if (tmpPlane.length < n) tmpPlane = new Float32Array(Math.max(n, Math.ceil(tmpPlane.length * 1.25)));
  return tmpPlane;
}

/**
 * Mean over the (2r+1)^2 window, clipped at the borders (divided by the pixels actually inside). O(N).
 * The running sums are split into their head, middle and tail so the inner loops have no branches, and the
 * vertical pass writes a row and moves its column sums in one sweep; the additions happen in the same order
 * as a plain sliding window's, so the result is the same to the bit (0.74 of the time of the branchy loops on a 600 x 600 plane, r 3).
 * The horizontal middle runs two rows at once: a row's sum is one chain of dependent additions (two a
 * pixel), and two independent chains keep the FPU busy; the vertical pass reads whole-row views. Both
 * change no addition, and together they cut the CPU of a 470 x 475 plane from 5.7 to 4.6 ns a pixel
 * (2.2 against 3.1 for the horizontal pass, 2.5 against 2.7 for the vertical; minima of 8, load 7-8).
 */
export function boxMean(src: Float32Array, w: number, h: number, r: number, out: Float32Array = new Float32Array(w * h)): Float32Array {
  const tmp = scratch(w * h);
  const invX = inverseCounts(w, r);
  // x < ra: the sum only gains a pixel; ra <= x < rb: gains and loses one; from rb: only loses.
  const ra = Math.min(r, Math.max(0, w - r - 1)), rb = Math.max(ra, w - r - 1);
  const head = (row: number): number => {
    let s = 0;
    for (let x = 0; x <= Math.min(r, w - 1); x++) s += src[row + x];
    for (let x = 0; x < ra; x++) { tmp[row + x] = s * invX[x]; s += src[row + x + r + 1]; }
    return s;
  };
  const tail = (row: number, s: number): void => {
    for (let x = rb; x < w; x++) { tmp[row + x] = s * invX[x]; if (x + r + 1 < w) s += src[row + x + r + 1]; if (x - r >= 0) s -= src[row + x - r]; }
  };
  let y = 0;
  for (; y + 2 <= h; y += 2) {
    const r0 = y * w, r1 = r0 + w;
    let s0 = head(r0), s1 = head(r1);
    for (let x = ra; x < rb; x++) {
      const iv = invX[x], p = x + r + 1, m = x - r;
      tmp[r0 + x] = s0 * iv; s0 += src[r0 + p]; s0 -= src[r0 + m];
      tmp[r1 + x] = s1 * iv; s1 += src[r1 + p]; s1 -= src[r1 + m];
    }
    tail(r0, s0); tail(r1, s1);
  }
  if (y < h) {
    const row = y * w;
    let s = head(row);
    for (let x = ra; x < rb; x++) { tmp[row + x] = s * invX[x]; s += src[row + x + r + 1]; s -= src[row + x - r]; }
    tail(row, s);
  }
  // Vertical pass over whole rows at a time, so memory is read in order.
  const invY = inverseCounts(h, r);
  const col = new Float64Array(w);
  for (let y = 0; y <= Math.min(r, h - 1); y++) for (let x = 0, o = y * w; x < w; x++) col[x] += tmp[o + x];
  for (let y = 0; y < h; y++) {
    const inv = invY[y], add = y + r + 1 < h, sub = y - r >= 0;
    const O = out.subarray(y * w, y * w + w);
    const A = add ? tmp.subarray((y + r + 1) * w, (y + r + 2) * w) : O, B = sub ? tmp.subarray((y - r) * w, (y - r + 1) * w) : O;
    if (add && sub) for (let x = 0; x < w; x++) { const c = col[x]; O[x] = c * inv; col[x] = c + A[x] - B[x]; }
    else if (add) for (let x = 0; x < w; x++) { const c = col[x]; O[x] = c * inv; col[x] = c + A[x]; }
    else if (sub) for (let x = 0; x < w; x++) { const c = col[x]; O[x] = c * inv; col[x] = c - B[x]; }
    else for (let x = 0; x < w; x++) O[x] = col[x] * inv;
  }
  return out;
}

/** The window-averaged coefficients A, B with q = A * I + B. */
export interface GuidedCoefficients { a: Float32Array; b: Float32Array; width: number; height: number }

/**
 * Solves, in every (2r+1)^2 window, p ~ a * I + b by ridge regression (eps damps a where the guide is
 * flat, which is where the output falls back to the local mean of p), then averages a and b over windows.
 */
export function guidedCoefficients(guide: Float32Array, p: Float32Array, w: number, h: number, r: number, eps: number): GuidedCoefficients {
  const n = w * h;
  const ii = new Float32Array(n);
  const ip = new Float32Array(n);
  for (let i = 0; i < n; i++) { ii[i] = guide[i] * guide[i]; ip[i] = guide[i] * p[i]; }
  const mI = boxMean(guide, w, h, r);
  const mP = boxMean(p, w, h, r);
  const mII = boxMean(ii, w, h, r, ii);
  const mIP = boxMean(ip, w, h, r, ip);
  const a = mII; // reuse: the correlations are not needed once a and b are known
  const b = mIP;
  for (let i = 0; i < n; i++) {
    const varI = mII[i] - mI[i] * mI[i];
    const cov = mIP[i] - mI[i] * mP[i];
    const ai = cov / (varI + eps);
    a[i] = ai;
    b[i] = mP[i] - ai * mI[i];
  }
  return { a: boxMean(a, w, h, r, mI), b: boxMean(b, w, h, r, mP), width: w, height: h };
}

/** q = A * I + B at the guide's own resolution. */
export function guidedFilter(guide: Float32Array, p: Float32Array, w: number, h: number, r: number, eps: number): Float32Array {
  const { a, b } = guidedCoefficients(guide, p, w, h, r, eps);
  const q = new Float32Array(w * h);
  for (let i = 0; i < q.length; i++) q[i] = a[i] * guide[i] + b[i];
  return q;
}

/**
 * The fast guided filter's last step: A and B upsampled bilinearly (pixel centres aligned, as sharp's
 * `fit: 'fill'` resize does) from their grid to the full-resolution guide, and q = A * I + B written as
 * 8-bit (0..255, clamped). Fused into one pass so a 2000x2000 image costs no extra full-size planes.
 */
export function applyCoefficients(coef: GuidedCoefficients, guide: Float32Array, w: number, h: number): Uint8Array {
  const { a, b, width: cw, height: ch } = coef;
  const x0 = new Int32Array(w);
  const fx = new Float32Array(w);
  for (let x = 0; x < w; x++) {
    const sx = Math.min(Math.max((x + 0.5) * (cw / w) - 0.5, 0), cw - 1);
    x0[x] = Math.min(Math.floor(sx), cw - 2 < 0 ? 0 : cw - 2);
    fx[x] = cw === 1 ? 0 : sx - x0[x];
  }
  const rowA = new Float32Array(cw);
  const rowB = new Float32Array(cw);
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const sy = Math.min(Math.max((y + 0.5) * (ch / h) - 0.5, 0), ch - 1);
    const y0 = Math.min(Math.floor(sy), ch - 2 < 0 ? 0 : ch - 2);
    const fy = ch === 1 ? 0 : sy - y0;
    const o0 = y0 * cw;
    const o1 = ch === 1 ? o0 : o0 + cw;
    for (let x = 0; x < cw; x++) {
      rowA[x] = a[o0 + x] + (a[o1 + x] - a[o0 + x]) * fy;
      rowB[x] = b[o0 + x] + (b[o1 + x] - b[o0 + x]) * fy;
    }
    for (let x = 0, o = y * w; x < w; x++) {
      const i = x0[x];
      const j = cw === 1 ? i : i + 1;
      const t = fx[x];
      const A = rowA[i] + (rowA[j] - rowA[i]) * t;
      const B = rowB[i] + (rowB[j] - rowB[i]) * t;
      const q = (A * guide[o + x] + B) * 255;
      out[o + x] = q <= 0 ? 0 : q >= 255 ? 255 : q + 0.5;
    }
  }
  return out;
}

/**
 * The fast guided filter (He & Sun 2015) as a float plane: guide and input averaged over s x s blocks,
 * the coefficients solved there with radius r / s, then brought back bilinearly and applied to the full-
 * resolution guide, so fine detail that the guide carries (and the output is linear in) is not lost while
 * the window statistics cost 1/s^2 as much. s = 1 is the plain guidedFilter.
 */
export function fastGuidedFilter(guide: Float32Array, p: Float32Array, w: number, h: number, r: number, eps: number, s: number): Float32Array {
  if (s <= 1) return guidedFilter(guide, p, w, h, r, eps);
  const gw = Math.ceil(w / s), gh = Math.ceil(h / s);
  const g = shrink(guide, w, h, s, gw, gh), q = guide === p ? g : shrink(p, w, h, s, gw, gh);
  const coef = guidedCoefficients(g, q, gw, gh, Math.max(1, Math.round(r / s)), eps);
  return applyFloat(coef, guide, w, h, s);
}

/** A plane of block values (shrink's grid) brought back to w x h, bilinear between block centres. */
export function expand(small: Float32Array, gw: number, gh: number, w: number, h: number, s: number): Float32Array {
  return applyFloat({ a: new Float32Array(gw * gh), b: small, width: gw, height: gh }, new Float32Array(w * h), w, h, s);
}

/** Block means of s x s pixels (the last row and column of blocks clipped to the plane). */
export function shrink(src: Float32Array, w: number, h: number, s: number, gw: number, gh: number): Float32Array {
  const sum = new Float32Array(gw * gh), cnt = new Float32Array(gw * gh);
  for (let y = 0; y < h; y++) {
    const row = ((y / s) | 0) * gw;
    for (let x = 0, o = y * w; x < w; x++, o++) { const j = row + ((x / s) | 0); sum[j] += src[o]; cnt[j]++; }
  }
  for (let i = 0; i < sum.length; i++) sum[i] /= cnt[i];
  return sum;
}

/** q = A * I + B with A, B bilinear between block centres ((i + 0.5) * s - 0.5 in full pixels). */
function applyFloat(coef: GuidedCoefficients, guide: Float32Array, w: number, h: number, s: number): Float32Array {
  const { a, b, width: cw, height: ch } = coef;
  const x0 = new Int32Array(w), fx = new Float32Array(w);
  for (let x = 0; x < w; x++) {
    const sx = Math.min(Math.max((x + 0.5) / s - 0.5, 0), cw - 1);
    x0[x] = Math.min(Math.floor(sx), Math.max(0, cw - 2));
    fx[x] = cw === 1 ? 0 : sx - x0[x];
  }
  const rowA = new Float32Array(cw), rowB = new Float32Array(cw), out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const sy = Math.min(Math.max((y + 0.5) / s - 0.5, 0), ch - 1);
    const y0 = Math.min(Math.floor(sy), Math.max(0, ch - 2)), fy = ch === 1 ? 0 : sy - y0;
    const o0 = y0 * cw, o1 = ch === 1 ? o0 : o0 + cw;
    for (let x = 0; x < cw; x++) {
      rowA[x] = a[o0 + x] + (a[o1 + x] - a[o0 + x]) * fy;
      rowB[x] = b[o0 + x] + (b[o1 + x] - b[o0 + x]) * fy;
    }
    for (let x = 0, o = y * w; x < w; x++, o++) {
      const i = x0[x], j = cw === 1 ? i : i + 1, t = fx[x];
      out[o] = (rowA[i] + (rowA[j] - rowA[i]) * t) * guide[o] + rowB[i] + (rowB[j] - rowB[i]) * t;
    }
  }
  return out;
}
