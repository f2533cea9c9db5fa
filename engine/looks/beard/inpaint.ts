/**
 * Exemplar-based inpainting: a hole is filled with patches of the photo's own texture, found by PatchMatch
 * (Barnes et al. 2009: random search and propagation of a nearest-neighbour field) and put together by
 * voting over a coarse-to-fine pyramid (Wexler, Shechtman & Irani 2007). Each hole pixel ends up as the
 * weighted vote of the source pixels that the patches covering it were matched with, so the fill carries
 * real texture (pores, grain) from the source, never a diffused smear; and each hole pixel's single best
 * source pixel is handed back too, so a caller can lay that texture over a smoother vote.
 *
 * Pixels are interleaved float channels (any units, e.g. Lab), row-major.
 */
import { seededRandom } from '../../image/random.ts';

export interface InpaintOptions {
  /** Patch side in pixels, odd (default 7). */
  patch?: number;
  /** EM iterations (search + vote) at the coarsest level; halves toward the finest, at least `fine` (default 6). */
  iterations?: number;
  /** EM iterations at the finest level (default 2). */
  fine?: number;
  /** Seed of the random search, so a fill is repeatable (default 1). */
  seed?: number;
}

export interface Inpainted {
  /** The pixels with the hole filled (a new array; pixels outside the hole are the input's). */
  data: Float32Array;
  /**
   * For each hole pixel, the source pixel (index) its own patch was matched with; -1 elsewhere. Copying
   * through it gives the source's texture unaveraged.
   */
  from: Int32Array;
}

interface Level {
  w: number; h: number;
  img: Float32Array;
  hole: Uint8Array;
  /** 1 where a pixel may be copied. */
  source: Uint8Array;
  /** 1 where a patch may be centred: the whole patch inside the image, on source pixels, none in the hole. */
  valid: Uint8Array;
  validList: Int32Array;
}

/**
 * Fills `hole` (1 = unknown) from patches lying wholly on `source` (1 = may be copied). Throws when no
 * source patch fits (the caller decides what to do without one: never a smear).
 */
export function inpaint(data: Float32Array, w: number, h: number, channels: number, hole: Uint8Array, source: Uint8Array, o: InpaintOptions = {}): Inpainted {
  const patch = o.patch ?? 7;
  if (patch < 3 || patch % 2 === 0) throw new Error(`inpaint: patch ${patch} must be odd and at least 3`);
  if (data.length !== w * h * channels || hole.length !== w * h || source.length !== w * h) throw new Error('inpaint: sizes differ');
  const r = patch >> 1;
  const rand = seededRandom(o.seed ?? 1);
  const out = Float32Array.from(data);
  const from = new Int32Array(w * h).fill(-1);
  let holeCount = 0;
  for (let i = 0; i < hole.length; i++) holeCount += hole[i];
  if (holeCount === 0) return { data: out, from };

  // The pyramid: halve while the hole is deeper than a patch and the image still holds a few patches.
  const levels: Level[] = [makeLevel(w, h, data, hole, source, r)];
  let depth = holeDepth(hole, w, h);
  while (depth > patch && Math.min(levels[0].w, levels[0].h) >= 6 * patch) {
    const next = downLevel(levels[0], channels, r);
    if (next.validList.length === 0) break;
    levels.unshift(next);
    depth /= 2;
  }
  if (levels[0].validList.length === 0) throw new Error('inpaint: no source patch fits');

  // Coarsest: the hole starts as a diffusion of its rim (only a start: the vote replaces it), the field at random.
  const top = levels[0];
  diffuseInto(top.img, top.hole, top.w, top.h, channels);
  let nnf = randomField(top, r, rand);
  const full = o.iterations ?? 6, fine = o.fine ?? 2;
  for (let k = 0; k < levels.length; k++) {
    const L = levels[k];
    if (k > 0) {
      nnf = upsampleField(levels[k - 1], nnf, L, r, rand);
      upsampleHole(levels[k - 1], L, channels);
      vote(L, nnf, r, channels, distances(L, nnf, r, channels));
    }
    const iters = k === levels.length - 1 ? fine : Math.max(fine, Math.round(full / 2 ** k));
    for (let it = 0; it < iters; it++) {
      const dist = distances(L, nnf, r, channels);
      search(L, nnf, dist, r, channels, rand, 2);
      vote(L, nnf, r, channels, dist);
    }
  }
  const L = levels[levels.length - 1];
  for (let i = 0; i < w * h; i++) {
    if (!hole[i]) continue;
    for (let c = 0; c < channels; c++) out[i * channels + c] = L.img[i * channels + c];
    from[i] = nnf[i];
  }
  return { data: out, from };
}

