/**
 * Skin grain for a shaved area, quilted from the person's own clean skin (Efros & Freeman 2001, with
 * raised-cosine overlaps instead of a boundary cut). The texture band (a plane less its blur) of the bare
 * skin around the beard is cut into square patches; only patches of plain skin take part (their band's
 * energy near the skin's median: no edge of a jaw, ear, nostril or collar, no hair the parser called skin,
 * no chain), and the area is tiled at half a patch's step, each tile the candidate among a few random ones
 * whose overlap best matches the tiles already laid (coherence), blended by raised-cosine weights that sum
 * to one, and given back the source grain's contrast by one gain per plane.
 * Grain is multiplicative (pores are a share of the skin's light; chroma goes with L* + 16 too), so a
 * tile's band is scaled by the target's (L* + 16) over its source's.
 */
import { blurPlane } from '../../image/frequency.ts';
import { seededRandom } from '../../image/random.ts';

export interface QuiltOptions {
  /** Patch side, pixels (odd, at least 5). */
  patch: number;
  /** Candidates tried per tile. */
  tries: number;
  /** A source patch's band energy (mean square over the patch) must lie within these multiples of the skin's median. */
  energyLo: number;
  energyHi: number;
  seed?: number;
}

/**
 * The quilted band over the pixels where `target` is 1 (0 elsewhere): `band` are the planes' texture bands
 * (L*, a*, b*), `source` 1 where a pixel is bare skin that may be copied, `lowL` the target's broad L* and
 * `broadL` the photo's (for the multiplicative scale). Null when too few plain-skin patches are found.
 */
export function quiltBand(band: Float32Array[], w: number, h: number, source: Uint8Array, target: Uint8Array, lowL: Float32Array, broadL: Float32Array, o: QuiltOptions): Float32Array[] | null {
  const P = Math.max(5, o.patch | 1), r = P >> 1, step = Math.max(1, (P + 1) >> 1), n = w * h;
  // Energy per patch (mean square of the L* band over the patch): a box mean through an integral image.
  const e2 = Float32Array.from(band[0], (v) => v * v);
  const S = integral(e2, w, h), U = integral(Float32Array.from(source), w, h);
  const boxSum = (I: Float64Array, x: number, y: number) => I[(y + r + 1) * (w + 1) + x + r + 1] - I[(y - r) * (w + 1) + x + r + 1] - I[(y + r + 1) * (w + 1) + x - r] + I[(y - r) * (w + 1) + x - r];
  const centres: number[] = [], energy: number[] = [];
  for (let y = r; y < h - r; y++) for (let x = r; x < w - r; x++) {
    if (boxSum(U, x, y) < P * P) continue;
    centres.push(y * w + x); energy.push(boxSum(S, x, y) / (P * P));
  }
  if (centres.length < 16) return null;
  const med = [...energy].sort((a, b) => a - b)[energy.length >> 1];
  const pool = centres.filter((_, k) => energy[k] >= o.energyLo * med && energy[k] <= o.energyHi * med);
  if (pool.length < 16) return null;

  // Tiles over the target's box.
  let x0 = w, y0 = h, x1 = -1, y1 = -1;
  for (let i = 0; i < n; i++) if (target[i]) { const x = i % w, y = (i / w) | 0; if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y; }
  if (x1 < 0) return null;
  const rand = seededRandom(o.seed ?? 7);
  const acc = band.map(() => new Float32Array(n)), wsum = new Float32Array(n);
  // Raised cosine over the patch: sin^2 at half-patch steps sums to one.
  const win1 = Float32Array.from({ length: P }, (_, k) => Math.sin((Math.PI * (k + 0.5)) / P) ** 2);
  for (let ty = y0 - r; ty <= y1 + r; ty += step) {
    for (let tx = x0 - r; tx <= x1 + r; tx += step) {
      // Only tiles touching the target.
      let touches = false;
      for (let dy = -r; dy <= r && !touches; dy += 2) for (let dx = -r; dx <= r; dx += 2) {
        const x = tx + dx, y = ty + dy;
        if (x >= 0 && y >= 0 && x < w && y < h && target[y * w + x]) { touches = true; break; }
      }
      if (!touches) continue;
      // Coherence: the candidate whose patch best matches what is already laid in its overlap (the running
      // blend, normalised), in the L* band; scaled as it would be laid.
      let best = pool[(rand() * pool.length) | 0], bestD = Infinity;
      for (let t = 0; t < o.tries; t++) {
        const q = pool[(rand() * pool.length) | 0], qx = q % w, qy = (q / w) | 0;
        let d = 0, m = 0;
        for (let dy = -r; dy <= r; dy += 1) {
          const y = ty + dy; if (y < 0 || y >= h) continue;
          for (let dx = -r; dx <= r; dx += 1) {
            const x = tx + dx; if (x < 0 || x >= w) continue;
            const i = y * w + x;
            if (wsum[i] <= 0.05) continue;
            const s = (qy + dy) * w + qx + dx;
            const k = (lowL[i] + 16) / (broadL[s] + 16);
            const diff = acc[0][i] / wsum[i] - k * band[0][s];
            d += diff * diff; m++;
          }
        }
        const score = m ? d / m : 0;
        if (score < bestD) { bestD = score; best = q; }
        if (!m) break;
      }
      const qx = best % w, qy = (best / w) | 0;
      for (let dy = -r; dy <= r; dy++) {
        const y = ty + dy; if (y < 0 || y >= h) continue;
        for (let dx = -r; dx <= r; dx++) {
          const x = tx + dx; if (x < 0 || x >= w) continue;
          const i = y * w + x, s = (qy + dy) * w + qx + dx, wt = win1[dy + r] * win1[dx + r];
          const k = (lowL[i] + 16) / (broadL[s] + 16);
          for (let c = 0; c < band.length; c++) acc[c][i] += wt * k * band[c][s];
          wsum[i] += wt;
        }
      }
    }
  }
  // Normalised by the weights (they sum to one inside), then one gain per plane brings the blend's robust
  // spread back to the laid patches' own: a blend of two patches has less contrast than either, and a
  // per-pixel gain (1 / sqrt(sum w^2), right for independent patches) drew the tile grid as stripes, the
  // overlaps being matched and so alike.
  const laid: number[] = [];
  for (let i = 0; i < n; i++) if (target[i] && wsum[i] > 0) laid.push(i);
  for (let c = 0; c < acc.length; c++) {
    const a = acc[c];
    for (let i = 0; i < n; i++) a[i] = target[i] && wsum[i] > 0 ? a[i] / wsum[i] : 0;
    const got = robustSpread(laid.map((i) => a[i]));
    const want = robustSpread(pool.map((q) => band[c][q]));
    const g = got > 1e-6 ? Math.min(2, want / got) : 1;
    for (const i of laid) a[i] *= g;
  }
  return acc;
}

const robustSpread = (v: number[]) => (v.length ? 1.4826 * v.map(Math.abs).sort((a, b) => a - b)[v.length >> 1] : 0);

function integral(p: Float32Array, w: number, h: number): Float64Array {
  const I = new Float64Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y++) {
    let row = 0;
    for (let x = 0; x < w; x++) { row += p[y * w + x]; I[(y + 1) * (w + 1) + x + 1] = I[y * (w + 1) + x + 1] + row; }
  }
  return I;
}

/** The photo's broad L* for the multiplicative scale: a blur as wide as a patch. */
export const broadLightness = (L: Float32Array, w: number, h: number, patch: number) => blurPlane(L, w, h, Math.max(1, patch / 2));
