/**
 * Skin colour and its two pigments.
 *  - ITA° (individual typology angle, Chardon et al. 1991) = atan((L* - 50) / b*) on clean cheek skin,
 *    in the five classes of the answer (docs/interface.md#skin-analysis: Chardon's very light > 55°,
 *    light > 41°, intermediate > 28°, tan > 10°, brown/dark below).
 *  - Haemoglobin and melanin by optical density (Tsumura et al. 2003): -ln of linear RGB is, per pixel,
 *    melanin·m + haemoglobin·h + shading·(1,1,1) + a constant, with m and h the two pigments' absorbance
 *    directions over a camera's R, G, B bands (melanin falls steadily from blue to red; haemoglobin absorbs
 *    green most and red least). Solving the 3x3 system gives each pigment's density and the shading apart.
 */
import { LINEAR } from '../../../image/colour.ts';

/** Absorbance directions (R, G, B), unit length: melanin, haemoglobin, shading. */
export const MELANIN = normalise([0.44, 0.56, 0.7]);
export const HAEMOGLOBIN = normalise([0.19, 0.74, 0.65]);
const SHADING = normalise([1, 1, 1]);

function normalise(v: number[]): [number, number, number] { const n = Math.hypot(...v); return [v[0] / n, v[1] / n, v[2] / n]; }

/** Inverse of the 3x3 matrix whose columns are m, h, shading. */
const UNMIX = invert3([MELANIN, HAEMOGLOBIN, SHADING]);

function invert3(cols: number[][]): number[][] {
  const [a, b, c] = [[cols[0][0], cols[1][0], cols[2][0]], [cols[0][1], cols[1][1], cols[2][1]], [cols[0][2], cols[1][2], cols[2][2]]];
  const det = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
  return [
    [(b[1] * c[2] - b[2] * c[1]) / det, (a[2] * c[1] - a[1] * c[2]) / det, (a[1] * b[2] - a[2] * b[1]) / det],
    [(b[2] * c[0] - b[0] * c[2]) / det, (a[0] * c[2] - a[2] * c[0]) / det, (a[2] * b[0] - a[0] * b[2]) / det],
    [(b[0] * c[1] - b[1] * c[0]) / det, (a[1] * c[0] - a[0] * c[1]) / det, (a[0] * b[1] - a[1] * b[0]) / det],
  ];
}

export interface Pigments { melanin: Float32Array; haemoglobin: Float32Array; shading: Float32Array }

/** Per-pixel melanin, haemoglobin and shading densities (optical density units) of interleaved RGB. */
export function pigments(rgb: Uint8Array, n: number, channels = 3): Pigments {
  const melanin = new Float32Array(n), haemoglobin = new Float32Array(n), shading = new Float32Array(n);
  const od = new Float32Array(256);
  for (let v = 0; v < 256; v++) od[v] = -Math.log(Math.max(LINEAR[v], 1e-3));
  const [u0, u1, u2] = UNMIX;
  for (let i = 0, j = 0; i < n; i++, j += channels) {
    const r = od[rgb[j]], g = od[rgb[j + 1]], b = od[rgb[j + 2]];
    melanin[i] = u0[0] * r + u0[1] * g + u0[2] * b;
    haemoglobin[i] = u1[0] * r + u1[1] * g + u1[2] * b;
    shading[i] = u2[0] * r + u2[1] * g + u2[2] * b;
  }
  return { melanin, haemoglobin, shading };
}

/** ITA° from L* and b*. */
export const itaOf = (L: number, b: number) => (Math.atan2(L - 50, b) * 180) / Math.PI;

/** Class boundaries, degrees, lightest first: 0 transparent white .. 4 dark. */
export const ITA_BOUNDS = [55, 41, 28, 10] as const;

export function itaClass(ita: number): number {
  const k = ITA_BOUNDS.findIndex((b) => ita > b);
  return k < 0 ? 4 : k;
}

/** How far (degrees) an ITA lies from the nearest class boundary. */
export const itaMargin = (ita: number) => Math.min(...ITA_BOUNDS.map((b) => Math.abs(ita - b)));

