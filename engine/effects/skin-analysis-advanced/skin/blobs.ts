/**
 * Round spots and bumps as blobs: extrema of the scale-normalised Laplacian of Gaussian (Lindeberg 1998)
 * over space and scale, each then measured directly on the skin: the mean L*, a*, b* inside its radius
 * against a ring around it (contrast), the radius at which the plane searched crosses half-way along eight
 * rays from the sub-pixel centre (roundness: how alike those radii are), how wide that crossing is (edge
 * sharpness) and how alone the blob stands (isolation: its contrast against the least different quarter of
 * its ring).
 */
import { gauss as blurPlane, zoneSpans } from '../../../image/gauss.ts';
import { nth } from './pigment.ts';

export interface Blob {
  /** Centre and radius, frame pixels. */
  x: number; y: number; r: number;
  /** Disc minus ring: L*, a*, b*. */
  dL: number; da: number; db: number;
  /** 1 - relative spread of the eight half-way radii (1: a circle). */
  roundness: number;
  /** Mean width of the edge (25 % to 75 % of the step) along the rays, in pixels. */
  edge: number;
  /** LoG response at the blob's scale (σ²∇², L* units): its detection strength. */
  response: number;
  /** Contrast against the least different quarter of the ring over that against the whole (isolation()). */
  isolation: number;
}

export interface BlobQuery {
  /** Radii to look at, frame pixels (σ = r/√2); those giving σ < 0.6 px are dropped. */
  radii: readonly number[];
  /** 'dark' finds blobs darker than around them, 'bright' lighter ones. */
  polarity: 'dark' | 'bright';
  /** Least |LoG response| (a Gaussian blob of contrast c responds c/2). */
  minResponse: number;
  /** Blob centres must lie where this plane is ≥ 0.5, and most of their ring too. */
  zone: Float32Array;
  /** The plane searched (default lab.L); blobs are measured on lab either way. */
  detect?: Float32Array;
  /**
   * A blob must also stand this many robust standard deviations (1.4826 x median |response|, over the
   * zone) above the skin's own texture at its scale: what counts as a spot adapts to grain, noise and JPEG.
   * One number for every scale, or one per radius.
   */
  noise?: number | readonly number[];
  /**
   * How many measured blobs may overlap one another (default 1: the strongest of overlapping ones only).
   * More lets a caller that classifies them fall back on a weaker one where the strongest is no kind.
   */
  layers?: number;
}

/** Robust spread of a response plane over a zone (every 3rd pixel). */
export function robustSpread(R: Float32Array, zone: Float32Array): number {
  let n = 0;
  for (let i = 0; i < R.length; i += 3) if (zone[i] >= 0.5) n++;
  if (!n) return 0;
  const v = new Float32Array(n);
  for (let i = 0, k = 0; i < R.length; i += 3) if (zone[i] >= 0.5) v[k++] = Math.abs(R[i]);
  return 1.4826 * nth(v, n >> 1);
}

export interface LabFrame { L: Float32Array; a: Float32Array; b: Float32Array; w: number; h: number }

/** Scale-space extrema of the LoG on lab.L, measured; overlapping ones keep the strongest. */
export function findBlobs(lab: LabFrame, q: BlobQuery): Blob[] {
  const { w, h } = lab;
  const L = q.detect ?? lab.L;
  const keep = q.radii.map((r) => r / Math.SQRT2 >= 0.6);
  const radii = q.radii.filter((_, k) => keep[k]);
  const noise = typeof q.noise === 'object' ? q.noise.filter((_, k) => keep[k]) : radii.map(() => (q.noise as number | undefined) ?? 0);
  const sign = q.polarity === 'dark' ? 1 : -1;
  // The responses are read only in the zone and one pixel around it (the scan and its neighbours, the
  // noise spread): computed only there, from blurs computed one pixel further.
  const near = zoneSpans(q.zone, w, h, 1), reach = zoneSpans(q.zone, w, h, 2);
  const resp = radii.map((r) => {
    const s = r / Math.SQRT2, g = blurPlane(L, w, h, s, reach), out = new Float32Array(w * h), n = s * s * sign;
    for (let y = 1; y < h - 1; y++) {
      const xb = Math.min(w - 2, near.hi[y]);
      for (let x = Math.max(1, near.lo[y]), i = y * w + x; x <= xb; x++, i++) out[i] = n * (g[i - 1] + g[i + 1] + g[i - w] + g[i + w] - 4 * g[i]);
    }
    return out;
  });
  // Candidates first; the strongest of overlapping ones is measured (measuring is the costly part).
  const cand: { x: number; y: number; k: number; v: number }[] = [];
  for (let k = 0; k < radii.length; k++) {
    const R = resp[k], border = Math.ceil(radii[k]) + 1;
    const min = Math.max(q.minResponse, noise[k] * robustSpread(R, q.zone));
    for (let y = border; y < h - border; y++) {
      const xb = Math.min(w - border - 1, near.hi[y]);
      for (let x = Math.max(border, near.lo[y]), i = y * w + x; x <= xb; x++, i++) {
        const v = R[i];
        if (v < min || q.zone[i] < 0.5) continue;
        let max = true;
        for (let kk = Math.max(0, k - 1); kk <= Math.min(radii.length - 1, k + 1) && max; kk++) {
          const P = resp[kk];
          for (let dy = -1; dy <= 1 && max; dy++) for (let dx = -1; dx <= 1; dx++) {
            if (kk === k && dx === 0 && dy === 0) continue;
            if (P[i + dy * w + dx] > v) { max = false; break; }
          }
        }
        if (max) cand.push({ x, y, k, v });
      }
    }
  }
  cand.sort((a, b) => b.v * radii[b.k] - a.v * radii[a.k]);
  const kept: Blob[] = [];
  for (const c of cand) {
    const r = radii[c.k];
    if (kept.filter((k) => Math.hypot(k.x - c.x, k.y - c.y) < Math.max(k.r, r)).length >= (q.layers ?? 1)) continue;
    const b = measureBlob(lab, q.zone, c.x, c.y, r, c.v, L);
    // The Laplacian's side lobes ring a strong blob with weaker ones of the other polarity: a blob must
    // also be darker (or lighter) than its ring on the plane searched.
    if (b && sign * ringContrast(L, w, h, c.x, c.y, r) < 0) kept.push(b);
  }
  return kept;
}

