/**
 * Skin grain for a filled hole, taken from the person's own bare skin: the fine band of the photo (pores,
 * grain) is quilted from patches of clean skin at the photo's own resolution, so the pores' scale is the
 * person's, and brought to the same strength as that skin's.
 *
 * Patches of `cell` pixels are laid on a grid of half that step, each cut from a random place of the source
 * (skin that is sure, away from edges) and weighed by a raised cosine, so neighbours cross-fade and no seam
 * or repeat grid shows; the average of overlapping patches is weaker than either, so the quilt is scaled to
 * the source band's own spread, per channel.
 */

/** A small deterministic generator (mulberry32): the same photo gives the same grain. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface GrainOptions {
  /** Patch side in pixels (at least 4). */
  cell: number;
  /** Seed of the patches' placement. */
  seed?: number;
}

/**
 * The quilted band over `where` (w x h, 1 where grain is wanted), per channel of `band`, from patches whose
 * every pixel is in `source`; null when no patch of the source fits. Pixels outside `where` are 0.
 */
export function quiltGrain(band: Float32Array[], w: number, h: number, where: Uint8Array, source: Uint8Array, o: GrainOptions): Float32Array[] | null {
  const cell = Math.max(4, Math.round(o.cell));
  const step = Math.max(2, cell >> 1);
  // Patch origins whose whole cell is source: a summed-area table of the source plane.
  const sat = new Int32Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y++) {
    let row = 0;
    for (let x = 0; x < w; x++) { row += source[y * w + x] ? 1 : 0; sat[(y + 1) * (w + 1) + x + 1] = sat[y * (w + 1) + x + 1] + row; }
  }
  const origins: number[] = [];
  for (let y = 0; y + cell <= h; y++) for (let x = 0; x + cell <= w; x++) {
    const s = sat[(y + cell) * (w + 1) + x + cell] - sat[y * (w + 1) + x + cell] - sat[(y + cell) * (w + 1) + x] + sat[y * (w + 1) + x];
    if (s === cell * cell) origins.push(y * w + x);
  }
  if (!origins.length) return null;
  let x0 = w, y0 = h, x1 = -1, y1 = -1;
  for (let i = 0; i < where.length; i++) if (where[i]) { const x = i % w, y = (i / w) | 0; if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y; }
  const out = band.map(() => new Float32Array(w * h));
  if (x1 < 0) return out;
  const weight = new Float32Array(w * h);
  const win = Float32Array.from({ length: cell }, (_, k) => Math.sin((Math.PI * (k + 0.5)) / cell) ** 2);
  const rnd = random(o.seed ?? 0x5eed);
  for (let gy = y0 - cell + step; gy <= y1; gy += step) {
    for (let gx = x0 - cell + step; gx <= x1; gx += step) {
      const src = origins[Math.floor(rnd() * origins.length)];
      const sx = src % w, sy = (src / w) | 0;
      for (let dy = 0; dy < cell; dy++) {
        const y = gy + dy;
        if (y < 0 || y >= h) continue;
        for (let dx = 0; dx < cell; dx++) {
          const x = gx + dx;
          if (x < 0 || x >= w) continue;
          const i = y * w + x;
          if (!where[i]) continue;
          const k = win[dx] * win[dy], j = (sy + dy) * w + sx + dx;
          weight[i] += k;
          for (let c = 0; c < band.length; c++) out[c][i] += k * band[c][j];
        }
      }
    }
  }
  for (let c = 0; c < band.length; c++) {
    // The source band's spread and the quilt's: the cross-fades average neighbours down.
    let ss = 0, sn = 0, qs = 0, qn = 0;
    for (let i = 0; i < w * h; i++) {
      if (source[i]) { ss += band[c][i] * band[c][i]; sn++; }
      if (where[i] && weight[i] > 0) { out[c][i] /= weight[i]; qs += out[c][i] * out[c][i]; qn++; }
    }
    const k = qs > 0 && sn > 0 ? Math.sqrt(ss / sn / (qs / qn)) : 1;
    for (let i = 0; i < w * h; i++) out[c][i] *= k;
  }
  return out;
}
