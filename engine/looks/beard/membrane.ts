/**
 * Membrane (harmonic) fill: the unknown pixels of each plane take the solution of Laplace's equation whose
 * boundary values are the known pixels beside them, the smoothest surface that meets them (the tone and
 * shading of the skin around a hole carried across it, with no seam and no blotch). Pixels neither known
 * nor unknown are walls (a zero-flux boundary: lips, background), and `side` labels keep regions apart,
 * so the face's outline (the jaw against the neck) is never smoothed across.
 *
 * Solved by successive over-relaxation from each side's mean of its known pixels; the relaxation factor is
 * the optimal one for a square of the hole's size, which converges in a few times that many sweeps.
 */

export interface MembraneOptions {
  /** Region labels: a pixel is coupled only to neighbours of the same label. */
  side?: Uint8Array;
  /** Sweeps; by default 3x the hole's box side (enough for SOR at the optimal factor). */
  iterations?: number;
}

/** Each plane's unknown pixels solved from its known ones (copies; the inputs are not changed). */
export function membraneFill(planes: Float32Array[], w: number, h: number, unknown: Uint8Array, known: Uint8Array, o: MembraneOptions = {}): Float32Array[] {
  const n = w * h, side = o.side;
  const same = (i: number, j: number) => !side || side[i] === side[j];
  const inDomain = (j: number) => unknown[j] === 1 || known[j] === 1;
  // Neighbour lists of the unknown pixels (4-connected, within the domain, same side).
  const cells: number[] = [];
  let x0 = w, y0 = h, x1 = -1, y1 = -1;
  for (let i = 0; i < n; i++) {
    if (!unknown[i]) continue;
    cells.push(i);
    const x = i % w, y = (i / w) | 0;
    if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
  }
  const nb = new Int32Array(cells.length * 4).fill(-1);
  cells.forEach((i, k) => {
    const x = i % w;
    const cand = [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, i >= w ? i - w : -1, i + w < n ? i + w : -1];
    let m = 0;
    for (const j of cand) if (j >= 0 && inDomain(j) && same(i, j)) nb[k * 4 + m++] = j;
  });
  const size = Math.max(1, x1 - x0 + 1, y1 - y0 + 1);
  const omega = 2 / (1 + Math.sin(Math.PI / (size + 1)));
  const iterations = o.iterations ?? Math.min(3000, 3 * size + 20);

  return planes.map((plane) => {
    const v = Float32Array.from(plane);
    if (!cells.length) return v;
    // Start from the mean of the known pixels on each side (of all known where a side has none).
    const sum = new Float64Array(256), cnt = new Float64Array(256);
    let all = 0, allN = 0;
    for (let i = 0; i < n; i++) if (known[i]) { const s = side ? side[i] : 0; sum[s] += plane[i]; cnt[s]++; all += plane[i]; allN++; }
    const fallback = allN ? all / allN : 0;
    for (const i of cells) { const s = side ? side[i] : 0; v[i] = cnt[s] ? sum[s] / cnt[s] : fallback; }
    for (let it = 0; it < iterations; it++) {
      for (let k = 0; k < cells.length; k++) {
        let s = 0, m = 0;
        for (let q = k * 4, e = q + 4; q < e; q++) { const j = nb[q]; if (j < 0) break; s += v[j]; m++; }
        if (m) { const i = cells[k]; v[i] += omega * (s / m - v[i]); }
      }
    }
    return v;
  });
}
