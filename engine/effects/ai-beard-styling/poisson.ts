/**
 * Gradient-domain (Poisson) blending, Pérez et al. 2003: inside a region the result keeps the source's
 * gradients (its texture and edges) and meets the destination at the region's border, so a patch carried
 * from another photo takes on this photo's tone without a seam. Written as the source plus a correction
 * that is harmonic inside the region and equal to (destination - source) outside it; the correction is
 * solved coarse to fine (each level starts from the one below, then Gauss-Seidel with over-relaxation), so
 * a region of a few hundred pixels across costs tens of sweeps rather than thousands.
 */

/** Over-relaxation factor of the sweeps (1 = Gauss-Seidel); 1.8-1.9 is the usual choice for Laplace's equation. */
const OMEGA = 1.85;
/** Sweeps per pyramid level, and at the coarsest level (where the region is small). */
const SWEEPS = 40;
const COARSE_SWEEPS = 400;
/** A level stops halving below this side. */
const MIN_SIDE = 12;

/**
 * Fills the unknown pixels (known[i] = 0) of `d` (w x h) with the harmonic interpolation of the known ones
 * (Laplace's equation; the window's edge is a free boundary). Pixels with no known pixel connected stay 0.
 */
export function solveHarmonic(d: Float32Array, known: Uint8Array, w: number, h: number): void {
  let unknown = 0;
  for (let i = 0; i < known.length; i++) if (!known[i]) unknown++;
  if (unknown === 0) return;
  const coarse = Math.min(w, h) >= 2 * MIN_SIDE && unknown > 64;
  if (coarse) {
    // The level below: a 2x2 block is known when any pixel of it is, with their mean.
    const w2 = Math.ceil(w / 2), h2 = Math.ceil(h / 2);
    const d2 = new Float32Array(w2 * h2), k2 = new Uint8Array(w2 * h2);
    for (let y = 0; y < h2; y++) {
      for (let x = 0; x < w2; x++) {
        let s = 0, n = 0;
        for (let dy = 0; dy < 2; dy++) {
          for (let dx = 0; dx < 2; dx++) {
            const X = 2 * x + dx, Y = 2 * y + dy;
            if (X < w && Y < h && known[Y * w + X]) { s += d[Y * w + X]; n++; }
          }
        }
        if (n) { d2[y * w2 + x] = s / n; k2[y * w2 + x] = 1; }
      }
    }
    solveHarmonic(d2, k2, w2, h2);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        if (!known[i]) d[i] = bilinear(d2, w2, h2, (x + 0.5) / 2 - 0.5, (y + 0.5) / 2 - 0.5);
      }
    }
  }
  sweep(d, known, w, h, coarse ? SWEEPS : COARSE_SWEEPS);
}

function bilinear(p: Float32Array, w: number, h: number, x: number, y: number): number {
  x = Math.min(w - 1, Math.max(0, x)); y = Math.min(h - 1, Math.max(0, y));
  const x0 = Math.floor(x), y0 = Math.floor(y), x1 = Math.min(w - 1, x0 + 1), y1 = Math.min(h - 1, y0 + 1);
  const fx = x - x0, fy = y - y0;
  return (p[y0 * w + x0] * (1 - fx) + p[y0 * w + x1] * fx) * (1 - fy) + (p[y1 * w + x0] * (1 - fx) + p[y1 * w + x1] * fx) * fy;
}

/** SOR sweeps over the unknown pixels; only the unknown pixels' box is visited. */
function sweep(d: Float32Array, known: Uint8Array, w: number, h: number, sweeps: number) {
  let x0 = w, y0 = h, x1 = -1, y1 = -1;
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (!known[y * w + x]) { if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; y1 = y; }
  for (let s = 0; s < sweeps; s++) {
    let change = 0;
    for (let y = y0; y <= y1; y++) {
      for (let x = x0, i = y * w + x0; x <= x1; x++, i++) {
        if (known[i]) continue;
        let sum = 0, n = 0;
        if (x > 0) { sum += d[i - 1]; n++; }
        if (x < w - 1) { sum += d[i + 1]; n++; }
        if (y > 0) { sum += d[i - w]; n++; }
        if (y < h - 1) { sum += d[i + w]; n++; }
        const next = d[i] + OMEGA * (sum / n - d[i]);
        change = Math.max(change, Math.abs(next - d[i]));
        d[i] = next;
      }
    }
    if (change < 0.01) break;
  }
}

/**
 * Poisson blend of `src` into `dst` where `inside` is set: both w x h planes with `channels` interleaved
 * values (any scale). Returns the blended planes; outside the region they are `dst`'s. With `trusted`, only
 * the outside pixels it marks set the border (where the two photos show the same kind of surface); the
 * others are left free, so a background that differs between them does not pull the region's tone.
 */
export function poissonBlend(dst: Float32Array, src: Float32Array, inside: Uint8Array, w: number, h: number, channels: number, trusted?: Uint8Array): Float32Array {
  const out = Float32Array.from(dst);
  const known = new Uint8Array(w * h);
  for (let i = 0; i < known.length; i++) known[i] = inside[i] || (trusted && !trusted[i]) ? 0 : 1;
  const d = new Float32Array(w * h);
  for (let c = 0; c < channels; c++) {
    for (let i = 0; i < d.length; i++) d[i] = known[i] ? dst[i * channels + c] - src[i * channels + c] : 0;
    solveHarmonic(d, known, w, h);
    for (let i = 0; i < d.length; i++) if (!known[i]) out[i * channels + c] = src[i * channels + c] + d[i];
  }
  return out;
}
