/**
 * The photo's own look at the beard's scale, so drawn hair belongs to it: how soft the face's edges are
 * (a soft, defocused or upscaled photo's edges spread over pixels, where the drawn strands were pixel
 * sharp) and how much fine grain its skin holds (a softened beard without the photo's noise reads as a
 * smooth patch on a grainy face).
 */
import { lumaPlane } from '../../image/luma.ts';
import type { RasterImage } from '../../image/raster.ts';
import type { Rect } from '../../image/rect.ts';
import { readWindow } from '../../image/window.ts';
import type { P3 } from '../../vision/regions/uv-map.ts';
import type { FaceParsing } from '../../vision/parsing/face-parsing.ts';
import { parsingPlane } from '../../vision/regions/skin-mask.ts';
import { gauss } from '../../image/gauss.ts';
import { BLUR_COARSE, BLUR_FINE, BLUR_OWN, BLUR_TOP, CAMERA_BLUR, DRAWN_BLUR, GRAIN_SIGMA } from './tuning.ts';

/**
 * The photo's blur at its strongest edges in `area` (x0..x1, y0..y1 exclusive, within the plane), as a
 * Gaussian's standard deviation in pixels. An edge blurred by s has a gradient, measured by a derivative
 * of Gaussian at scale t, of C / sqrt(2π (s² + t²)): the ratio R of the gradients at BLUR_FINE and
 * BLUR_COARSE gives s² = (COARSE² - R² FINE²) / (R² - 1) (the defocus estimate by re-blurring, after Zhuo
 * and Sim 2011), read at the area's strongest edges (eyelids, brows, lip lines, glasses) and taken as their
 * median, less (in quadrature) the BLUR_OWN blur the pixel grid and the differences add: a pixel-sharp step
 * reads 0. NaN with no edges.
 */
export function edgeBlur(luma: Float32Array, w: number, h: number, area: Rect): number {
  const fine = gauss(luma, w, h, BLUR_FINE), coarse = gauss(luma, w, h, BLUR_COARSE);
  const x0 = Math.max(1, area.x0), y0 = Math.max(1, area.y0), x1 = Math.min(w - 1, area.x0 + area.w), y1 = Math.min(h - 1, area.y0 + area.h);
  const grad = (p: Float32Array, i: number) => Math.hypot(p[i + 1] - p[i - 1], p[i + w] - p[i - w]) / 2;
  const at: number[] = [], g: number[] = [];
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) { const i = y * w + x; at.push(i); g.push(grad(fine, i)); }
  if (!g.length) return NaN;
  const order = g.map((_, k) => k).sort((a, b) => g[b] - g[a]);
  const take = Math.max(5, Math.round(BLUR_TOP * g.length));
  const est: number[] = [];
  for (const k of order.slice(0, take)) {
    if (g[k] < 0.01) break;
    const r = g[k] / Math.max(1e-6, grad(coarse, at[k]));
    const r2 = r * r;
    // R tends to BLUR_COARSE / BLUR_FINE for a perfect step, and to 1 for a broad blur.
    est.push(r2 <= 1.0001 ? 8 : Math.sqrt(Math.max(0, (BLUR_COARSE * BLUR_COARSE - r2 * BLUR_FINE * BLUR_FINE) / (r2 - 1))));
  }
  if (!est.length) return NaN;
  est.sort((a, b) => a - b);
  const m = est[est.length >> 1];
  return Math.sqrt(Math.max(0, m * m - BLUR_OWN * BLUR_OWN));
}

/**
 * The fine grain of the photo over `weight` (0..1, e.g. the skin): the robust spread (1.4826 MAD) of the
 * luma's band finer than GRAIN_SIGMA, on pixels weighted 0.5 or more. On a soft photo that is its noise;
 * on a sharp one its noise and the skin's pores.
 */
export function fineGrain(luma: Float32Array, w: number, h: number, weight: Float32Array): number {
  const low = gauss(luma, w, h, GRAIN_SIGMA);
  const v: number[] = [];
  for (let i = 0; i < luma.length; i++) if (weight[i] >= 0.5) v.push(Math.abs(luma[i] - low[i]));
  if (v.length < 50) return 0;
  v.sort((a, b) => a - b);
  return 1.4826 * v[v.length >> 1];
}

