/**
 * The bare scalp, made from the person's own forehead: its colour and the light across it (a plane fitted
 * to the forehead's low band in Lab over the head frame), the dome's roundness (darker toward the skull's
 * outline, a soft sheen on top), and its texture (the forehead's fine band, mirror-tiled). Also the push-pull fill that shows what lies behind hair that stood
 * outside the skull.
 */
import { SKULL } from './hairline.ts';

/**
 * Lightness factor of the dome at frame point (u, v): 1 over its middle, falling off toward its outline as
 * a lit sphere's does (the surface turning away), never below 1 - EDGE_DARK. The forehead's own light,
 * across and up, comes from the plane fitted to it; this adds only the roundness it cannot show.
 */
export function domeShade(u: number, v: number, top: number): number {
  const b = top - SKULL.v0;
  const x = u / SKULL.a, y = v > SKULL.v0 ? (v - SKULL.v0) / b : 0;
  const r2 = Math.min(1, x * x + y * y);
  return 1 - EDGE_DARK * r2 * r2;
}
const EDGE_DARK = 0.15;

/** A broad soft highlight where a bald head usually catches the light: high on the dome, 0..1. */
export function domeSheen(u: number, v: number, top: number): number {
  const cv = top - 0.32;
  return Math.exp(-((u / 0.5) ** 2) - ((v - cv) / 0.3) ** 2);
}

/** Mirror-repeat index into [0, n). */
export const mirror = (i: number, n: number): number => {
  const p = 2 * n, m = ((i % p) + p) % p;
  return m < n ? m : p - 1 - m;
};

/**
 * Fills each plane where `weight` is low from where it is high (push-pull: weighted means down a pyramid,
 * then back up), so hair standing out of the skull gives way to a smooth guess at the background.
 */
export function pushPull(planes: Float32Array[], weight: Float32Array, w: number, h: number): Float32Array[] {
  if (w <= 1 && h <= 1) return planes.map((p) => Float32Array.from(p));
  const sw = Math.ceil(w / 2), sh = Math.ceil(h / 2);
  const sp = planes.map(() => new Float32Array(sw * sh)), swt = new Float32Array(sw * sh);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x, j = (y >> 1) * sw + (x >> 1), wt = weight[i];
      if (wt <= 0) continue;
      swt[j] += wt;
      for (let c = 0; c < planes.length; c++) sp[c][j] += planes[c][i] * wt;
    }
  }
  for (let j = 0; j < swt.length; j++) {
    if (swt[j] > 0) for (let c = 0; c < planes.length; c++) sp[c][j] /= swt[j];
    swt[j] = Math.min(1, swt[j]);
  }
  const coarse = pushPull(sp, swt, sw, sh);
  return planes.map((p, c) => {
    const out = new Float32Array(w * h), q = coarse[c];
    for (let y = 0; y < h; y++) {
      // Bilinear from the coarse level (its pixel centres at 2j + 0.5).
      const gy = Math.max(0, Math.min(sh - 1, (y - 0.5) / 2)), y0 = Math.floor(gy), y1 = Math.min(sh - 1, y0 + 1), fy = gy - y0;
      for (let x = 0; x < w; x++) {
        const gx = Math.max(0, Math.min(sw - 1, (x - 0.5) / 2)), x0 = Math.floor(gx), x1 = Math.min(sw - 1, x0 + 1), fx = gx - x0;
        const up = (q[y0 * sw + x0] * (1 - fx) + q[y0 * sw + x1] * fx) * (1 - fy) + (q[y1 * sw + x0] * (1 - fx) + q[y1 * sw + x1] * fx) * fy;
        const i = y * w + x, wt = Math.min(1, weight[i]);
        out[i] = p[i] * wt + up * (1 - wt);
      }
    }
    return out;
  });
}

/**
 * A smooth (harmonic) fill: each plane keeps its values where `weight` ≥ 0.5 and, elsewhere, takes the
 * membrane between them (Laplace's equation, as a Poisson blend's correction is), solved by Jacobi
 * iterations on a grid about 160 cells across started from push-pull. Unlike push-pull alone it meets the
 * known values exactly at their edge, so a colour correction carried from the skin shows no seam there.
 */
