/**
 * Which strands go: a seeded noise stretched along the hair's direction, so that a loss of 30 % removes
 * 30 % of the strands (thin bright gaps running along the hair) instead of fading the hair uniformly.
 *
 * Strands fan out from a point below the face (in the head frame), as hair combed up and back from the
 * hairline does: upright over the forehead, leaning outward on the sides. The noise is value noise on a
 * lattice much longer along a strand than across it, two scales (fine strands and the clumps they lie in),
 * equalised over the window so its values are uniform in 0..1: a strand is lost where noise < loss.
 */
import { blurPlane, maskedBlur } from '../../image/frequency.ts';
import { FLOW, KEEP_TEXTURE, STRAND_EDGE } from './tuning.ts';

/** Deterministic hash of a lattice point and the seed to 0..1 (a 32-bit integer mix, after Wang/Jenkins). */
export function hash2(ix: number, iy: number, seed: number): number {
  let h = (Math.imul(ix, 0x27d4eb2d) ^ Math.imul(iy, 0x165667b1) ^ Math.imul(seed, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/** Smooth value noise at (x, y) in lattice units, 0..1. */
export function valueNoise(x: number, y: number, seed: number): number {
  const ix = Math.floor(x), iy = Math.floor(y), fx = x - ix, fy = y - iy;
  const sx = fx * fx * (3 - 2 * fx), sy = fy * fy * (3 - 2 * fy);
  const a = hash2(ix, iy, seed), b = hash2(ix + 1, iy, seed), c = hash2(ix, iy + 1, seed), d = hash2(ix + 1, iy + 1, seed);
  return a + (b - a) * sx + (c - a) * sy + (a - b - c + d) * sx * sy;
}

export interface StrandScale {
  /** Strand spacing across the hair, pixels (the fine octave), and the clumps' spacing. */
  strand: number; clump: number;
  /** How many times longer than wide a strand's noise cell is. */
  stretch: number;
}

/** Strand scale for a face `faceWidth` pixels wide: fine strands of a face 400 px wide are about 2.4 px apart. */
export const strandScale = (faceWidth: number): StrandScale => ({
  strand: Math.max(1.6, 0.006 * faceWidth), clump: Math.max(5, 0.03 * faceWidth), stretch: 5,
});

/**
 * The scale of single hairs (half strandScale's spacing on a large face, and longer): where a receding
 * hairline thins out, what stays in front of the dense hair is single thin hairs running back into it.
 * Ranked by the hair's own texture or by strandScale's noise, the hair left there came back as blobs with
 * sawtooth edges (a cut-out with bites, not hair thinning out).
 */
export const fibreScale = (faceWidth: number): StrandScale => ({
  strand: Math.max(1.6, 0.003 * faceWidth), clump: Math.max(5, 0.03 * faceWidth), stretch: 8,
});

/**
 * Noise over a window, one value per pixel, uniform in 0..1 after equalisation. `across` and `along` give each
 * pixel's position across and along the strands in pixels.
 */
export function strandNoise(across: Float32Array, along: Float32Array, scale: StrandScale, seed: number): Float32Array {
  const n = across.length, out = new Float32Array(n);
  const fa = 1 / scale.strand, fl = 1 / (scale.strand * scale.stretch);
  const ca = 1 / scale.clump, cl = 1 / (scale.clump * scale.stretch * 0.6);
  for (let i = 0; i < n; i++) {
    const a = across[i], l = along[i];
    out[i] = 0.55 * valueNoise(a * fa, l * fl, seed) + 0.3 * valueNoise(a * ca, l * cl, seed + 1) + 0.15 * valueNoise(a * fa * 2.1, l * fl * 1.7, seed + 2);
  }
  return equalise(out);
}

/** Rank-maps values to uniform 0..1 (a 2048-bin histogram). */
export function equalise(v: Float32Array): Float32Array {
  const BINS = 2048;
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < v.length; i++) { if (v[i] < lo) lo = v[i]; if (v[i] > hi) hi = v[i]; }
  if (!(hi > lo)) return v.fill(0.5);
  const k = (BINS - 1) / (hi - lo), hist = new Float64Array(BINS);
  for (let i = 0; i < v.length; i++) hist[Math.round((v[i] - lo) * k)]++;
  // Each bin maps to the middle of its rank range.
  const cdf = new Float32Array(BINS);
  let run = 0;
  for (let b = 0; b < BINS; b++) { cdf[b] = (run + hist[b] / 2) / v.length; run += hist[b]; }
  for (let i = 0; i < v.length; i++) v[i] = cdf[Math.round((v[i] - lo) * k)];
  return v;
}

/**
 * How much of a pixel's hair is gone: 0 at no loss whatever the noise, 1 at full loss, in between 1 where the
 * noise lies below the loss (with a soft edge). Grows with `loss` for any noise value.
 */
export const strandGone = (loss: number, noise: number, soft = STRAND_EDGE): number => {
  const t = (loss * (1 + soft) - noise) / soft;
  return t <= 0 ? 0 : t >= 1 ? 1 : t;
};

/**
 * Which of the hair's own pixels hold on longest, 0..1 (uniform over the `weight` > 0 pixels): the hair's
 * fine luminance band, normalised by its local contrast, ranked dark to light and mixed with a little of the
 * strand noise. Dark strands rank high (kept) and the lighter gaps and sheen between them low (they go
 * first and show the scalp), so thinned hair keeps its own strands instead of lines drawn across it.
 * `sigma` is about a strand's width in pixels.
 */
export function strandKeep(L: Float32Array, weight: Float32Array, noise: Float32Array, w: number, h: number, sigma: number, texture = KEEP_TEXTURE): Float32Array {
  const n = w * h;
  const low = blurPlane(L, w, h, 2 * sigma);
  const hp = new Float32Array(n), sq = new Float32Array(n);
  for (let i = 0; i < n; i++) { hp[i] = L[i] - low[i]; sq[i] = hp[i] * hp[i]; }
  const local = blurPlane(sq, w, h, 6 * sigma);
  const idx: number[] = [];
  for (let i = 0; i < n; i++) if (weight[i] > 0) idx.push(i);
  const z = new Float32Array(idx.length);
  for (let k = 0; k < idx.length; k++) {
    const i = idx[k];
    z[k] = -hp[i] / (Math.sqrt(Math.max(0, local[i])) + 0.8);
  }
  equalise(z);
  for (let k = 0; k < idx.length; k++) z[k] = texture * z[k] + (1 - texture) * noise[idx[k]];
  equalise(z);
  const out = new Float32Array(n).fill(0.5);
  for (let k = 0; k < idx.length; k++) out[idx[k]] = z[k];
  return out;
}

/**
 * The loss smoothed over the hair (a Gaussian of `sigma` pixels, normalised over the pixels whose `weight`
 * is set; the others keep theirs): the stage's field, its wander and the fringe's reach meet in corners,
 * which came back as angular bites out of the hair. A weighted mean of a larger field is larger, so the
 * stages stay ordered.
 */
export function smoothLoss(loss: Float32Array, weight: Float32Array, w: number, h: number, sigma: number): Float32Array {
  const out = maskedBlur(loss, weight, w, h, sigma);
  for (let i = 0; i < out.length; i++) if (!(weight[i] > 0)) out[i] = loss[i];
  return out;
}

/**
 * Strand noise that runs along the hair's own flow, uniform in 0..1: white noise a strand wide averaged along
 * the streamlines of the hair's orientation (line integral convolution). The orientation is the structure
 * tensor's of the hair's lightness, pulled toward `toward` (unit x, y per pixel: the frame's strands, fanning
 * out from below the face) where the hair shows no direction of its own. The frame's fan alone crossed hair
 * combed back over the sides: strands cut across the hair's flow read as printed dashes at the horseshoe's top.
 */
export function flowNoise(L: Float32Array, tx: Float32Array, ty: Float32Array, w: number, h: number, scale: StrandScale, seed: number, field = flowField(L, tx, ty, w, h, scale)): Float32Array {
  const n = w * h, s = Math.max(0.8, scale.strand / 2);
  const { dx, dy } = field;
  const white = new Float32Array(n);
  for (let y = 0, i = 0; y < h; y++) for (let x = 0; x < w; x++, i++) white[i] = hash2(x, y, seed + 5);
  const grain = blurPlane(white, w, h, s * 0.6);
  return equalise(alongFlow(grain, null, dx, dy, w, h, Math.max(3, Math.round(scale.strand * scale.stretch))));
}

/**
 * The hair's flow per pixel (unit dx, dy; no sign): across the dominant gradient of the structure tensor of
 * the hair's lightness, pulled toward the frame's strands `toward` (tx, ty) where the hair shows no direction.
 */
export function flowField(L: Float32Array, tx: Float32Array, ty: Float32Array, w: number, h: number, scale: StrandScale): { dx: Float32Array; dy: Float32Array } {
  const n = w * h, s = Math.max(0.8, scale.strand / 2);
  const b = blurPlane(L, w, h, s);
  const xx = new Float32Array(n), xy = new Float32Array(n), yy = new Float32Array(n);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const i = y * w + x;
    const gx = (b[x < w - 1 ? i + 1 : i] - b[x > 0 ? i - 1 : i]) / 2, gy = (b[y < h - 1 ? i + w : i] - b[y > 0 ? i - w : i]) / 2;
    xx[i] = gx * gx; xy[i] = gx * gy; yy[i] = gy * gy;
  }
  const R = FLOW.tensor * scale.strand;
  const jxx = blurPlane(xx, w, h, R), jxy = blurPlane(xy, w, h, R), jyy = blurPlane(yy, w, h, R);
  let trace = 0;
  for (let i = 0; i < n; i++) trace += jxx[i] + jyy[i];
  const mu = (FLOW.prior * trace) / n;
  const dx = new Float32Array(n), dy = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    // The prior's gradient runs across the frame's strand: (-ty, tx).
    const px = -ty[i], py = tx[i];
    const a = jxx[i] + mu * px * px, c = jxy[i] + mu * px * py, d = jyy[i] + mu * py * py;
    const phi = 0.5 * Math.atan2(2 * c, a - d);
    dx[i] = -Math.sin(phi); dy[i] = Math.cos(phi);
  }
  return { dx, dy };
}