function makeLevel(w: number, h: number, img: Float32Array, hole: Uint8Array, source: Uint8Array, r: number): Level {
  // Patch centres whose (2r+1)^2 window is all usable, through an integral image of usable pixels.
  const usable = new Uint8Array(w * h);
  for (let i = 0; i < usable.length; i++) usable[i] = source[i] && !hole[i] ? 1 : 0;
  const S = new Int32Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y++) {
    let row = 0;
    for (let x = 0; x < w; x++) { row += usable[y * w + x]; S[(y + 1) * (w + 1) + x + 1] = S[y * (w + 1) + x + 1] + row; }
  }
  const valid = new Uint8Array(w * h), list: number[] = [], n = (2 * r + 1) ** 2;
  for (let y = r; y < h - r; y++) {
    for (let x = r; x < w - r; x++) {
      const s = S[(y + r + 1) * (w + 1) + x + r + 1] - S[(y - r) * (w + 1) + x + r + 1] - S[(y + r + 1) * (w + 1) + x - r] + S[(y - r) * (w + 1) + x - r];
      if (s === n) { valid[y * w + x] = 1; list.push(y * w + x); }
    }
  }
  return { w, h, img: Float32Array.from(img), hole, source, valid, validList: Int32Array.from(list) };
}

/** Half size: pixels averaged over 2x2 blocks; a block is hole if any pixel is, source only if all are. */
function downLevel(L: Level, channels: number, r: number): Level {
  const w = L.w >> 1, h = L.h >> 1;
  const img = new Float32Array(w * h * channels), hole = new Uint8Array(w * h), source = new Uint8Array(w * h);
  const src = L.source;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const a = 2 * y * L.w + 2 * x, idx = [a, a + 1, a + L.w, a + L.w + 1], o = y * w + x;
      let hl = 0, s = 1;
      for (const i of idx) { hl |= L.hole[i]; s &= src[i]; }
      hole[o] = hl; source[o] = s;
      for (let c = 0; c < channels; c++) {
        let v = 0;
        for (const i of idx) v += L.img[i * channels + c];
        img[o * channels + c] = v / 4;
      }
    }
  }
  return makeLevel(w, h, img, hole, source, r);
}

/** Largest distance (chessboard, pixels) from a hole pixel to the nearest pixel outside the hole. */
function holeDepth(hole: Uint8Array, w: number, h: number): number {
  const d = new Int32Array(w * h);
  const INF = 1 << 29;
  for (let i = 0; i < d.length; i++) d[i] = hole[i] ? INF : 0;
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const i = y * w + x; if (!d[i]) continue;
    let m = d[i];
    if (x > 0) m = Math.min(m, d[i - 1] + 1);
    if (y > 0) { m = Math.min(m, d[i - w] + 1); if (x > 0) m = Math.min(m, d[i - w - 1] + 1); if (x < w - 1) m = Math.min(m, d[i - w + 1] + 1); }
    d[i] = m;
  }
  let max = 0;
  for (let y = h - 1; y >= 0; y--) for (let x = w - 1; x >= 0; x--) {
    const i = y * w + x; if (!d[i]) continue;
    let m = d[i];
    if (x < w - 1) m = Math.min(m, d[i + 1] + 1);
    if (y < h - 1) { m = Math.min(m, d[i + w] + 1); if (x < w - 1) m = Math.min(m, d[i + w + 1] + 1); if (x > 0) m = Math.min(m, d[i + w - 1] + 1); }
    d[i] = m; if (m > max) max = m;
  }
  return max >= INF ? Math.max(w, h) : max;
}