/**
 * The drawn hair softened to the photo's blur: `out` (RGB floats) is `under` (the same before drawing) with
 * hair laid at coverage `alpha`; the hair (premultiplied by its coverage) and its coverage are blurred by
 * what the photo's blur `blur` adds to the strands' own, and laid again over `under`. The photo's detail is
 * kept as it was where no hair lies, and hidden where hair covers it: blurring the drawn difference alone
 * (out - under) gave back under's sharp detail through a dense beard (a shirt collar's edges as thin lines).
 */
export function soften(out: Float32Array, under: Float32Array, alpha: Float32Array, w: number, h: number, blur: number): void {
  const s = Math.sqrt(Math.max(0, blur * blur - DRAWN_BLUR * DRAWN_BLUR));
  if (s < 0.3) return;
  const a = gauss(alpha, w, h, s);
  const d = new Float32Array(w * h);
  for (let c = 0; c < 3; c++) {
    for (let i = 0; i < d.length; i++) d[i] = out[i * 3 + c] - under[i * 3 + c] * (1 - alpha[i]);
    const b = gauss(d, w, h, s);
    for (let i = 0; i < d.length; i++) out[i * 3 + c] = under[i * 3 + c] * (1 - a[i]) + b[i];
  }
}

/**
 * The photo's grain given back to the drawn hair: where `alpha` (0..1) is the share of the photo the hair
 * replaced, a seeded luma noise is added so that the hair's fine band reaches `grain` (fineGrain's
 * measure, luma 0..1) — only what it lacks (the hair's own fine band counted, read over alpha ≥ 0.5).
 */
export function addGrain(out: Float32Array, alpha: Float32Array, w: number, h: number, grain: number, rand: () => number): void {
  const n = w * h;
  const own = fineGrain(lumaPlane(out, w, h, 3), w, h, alpha);
  const need = Math.sqrt(Math.max(0, grain * grain - own * own));
  if (need < 0.002) return;
  // Gaussian noise (Box-Muller), scaled so that its own fine band (as fineGrain measures it) is `need`.
  const noise = new Float32Array(n);
  for (let i = 0; i < n; i += 2) {
    const r = Math.sqrt(-2 * Math.log(1 - rand())), t = 2 * Math.PI * rand();
    noise[i] = r * Math.cos(t);
    if (i + 1 < n) noise[i + 1] = r * Math.sin(t);
  }
  const ones = new Float32Array(n).fill(1);
  const k = (255 * need) / Math.max(1e-6, fineGrain(noise, w, h, ones));
  for (let i = 0; i < n; i++) {
    const a = alpha[i];
    if (a <= 0) continue;
    const v = k * a * noise[i];
    out[i * 3] += v; out[i * 3 + 1] += v; out[i * 3 + 2] += v;
  }
}

/**
 * The mesh points that bound the face's features (eye corners and lids, brows, nose tip, mouth corners
 * and lips): their edges are the face's sharpest, at the beard's depth in the photo.
 */
const FEATURES = [33, 133, 159, 145, 263, 362, 386, 374, 70, 105, 107, 300, 334, 336, 1, 61, 291, 0, 17];

export interface PhotoLook {
  /** edgeBlur over the face's features, px (0 where none could be read). */
  blur: number;
  /** fineGrain of the face's skin, luma 0..1. */
  grain: number;
}

/** The photo's blur and grain at a face (parsing's skin for the grain). */
export function photoLook(image: RasterImage, mesh: readonly P3[], parsing: FaceParsing, faceWidth: number): PhotoLook {
  const xs = FEATURES.map((k) => mesh[k][0]), ys = FEATURES.map((k) => mesh[k][1]);
  const m = 0.04 * faceWidth + 4;
  const x0 = Math.max(0, Math.floor(Math.min(...xs) - m)), y0 = Math.max(0, Math.floor(Math.min(...ys) - m));
  const x1 = Math.min(image.width, Math.ceil(Math.max(...xs) + m)), y1 = Math.min(image.height, Math.ceil(Math.max(...ys) + m));
  if (x1 - x0 < 8 || y1 - y0 < 8) return { blur: 0, grain: 0 };
  const win = { x0, y0, w: x1 - x0, h: y1 - y0 };
  const luma = lumaPlane(readWindow(image, win), win.w, win.h, image.channels);
  // The blur read inside a margin the Gaussians' borders cannot reach.
  const blur = edgeBlur(luma, win.w, win.h, { x0: 4, y0: 4, w: win.w - 8, h: win.h - 8 });
  const grain = fineGrain(luma, win.w, win.h, parsingPlane(parsing, ['skin'], win));
  return { blur: Math.max(CAMERA_BLUR, blur === blur ? blur : 0), grain };
}
