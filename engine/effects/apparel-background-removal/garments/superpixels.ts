/**
 * SLIC superpixels (Achanta et al. 2012) over a Lab image: compact regions that follow colour edges, so
 * that garment decisions are made per region rather than per noisy pixel. Returns a label per pixel
 * (0..count-1, every region connected) and per-region statistics.
 */
import { SUPERPIXELS } from './tuning.ts';

export interface Region {
  /** Mean L, a, b. */
  lab: [number, number, number];
  /** Centroid. */
  x: number; y: number;
  n: number;
  /** Bounding box, inclusive. */
  x0: number; y0: number; x1: number; y1: number;
}

export interface Superpixels { labels: Int32Array; regions: Region[]; width: number; height: number }

/** `k` is the number of regions asked for; `m` the compactness (larger: squarer regions). */
export function slic(lab: Float32Array, width: number, height: number, k: number, m = SUPERPIXELS.compactness, iterations = SUPERPIXELS.iterations): Superpixels {
  const n = width * height;
  const S = Math.max(2, Math.round(Math.sqrt(n / k)));
  const cx: number[] = [], cy: number[] = [], cl: number[] = [], ca: number[] = [], cb: number[] = [];
  for (let y = S >> 1; y < height; y += S) for (let x = S >> 1; x < width; x += S) {
    const i = y * width + x;
    cx.push(x); cy.push(y); cl.push(lab[i * 3]); ca.push(lab[i * 3 + 1]); cb.push(lab[i * 3 + 2]);
  }
  const K = cx.length;
  const labels = new Int32Array(n).fill(-1);
  const dist = new Float32Array(n);
  const w = (m / S) ** 2;
  for (let it = 0; it < iterations; it++) {
    dist.fill(Infinity);
    for (let c = 0; c < K; c++) {
      // The centre in locals: the inner loop is the parse's hottest (the same sums in the same order).
      const X = cx[c], Y = cy[c], Lc = cl[c], Ac = ca[c], Bc = cb[c];
      const x0 = Math.max(0, Math.floor(X - S)), x1 = Math.min(width - 1, Math.ceil(X + S));
      const y0 = Math.max(0, Math.floor(Y - S)), y1 = Math.min(height - 1, Math.ceil(Y + S));
      for (let y = y0; y <= y1; y++) {
        const dy = y - Y;
        for (let x = x0, i = y * width + x0; x <= x1; x++, i++) {
          const dl = lab[i * 3] - Lc, da = lab[i * 3 + 1] - Ac, db = lab[i * 3 + 2] - Bc;
          const dx = x - X;
          const d = dl * dl + da * da + db * db + w * (dx * dx + dy * dy);
          if (d < dist[i]) { dist[i] = d; labels[i] = c; }
        }
      }
    }
    const sx = new Float64Array(K), sy = new Float64Array(K), sl = new Float64Array(K), sa = new Float64Array(K), sb = new Float64Array(K), cnt = new Float64Array(K);
    for (let y = 0, i = 0; y < height; y++) for (let x = 0; x < width; x++, i++) {
      const c = labels[i];
      if (c < 0) continue;
      sx[c] += x; sy[c] += y; sl[c] += lab[i * 3]; sa[c] += lab[i * 3 + 1]; sb[c] += lab[i * 3 + 2]; cnt[c]++;
    }
    for (let c = 0; c < K; c++) if (cnt[c] > 0) {
      cx[c] = sx[c] / cnt[c]; cy[c] = sy[c] / cnt[c]; cl[c] = sl[c] / cnt[c]; ca[c] = sa[c] / cnt[c]; cb[c] = sb[c] / cnt[c];
    }
  }
  const final = connect(labels, width, height, Math.max(4, (S * S) >> 2));
  return { labels: final.labels, regions: stats(final.labels, final.count, lab, width, height), width, height };
}

/** Makes every region connected: fragments become regions of their own, or join a neighbour when small. */
function connect(labels: Int32Array, width: number, height: number, minSize: number) {
  const n = width * height;
  const out = new Int32Array(n).fill(-1);
  const queue = new Int32Array(n);
  let count = 0;
  for (let start = 0; start < n; start++) {
    if (out[start] >= 0) continue;
    const old = labels[start];
    let head = 0, tail = 0;
    queue[tail++] = start; out[start] = count;
    let adjacent = -1;
    while (head < tail) {
      const i = queue[head++];
      const x = i % width, y = (i / width) | 0;
      // The four neighbours in this order (left, right, up, down), without an array per pixel.
      for (let k = 0; k < 4; k++) {
        const j = k === 0 ? (x > 0 ? i - 1 : -1) : k === 1 ? (x < width - 1 ? i + 1 : -1) : k === 2 ? (y > 0 ? i - width : -1) : (y < height - 1 ? i + width : -1);
        if (j < 0) continue;
        if (out[j] >= 0 && out[j] !== count) { adjacent = out[j]; continue; }
        if (out[j] < 0 && labels[j] === old) { out[j] = count; queue[tail++] = j; }
      }
    }
    if (tail < minSize && adjacent >= 0) for (let q = 0; q < tail; q++) out[queue[q]] = adjacent;
    else count++;
  }
  return { labels: out, count };
}

function stats(labels: Int32Array, count: number, lab: Float32Array, width: number, height: number): Region[] {
  const r: Region[] = Array.from({ length: count }, () => ({ lab: [0, 0, 0], x: 0, y: 0, n: 0, x0: width, y0: height, x1: -1, y1: -1 }));
  for (let y = 0, i = 0; y < height; y++) for (let x = 0; x < width; x++, i++) {
    const g = r[labels[i]];
    g.n++; g.x += x; g.y += y;
    g.lab[0] += lab[i * 3]; g.lab[1] += lab[i * 3 + 1]; g.lab[2] += lab[i * 3 + 2];
    if (x < g.x0) g.x0 = x; if (x > g.x1) g.x1 = x; if (y < g.y0) g.y0 = y; if (y > g.y1) g.y1 = y;
  }
  for (const g of r) if (g.n > 0) { g.x /= g.n; g.y /= g.n; g.lab = [g.lab[0] / g.n, g.lab[1] / g.n, g.lab[2] / g.n]; }
  return r;
}
