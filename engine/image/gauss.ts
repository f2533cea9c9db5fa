/**
 * Gaussian blur down to fine scales (the skin measures', beard grain's). The box-mean blur (frequency.ts)
 * cannot go below σ ≈ 1.4 px (one box of radius 1), and the skin measures' fine scales are 0.6-1.4 px on
 * small faces, so those get an explicit separable kernel (radius 3σ); wider ones the box means, which cost
 * the same at any σ.
 */
import { blurPlane } from './frequency.ts';

/**
 * Per row y, the columns lo[y]..hi[y] (inclusive; none where lo > hi): the only places a caller reads a
 * blurred plane, so the explicit kernel computes only there (each value exactly as over the whole plane).
 */
export interface RowSpans { lo: Int32Array; hi: Int32Array }

export function gauss(plane: Float32Array, w: number, h: number, sigma: number, spans?: RowSpans): Float32Array {
  if (sigma >= 2.5) return blurPlane(plane, w, h, sigma);
  if (sigma < 0.3) return Float32Array.from(plane);
  const r = Math.ceil(3 * sigma), k = new Float32Array(2 * r + 1);
  let sum = 0;
  for (let i = -r; i <= r; i++) { k[i + r] = Math.exp(-(i * i) / (2 * sigma * sigma)); sum += k[i + r]; }
  for (let i = 0; i < k.length; i++) k[i] /= sum;
  const tmp = new Float32Array(w * h), out = new Float32Array(w * h), nk = k.length;
  // The rows of tmp an output row reads are its ±r (clamped): tmp is needed over those rows' spans.
  const t = spans ? spreadRows(spans, h, r) : undefined;
  // Rows: the clamped borders apart from the interior, whose taps need no bounds checks.
  for (let y = 0; y < h; y++) {
    const o = y * w, xa = t ? Math.max(0, t.lo[y]) : 0, xb = t ? Math.min(w - 1, t.hi[y]) : w - 1;
    // The interior four pixels at a time: each pixel's taps are one chain of dependent additions, and four
    // independent chains keep the FPU busy; every pixel's additions are in the same order as alone.
    const ia = Math.max(xa, r), ib = Math.min(xb, w - r - 1);
    let x = xa;
    for (; x <= xb && x < ia; x++) tmp[o + x] = edgeTap(plane, k, o, x, r, w);
    for (; x + 3 <= ib; x += 4) {
      let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      for (let i = 0, j = o + x - r; i < nk; i++, j++) {
        const kv = k[i];
        s0 += kv * plane[j]; s1 += kv * plane[j + 1]; s2 += kv * plane[j + 2]; s3 += kv * plane[j + 3];
      }
      tmp[o + x] = s0; tmp[o + x + 1] = s1; tmp[o + x + 2] = s2; tmp[o + x + 3] = s3;
    }
    for (; x <= ib; x++) {
      let s0 = 0;
      for (let i = 0, j = o + x - r; i < nk; i++, j++) s0 += k[i] * plane[j];
      tmp[o + x] = s0;
    }
    for (; x <= xb; x++) tmp[o + x] = edgeTap(plane, k, o, x, r, w);
  }
  // Columns, a row at a time (each tap a whole row: sequential memory), summed in double as the rows are.
  const acc = new Float64Array(w);
  for (let y = 0; y < h; y++) {
    const xa = spans ? Math.max(0, spans.lo[y]) : 0, xb = spans ? Math.min(w - 1, spans.hi[y]) : w - 1;
    if (xb < xa) continue;
    acc.fill(0, xa, xb + 1);
    // Two taps a sweep ((acc + k1 t1) + k2 t2: the same additions in the same order), over row views.
    const row = (i: number) => { const yy = y + i < 0 ? 0 : y + i >= h ? h - 1 : y + i; return tmp.subarray(yy * w, yy * w + w); };
    let i = -r;
    for (; i + 1 <= r; i += 2) {
      const A = row(i), B = row(i + 1), ka = k[i + r], kb = k[i + r + 1];
      for (let x = xa; x <= xb; x++) acc[x] = acc[x] + ka * A[x] + kb * B[x];
    }
    if (i <= r) { const A = row(i), ka = k[i + r]; for (let x = xa; x <= xb; x++) acc[x] += ka * A[x]; }
    out.set(acc.subarray(xa, xb + 1), y * w + xa);
  }
  return out;
}

/** One pixel of the horizontal pass where the kernel reaches past the row's ends (clamped to the edge pixel). */
function edgeTap(plane: Float32Array, k: Float32Array, o: number, x: number, r: number, w: number): number {
  let s = 0;
  for (let i = -r; i <= r; i++) { const xx = x + i < 0 ? 0 : x + i >= w ? w - 1 : x + i; s += k[i + r] * plane[o + xx]; }
  return s;
}

/** The union of each row's spans over the rows within ±r of it (clamped to the plane). */
export function spreadRows(spans: RowSpans, h: number, r: number): RowSpans {
  const lo = new Int32Array(h).fill(2 ** 30), hi = new Int32Array(h).fill(-1);
  for (let y = 0; y < h; y++) {
    if (spans.hi[y] < spans.lo[y]) continue;
    for (let t = Math.max(0, y - r); t <= Math.min(h - 1, y + r); t++) {
      if (spans.lo[y] < lo[t]) lo[t] = spans.lo[y];
      if (spans.hi[y] > hi[t]) hi[t] = spans.hi[y];
    }
  }
  return { lo, hi };
}

/** Per row, the extent of the pixels where zone ≥ 0.5, grown by `grow` pixels every way (clipped to the plane). */
export function zoneSpans(zone: Float32Array, w: number, h: number, grow: number): RowSpans {
  const rowLo = new Int32Array(h).fill(2 ** 30), rowHi = new Int32Array(h).fill(-1);
  for (let y = 0; y < h; y++) {
    for (let x = 0, i = y * w; x < w; x++, i++) if (zone[i] >= 0.5) { rowLo[y] = Math.min(rowLo[y], x); rowHi[y] = x; }
  }
  const grown = spreadRows({ lo: rowLo, hi: rowHi }, h, grow);
  for (let y = 0; y < h; y++) {
    if (grown.hi[y] < grown.lo[y]) continue;
    grown.lo[y] = Math.max(0, grown.lo[y] - grow); grown.hi[y] = Math.min(w - 1, grown.hi[y] + grow);
  }
  return grown;
}