/**
 * `plane` averaged along the flow's streamlines through each pixel, `K` pixels either way with weights
 * falling linearly (line integral convolution); with `weight`, only over the pixels it holds (the others
 * keep their value).
 */
export function alongFlow(plane: Float32Array, weight: Float32Array | null, dx: Float32Array, dy: Float32Array, w: number, h: number, K: number): Float32Array {
  const out = new Float32Array(w * h);
  for (let y = 0, i = 0; y < h; y++) for (let x = 0; x < w; x++, i++) {
    if (weight && !(weight[i] > 0)) { out[i] = plane[i]; continue; }
    let sum = plane[i], wsum = 1;
    for (let sign = 1; sign >= -1; sign -= 2) {
      let px = x + 0.5, py = y + 0.5, ux = dx[i] * sign, uy = dy[i] * sign;
      for (let k = 1; k <= K; k++) {
        px += ux; py += uy;
        const qx = Math.floor(px), qy = Math.floor(py);
        if (qx < 0 || qy < 0 || qx >= w || qy >= h) break;
        const j = qy * w + qx, wt = (1 - k / (K + 1)) * (weight ? weight[j] : 1);
        sum += plane[j] * wt; wsum += wt;
        // Follow the field, keeping the way on (the orientation has no sign).
        let nx = dx[j], ny = dy[j];
        if (nx * ux + ny * uy < 0) { nx = -nx; ny = -ny; }
        ux = nx; uy = ny;
      }
    }
    out[i] = sum / wsum;
  }
  return out;
}