/** Onion-peel fill: each round, hole pixels beside known ones take their known neighbours' mean. */
function diffuseInto(img: Float32Array, hole: Uint8Array, w: number, h: number, channels: number): void {
  const known = new Uint8Array(w * h);
  for (let i = 0; i < known.length; i++) known[i] = hole[i] ? 0 : 1;
  let left = 0;
  for (let i = 0; i < known.length; i++) left += 1 - known[i];
  const acc = new Float32Array(channels);
  while (left > 0) {
    const ring: number[] = [];
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (known[i]) continue;
      let n = 0; acc.fill(0);
      for (const j of [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, y > 0 ? i - w : -1, y < h - 1 ? i + w : -1]) {
        if (j < 0 || !known[j]) continue;
        n++; for (let c = 0; c < channels; c++) acc[c] += img[j * channels + c];
      }
      if (n) { for (let c = 0; c < channels; c++) img[i * channels + c] = acc[c] / n; ring.push(i); }
    }
    if (ring.length === 0) break; // a hole that fills the whole image: left as it is
    for (const i of ring) known[i] = 1;
    left -= ring.length;
  }
}

/** The pixels whose patch overlaps the hole: every one of them gets a match. */
function targets(L: Level, r: number): Int32Array {
  const { w, h, hole } = L;
  const rows = new Uint8Array(w * h), on = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    let last = -1e9;
    for (let x = 0; x < w + r; x++) {
      if (x < w && hole[y * w + x]) last = x;
      const t = x - r; if (t >= 0 && t < w && x - last <= 2 * r) rows[y * w + t] = 1;
    }
  }
  for (let x = 0; x < w; x++) {
    let last = -1e9;
    for (let y = 0; y < h + r; y++) {
      if (y < h && rows[y * w + x]) last = y;
      const t = y - r; if (t >= 0 && t < h && y - last <= 2 * r) on[t * w + x] = 1;
    }
  }
  const list: number[] = [];
  for (let i = 0; i < on.length; i++) if (on[i]) list.push(i);
  return Int32Array.from(list);
}

const targetCache = new WeakMap<Level, Int32Array>();
const targetsOf = (L: Level, r: number) => { let t = targetCache.get(L); if (!t) { t = targets(L, r); targetCache.set(L, t); } return t; };

function randomField(L: Level, r: number, rand: () => number): Int32Array {
  const nnf = new Int32Array(L.w * L.h).fill(-1);
  for (const p of targetsOf(L, r)) nnf[p] = L.validList[(rand() * L.validList.length) | 0];
  return nnf;
}

/** A coarse field carried to the next level: each pixel takes its parent's match, offset by where it sits in the parent. */
function upsampleField(C: Level, coarse: Int32Array, L: Level, r: number, rand: () => number): Int32Array {
  const nnf = new Int32Array(L.w * L.h).fill(-1);
  for (const p of targetsOf(L, r)) {
    const x = p % L.w, y = (p / L.w) | 0;
    const cx = Math.min(C.w - 1, x >> 1), cy = Math.min(C.h - 1, y >> 1);
    const q = coarse[cy * C.w + cx];
    let cand = -1;
    if (q >= 0) {
      const qx = Math.min(L.w - 1, 2 * (q % C.w) + (x & 1)), qy = Math.min(L.h - 1, 2 * ((q / C.w) | 0) + (y & 1));
      cand = qy * L.w + qx;
    }
    nnf[p] = cand >= 0 && L.valid[cand] ? cand : nearestValid(L, cand, rand);
  }
  return nnf;
}

/** A valid centre near `q` (a few random tries around it), else any valid centre. */
function nearestValid(L: Level, q: number, rand: () => number): number {
  if (q >= 0) {
    const qx = q % L.w, qy = (q / L.w) | 0;
    for (let t = 0; t < 8; t++) {
      const x = qx + Math.round((rand() - 0.5) * 8), y = qy + Math.round((rand() - 0.5) * 8);
      if (x >= 0 && y >= 0 && x < L.w && y < L.h && L.valid[y * L.w + x]) return y * L.w + x;
    }
  }
  return L.validList[(rand() * L.validList.length) | 0];
}

/** The hole of a finer level starts as its parent's fill, pixel for pixel (the next vote brings the fine texture). */
function upsampleHole(C: Level, L: Level, channels: number): void {
  for (let y = 0; y < L.h; y++) {
    const cy = Math.min(C.h - 1, y >> 1);
    for (let x = 0; x < L.w; x++) {
      const i = y * L.w + x;
      if (!L.hole[i]) continue;
      const j = cy * C.w + Math.min(C.w - 1, x >> 1);
      for (let c = 0; c < channels; c++) L.img[i * channels + c] = C.img[j * channels + c];
    }
  }
}

