/**
 * Gaussian blur for the skin measures. The retouch blur (three box means) cannot go below σ ≈ 1.4 px
 * (one box of radius 1), and the fine scales here are 0.6-1.4 px on small faces, so those get an explicit
 * separable kernel (radius 3σ); wider ones the box means, which cost the same at any σ.
 */
import { blurPlane } from '../../image/retouch/frequency.ts';

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
  const tmp = new Float32Array(w * h), out = new Float32Array(w * h);
  // The rows of tmp an output row reads are its ±r (clamped): tmp is needed over those rows' spans.
  const t = spans ? spreadRows(spans, h, r) : undefined;
  // Rows: the clamped borders apart from the interior, whose taps need no bounds checks.
  for (let y = 0; y < h; y++) {
    const o = y * w, xa = t ? Math.max(0, t.lo[y]) : 0, xb = t ? Math.min(w - 1, t.hi[y]) : w - 1;
    for (let x = xa; x <= xb; x++) {
      let s = 0;
      if (x >= r && x < w - r) for (let i = -r, j = o + x - r; i <= r; i++, j++) s += k[i + r] * plane[j];
      else for (let i = -r; i <= r; i++) { const xx = x + i < 0 ? 0 : x + i >= w ? w - 1 : x + i; s += k[i + r] * plane[o + xx]; }
      tmp[o + x] = s;
    }
  }
  // Columns, a row at a time (each tap a whole row: sequential memory), summed in double as the rows are.
  const acc = new Float64Array(w);
  for (let y = 0; y < h; y++) {
    const xa = spans ? Math.max(0, spans.lo[y]) : 0, xb = spans ? Math.min(w - 1, spans.hi[y]) : w - 1;
    if (xb < xa) continue;
    acc.fill(0, xa, xb + 1);
    for (let i = -r; i <= r; i++) {
      const yy = y + i < 0 ? 0 : y + i >= h ? h - 1 : y + i, src = yy * w, kv = k[i + r];
      for (let x = xa; x <= xb; x++) acc[x] += kv * tmp[src + x];
    }
    out.set(acc.subarray(xa, xb + 1), y * w + xa);
  }
  return out;
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