// Distances per pixel are Math.sqrt of the squares: Math.hypot (overflow-safe, for any number of
// arguments) cost 4x as much in these loops, for nothing at a few pixels.

/** Disc mean minus ring median (1.5r..2.5r) of one plane: the median ignores a neighbour in the ring. */
export function ringContrast(P: Float32Array, w: number, h: number, cx: number, cy: number, r: number): number {
  const R = Math.ceil(2.5 * r);
  let dn = 0, ds = 0;
  const ring: number[] = [];
  for (let y = Math.max(0, cy - R); y <= Math.min(h - 1, cy + R); y++) {
    for (let x = Math.max(0, cx - R); x <= Math.min(w - 1, cx + R); x++) {
      const dx = x - cx, dy = y - cy, d = Math.sqrt(dx * dx + dy * dy), v = P[y * w + x];
      if (d <= r) { dn++; ds += v; } else if (d >= 1.5 * r && d <= 2.5 * r) ring.push(v);
    }
  }
  if (!dn || !ring.length) return 0;
  ring.sort((a, b) => a - b);
  return ds / dn - ring[ring.length >> 1];
}

/**
 * Disc and ring means, rays; null where the ring leaves the zone (an edge, not a blob). Colour contrasts
 * are measured on lab; the shape (rays, isolation) on `shape`, the plane the blob was found on: a red bump
 * barely changes L*, and its outline read on L* was noise.
 */