/** Sum of squared differences between the patches at p (clipped to the image) and q (always whole), stopping past `limit`. */
function patchDistance(L: Level, p: number, q: number, r: number, channels: number, limit: number): number {
  const { w, h, img } = L;
  const px = p % w, py = (p / w) | 0;
  const dx0 = Math.max(-r, -px), dx1 = Math.min(r, w - 1 - px), dy0 = Math.max(-r, -py), dy1 = Math.min(r, h - 1 - py);
  let s = 0;
  for (let dy = dy0; dy <= dy1; dy++) {
    let a = ((py + dy) * w + px + dx0) * channels, b = (q + dy * w + dx0) * channels;
    const end = a + (dx1 - dx0 + 1) * channels;
    for (; a < end; a++, b++) { const d = img[a] - img[b]; s += d * d; }
    if (s > limit) return s;
  }
  return s;
}

function distances(L: Level, nnf: Int32Array, r: number, channels: number): Float32Array {
  const dist = new Float32Array(L.w * L.h);
  for (const p of targetsOf(L, r)) dist[p] = patchDistance(L, p, nnf[p], r, channels, Infinity);
  return dist;
}

/** PatchMatch passes: propagation from the neighbours already visited, then a random search at halving radii. */
function search(L: Level, nnf: Int32Array, dist: Float32Array, r: number, channels: number, rand: () => number, passes: number): void {
  const { w, h, valid } = L;
  const list = targetsOf(L, r);
  const isTarget = new Uint8Array(w * h);
  for (const p of list) isTarget[p] = 1;
  const try1 = (p: number, q: number) => {
    if (q < 0 || q >= valid.length || !valid[q] || q === nnf[p]) return;
    const d = patchDistance(L, p, q, r, channels, dist[p]);
    if (d < dist[p]) { dist[p] = d; nnf[p] = q; }
  };
  for (let pass = 0; pass < passes; pass++) {
    const fwd = pass % 2 === 0, step = fwd ? 1 : -1;
    for (let k = fwd ? 0 : list.length - 1; k >= 0 && k < list.length; k += step) {
      const p = list[k], x = p % w;
      // Propagation: the neighbour's match, shifted back by the step between them.
      const nx = p - step, ny = p - step * w;
      if ((fwd ? x > 0 : x < w - 1) && isTarget[nx]) try1(p, nnf[nx] + step);
      if (ny >= 0 && ny < w * h && isTarget[ny]) try1(p, nnf[ny] + step * w);
      // Random search around the current match.
      const q = nnf[p], qx = q % w, qy = (q / w) | 0;
      for (let R = Math.max(w, h); R >= 1; R >>= 1) {
        const x2 = qx + Math.round((rand() * 2 - 1) * R), y2 = qy + Math.round((rand() * 2 - 1) * R);
        if (x2 < 0 || y2 < 0 || x2 >= w || y2 >= h) continue;
        try1(p, y2 * w + x2);
      }
    }
  }
}

/**
 * Each hole pixel becomes the weighted mean of the pixels the covering patches' matches put there, weights
 * falling with the patch distance (Wexler's exp(-d / 2 sigma^2), sigma^2 at the distances' 75th percentile).
 */
function vote(L: Level, nnf: Int32Array, r: number, channels: number, dist: Float32Array): void {
  const { w, h, img, hole } = L;
  const list = targetsOf(L, r);
  const ds = Float32Array.from(list, (p) => dist[p]).sort();
  const s2 = Math.max(1e-6, ds[Math.floor(0.75 * (ds.length - 1))]);
  const acc = new Float32Array(w * h * channels), wsum = new Float32Array(w * h);
  for (const p of list) {
    const q = nnf[p], wt = Math.exp(-dist[p] / (2 * s2)) + 1e-9;
    const px = p % w, py = (p / w) | 0;
    for (let dy = Math.max(-r, -py); dy <= Math.min(r, h - 1 - py); dy++) {
      for (let dx = Math.max(-r, -px); dx <= Math.min(r, w - 1 - px); dx++) {
        const t = p + dy * w + dx;
        if (!hole[t]) continue;
        const s = q + dy * w + dx;
        wsum[t] += wt;
        for (let c = 0; c < channels; c++) acc[t * channels + c] += wt * img[s * channels + c];
      }
    }
  }
  for (let t = 0; t < w * h; t++) {
    if (!hole[t] || wsum[t] === 0) continue;
    for (let c = 0; c < channels; c++) img[t * channels + c] = acc[t * channels + c] / wsum[t];
  }
}