export function harmonicFill(planes: Float32Array[], weight: Float32Array, w: number, h: number, iterations = 40): Float32Array[] {
  const s = Math.max(1, Math.round(Math.max(w, h) / 160));
  const gw = Math.ceil(w / s), gh = Math.ceil(h / s), n = gw * gh;
  const cnt = new Float32Array(n), wsum = new Float32Array(n);
  const small = planes.map(() => new Float32Array(n));
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const i = y * w + x, j = ((y / s) | 0) * gw + ((x / s) | 0), wt = weight[i];
    cnt[j]++;
    if (wt <= 0) continue;
    wsum[j] += wt;
    for (let c = 0; c < planes.length; c++) small[c][j] += planes[c][i] * wt;
  }
  const known = new Uint8Array(n);
  for (let j = 0; j < n; j++) {
    if (wsum[j] > 0) for (let c = 0; c < planes.length; c++) small[c][j] /= wsum[j];
    known[j] = wsum[j] >= 0.5 * cnt[j] ? 1 : 0;
  }
  const grid = small.map((g) => relax(g, known, gw, gh, iterations));
  return grid.map((g) => {
    const out = new Float32Array(w * h);
    for (let y = 0; y < h; y++) {
      const gy = Math.max(0, Math.min(gh - 1, (y + 0.5) / s - 0.5)), y0 = Math.floor(gy), y1 = Math.min(gh - 1, y0 + 1), fy = gy - y0;
      for (let x = 0; x < w; x++) {
        const gx = Math.max(0, Math.min(gw - 1, (x + 0.5) / s - 0.5)), x0 = Math.floor(gx), x1 = Math.min(gw - 1, x0 + 1), fx = gx - x0;
        out[y * w + x] = (g[y0 * gw + x0] * (1 - fx) + g[y0 * gw + x1] * fx) * (1 - fy) + (g[y1 * gw + x0] * (1 - fx) + g[y1 * gw + x1] * fx) * fy;
      }
    }
    return out;
  });
}

/**
 * Laplace's equation on a grid: `known` cells keep their values, the others take their neighbours' mean.
 * Solved first on a grid half as fine (known where any of its 2x2 cells is), brought up bilinearly as the
 * start, then `iterations` Jacobi sweeps here: each level only has to smooth what the coarser one left.
 */
export function relax(g: Float32Array, known: Uint8Array, gw: number, gh: number, iterations: number): Float32Array {
  const n = gw * gh, out = Float32Array.from(g);
  let anyKnown = false;
  for (let j = 0; j < n; j++) if (known[j]) { anyKnown = true; break; }
  if (!anyKnown) return out.fill(0);
  if (Math.max(gw, gh) > 8) {
    const cw = Math.ceil(gw / 2), ch = Math.ceil(gh / 2);
    const cg = new Float32Array(cw * ch), cn = new Float32Array(cw * ch), ck = new Uint8Array(cw * ch);
    for (let y = 0; y < gh; y++) for (let x = 0; x < gw; x++) {
      const j = y * gw + x;
      if (!known[j]) continue;
      const c = (y >> 1) * cw + (x >> 1);
      cg[c] += g[j]; cn[c]++; ck[c] = 1;
    }
    for (let c = 0; c < cg.length; c++) if (cn[c]) cg[c] /= cn[c];
    const coarse = relax(cg, ck, cw, ch, iterations);
    for (let y = 0; y < gh; y++) {
      const cy = Math.max(0, Math.min(ch - 1, (y - 0.5) / 2)), y0 = Math.floor(cy), y1 = Math.min(ch - 1, y0 + 1), fy = cy - y0;
      for (let x = 0; x < gw; x++) {
        const j = y * gw + x;
        if (known[j]) continue;
        const cx = Math.max(0, Math.min(cw - 1, (x - 0.5) / 2)), x0 = Math.floor(cx), x1 = Math.min(cw - 1, x0 + 1), fx = cx - x0;
        out[j] = (coarse[y0 * cw + x0] * (1 - fx) + coarse[y0 * cw + x1] * fx) * (1 - fy) + (coarse[y1 * cw + x0] * (1 - fx) + coarse[y1 * cw + x1] * fx) * fy;
      }
    }
  }
  const next = new Float32Array(n);
  for (let it = 0; it < iterations; it++) {
    for (let y = 0; y < gh; y++) for (let x = 0; x < gw; x++) {
      const j = y * gw + x;
      if (known[j]) { next[j] = out[j]; continue; }
      let sum = 0, k = 0;
      if (x > 0) { sum += out[j - 1]; k++; }
      if (x < gw - 1) { sum += out[j + 1]; k++; }
      if (y > 0) { sum += out[j - gw]; k++; }
      if (y < gh - 1) { sum += out[j + gw]; k++; }
      next[j] = sum / k;
    }
    out.set(next);
  }
  return out;
}