export function measureBlob(lab: LabFrame, zone: Float32Array, cx: number, cy: number, r: number, response: number, shape: Float32Array = lab.L): Blob | null {
  const { w, h, L, a, b } = lab;
  const S = shape;
  const R = Math.ceil(2.5 * r);
  let dn = 0, dl = 0, dA = 0, dB = 0, dS = 0, rn = 0, rl = 0, rA = 0, rB = 0, rS = 0, inZone = 0;
  for (let y = Math.max(0, cy - R); y <= Math.min(h - 1, cy + R); y++) {
    for (let x = Math.max(0, cx - R); x <= Math.min(w - 1, cx + R); x++) {
      const dx = x - cx, dy = y - cy, d = Math.sqrt(dx * dx + dy * dy), i = y * w + x;
      if (d <= r) { dn++; dl += L[i]; dA += a[i]; dB += b[i]; dS += S[i]; }
      else if (d >= 1.5 * r && d <= 2.5 * r) { rn++; if (zone[i] >= 0.5) { inZone++; rl += L[i]; rA += a[i]; rB += b[i]; rS += S[i]; } }
    }
  }
  if (dn === 0 || inZone < 0.8 * rn || inZone === 0) return null;
  const Sc = dS / dn, Sr = rS / inZone, shapeStep = Sc - Sr;
  // The centre to sub-pixel: the centroid of the disc's contrast against the ring (a blob of 1 mm is 3-6 px
  // across, and rays from a pixel beside its centre make a round blob look lopsided).
  let mx = 0, my = 0, mw = 0;
  for (let y = Math.max(0, Math.floor(cy - r)); y <= Math.min(h - 1, Math.ceil(cy + r)); y++) {
    for (let x = Math.max(0, Math.floor(cx - r)); x <= Math.min(w - 1, Math.ceil(cx + r)); x++) {
      const dx = x - cx, dy = y - cy;
      if (Math.sqrt(dx * dx + dy * dy) > r) continue;
      const v = Math.max(0, Math.sign(shapeStep) * (S[y * w + x] - Sr));
      mx += v * x; my += v * y; mw += v;
    }
  }
  const ox = mw > 0 ? mx / mw : cx, oy = mw > 0 ? my / mw : cy;
  // Rays: where the shape plane crosses 25 %, 50 %, 75 % of the way from the centre's value to the ring's,
  // sampled bilinearly every 0.25 px and interpolated between samples.
  const radiiHalf: number[] = [], edges: number[] = [];
  const at = (x: number, y: number) => {
    const x0 = Math.max(0, Math.min(w - 2, Math.floor(x))), y0 = Math.max(0, Math.min(h - 2, Math.floor(y))), tx = x - x0, ty = y - y0, i = y0 * w + x0;
    return (S[i] * (1 - tx) + S[i + 1] * tx) * (1 - ty) + (S[i + w] * (1 - tx) + S[i + w + 1] * tx) * ty;
  };
  const S0 = at(ox, oy), span = Sr - S0;
  for (let k = 0; k < 8; k++) {
    const ux = Math.cos((k * Math.PI) / 4), uy = Math.sin((k * Math.PI) / 4);
    const cross = [-1, -1, -1], levels = [0.25, 0.5, 0.75];
    let prev = 0;
    for (let t = 0.25; t <= 2.5 * r; t += 0.25) {
      const x = ox + ux * t, y = oy + uy * t;
      if (x < 0 || y < 0 || x > w - 1 || y > h - 1) break;
      const f = Math.abs(span) < 1e-3 ? 1 : (at(x, y) - S0) / span;
      for (let j = 0; j < 3; j++) if (cross[j] < 0 && f >= levels[j]) cross[j] = t - (0.25 * (f - levels[j])) / Math.max(1e-6, f - prev);
      prev = f;
      if (cross[2] >= 0) break;
    }
    radiiHalf.push(cross[1] < 0 ? 2.5 * r : cross[1]);
    edges.push(cross[0] < 0 || cross[2] < 0 ? 2.5 * r : cross[2] - cross[0]);
  }
  const mean = radiiHalf.reduce((s, v) => s + v, 0) / 8;
  const sd = Math.sqrt(radiiHalf.reduce((s, v) => s + (v - mean) ** 2, 0) / 8);
  return {
    x: cx, y: cy, r, dL: dl / dn - rl / inZone, da: dA / dn - rA / inZone, db: dB / dn - rB / inZone,
    roundness: mean > 0 ? Math.max(0, 1 - sd / mean) : 0, edge: edges.reduce((s, v) => s + v, 0) / 8, response,
    isolation: isolation(S, zone, w, h, cx, cy, r, Sc, shapeStep),
  };
}

/**
 * How alone a blob stands: its contrast against the least different quarter of its ring (1.5r..2.5r), as
 * a share of its contrast against the whole ring. 1 for a bump on even skin; near 0 or below for the skin
 * left between darker things (a gap beside a mole or along a line is lighter than some of its ring only).
 */
export function isolation(P: Float32Array, zone: Float32Array, w: number, h: number, cx: number, cy: number, r: number, Pc: number, step: number): number {
  const R = Math.ceil(2.5 * r), sum = [0, 0, 0, 0], n = [0, 0, 0, 0];
  for (let y = Math.max(0, cy - R); y <= Math.min(h - 1, cy + R); y++) {
    for (let x = Math.max(0, cx - R); x <= Math.min(w - 1, cx + R); x++) {
      const dx = x - cx, dy = y - cy, d = Math.sqrt(dx * dx + dy * dy), i = y * w + x;
      if (d < 1.5 * r || d > 2.5 * r || zone[i] < 0.5) continue;
      const q = Math.abs(dx) >= Math.abs(dy) ? (dx > 0 ? 0 : 2) : (dy > 0 ? 1 : 3);
      sum[q] += P[i]; n[q]++;
    }
  }
  if (Math.abs(step) < 1e-3) return 0;
  let least = Infinity;
  for (let q = 0; q < 4; q++) if (n[q]) least = Math.min(least, (Pc - sum[q] / n[q]) / step);
  return Number.isFinite(least) ? least : 0;
}

/** Blobs whose centre lies in a zone (plane ≥ 0.5). */
export const blobsIn = (blobs: readonly Blob[], zone: Float32Array, w: number) => blobs.filter((b) => zone[b.y * w + b.x] >= 0.5);