/** The plane's values where `mask` ≥ 0.5, sorted (a typed-array sort: numeric and fast). */
export function sortedIn(plane: Float32Array, mask: Float32Array): Float32Array {
  return valuesIn(plane, mask).sort();
}

/** The q-quantile of sorted values (NaN when none). */
export const quantile = (sorted: Float32Array, q: number) =>
  (sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))] : NaN);

/** The k-th smallest of v (0-based), by quickselect: v is reordered, not sorted (one quantile needs no sort). */
export function nth(v: Float32Array, k: number): number {
  let lo = 0, hi = v.length - 1;
  while (lo < hi) {
    const pivot = v[(lo + hi) >> 1];
    let i = lo, j = hi;
    while (i <= j) {
      while (v[i] < pivot) i++;
      while (v[j] > pivot) j--;
      if (i <= j) { const t = v[i]; v[i] = v[j]; v[j] = t; i++; j--; }
    }
    if (k <= j) hi = j; else if (k >= i) lo = i; else return v[k];
  }
  return v[k];
}

/** The plane's values where `mask` ≥ 0.5, unsorted. */
function valuesIn(plane: Float32Array, mask: Float32Array): Float32Array {
  let n = 0;
  for (let i = 0; i < plane.length; i++) if (mask[i] >= 0.5) n++;
  const v = new Float32Array(n);
  for (let i = 0, k = 0; i < plane.length; i++) if (mask[i] >= 0.5) v[k++] = plane[i];
  return v;
}

/** The q-quantile of a plane's values where `mask` ≥ 0.5 (NaN when none), as quantile(sortedIn(...)) gives it. */
export function quantileIn(plane: Float32Array, mask: Float32Array, q: number): number {
  const v = valuesIn(plane, mask);
  return v.length ? nth(v, Math.min(v.length - 1, Math.max(0, Math.round(q * (v.length - 1))))) : NaN;
}

/** Several q-quantiles of a plane's values where `mask` ≥ 0.5 (NaN when none), as quantile(sortedIn(...)) gives each, without a sort. */
export function quantilesIn(plane: Float32Array, mask: Float32Array, qs: readonly number[]): number[] {
  const v = valuesIn(plane, mask);
  return qs.map((q) => (v.length ? nth(v, Math.min(v.length - 1, Math.max(0, Math.round(q * (v.length - 1))))) : NaN));
}

/** Mean of a plane where `mask` ≥ 0.5 and `keep` (optional) holds. */
export function meanIn(plane: Float32Array, mask: Float32Array, keep?: (i: number) => boolean): number {
  let s = 0, n = 0;
  for (let i = 0; i < plane.length; i++) if (mask[i] >= 0.5 && (!keep || keep(i))) { s += plane[i]; n++; }
  return n ? s / n : NaN;
}

export interface DarkCircle {
  /** 0 none, 1 pigmented, 2 vascular, 3 shadow. */
  type: number;
  /** Under-eye minus cheek: L*, and the three densities. */
  dL: number; dMelanin: number; dHaemoglobin: number; dShading: number;
}

/**
 * Dark circles: under-eye skin against cheek skin. Dark when L* is at least `minDrop` lower; typed by
 * which density accounts for most of the darkening: melanin (pigmented), haemoglobin (vascular: blood
 * seen through thin lid skin) or shading (a shadow of the eye's hollow, no change of colour). Each density
 * is weighted by how much it darkens luminance (its direction's green-heavy luminance weight).
 */
export function darkCircle(under: { L: number; m: number; h: number; s: number }, cheek: { L: number; m: number; h: number; s: number }, minDrop = 3): DarkCircle {
  const dL = under.L - cheek.L, dm = under.m - cheek.m, dh = under.h - cheek.h, ds = under.s - cheek.s;
  const lum = (v: readonly number[]) => 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
  const shares = [dm * lum(MELANIN), dh * lum(HAEMOGLOBIN), ds * lum(SHADING)];
  let type = 0;
  if (dL <= -minDrop) type = 1 + shares.indexOf(Math.max(...shares));
  return { type, dL, dMelanin: dm, dHaemoglobin: dh, dShading: ds };
}
