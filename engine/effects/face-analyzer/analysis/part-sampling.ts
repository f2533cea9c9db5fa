/**
 * Where the part measures read the photo: a lattice of the parsing window's pixels, the colours at its
 * points, and the hair in face coordinates over a window taller than the parsing's.
 */
import type { RasterImage } from '../../../image/raster.ts';
import { toLabInterleaved } from '../../../image/colour.ts';
import type { Mask } from '../../../image/mask.ts';
import type { Rect } from '../../../image/rect.ts';
import type { ImageLattice } from '../../../vision/parsing/face-parsing.ts';
import { PARTS_SAMPLES } from '../tuning.ts';
import type { Lab } from './part-features.ts';

/**
 * The window pixels the measures read: on a large face every `step`-th pixel in each direction, which keeps
 * the sample counts bounded (about 30 000), as image columns and rows. A parsing taken at these points only
 * (parseFaceAt) measures the same as a full one (PARTS_SAMPLES).
 */
export function partsLattice(win: Rect): ImageLattice {
  const step = Math.max(1, Math.round(Math.sqrt((win.w * win.h) / PARTS_SAMPLES)));
  const cols: number[] = [], rows: number[] = [];
  for (let x = 0; x < win.w; x += step) cols.push(win.x0 + x);
  for (let y = 0; y < win.h; y += step) rows.push(win.y0 + y);
  return { cols: Int32Array.from(cols), rows: Int32Array.from(rows) };
}

/** The first index of an ascending list whose value is at least v (the list's length if none). */
export function firstAtLeast(list: Int32Array, v: number): number {
  let lo = 0, hi = list.length;
  while (lo < hi) { const m = (lo + hi) >> 1; if (list[m] < v) lo = m + 1; else hi = m; }
  return lo;
}

/** Rec. 601 luma (0..255) of an image pixel, the coordinates clamped to the image. */
export function lumaAt(image: RasterImage, x: number, y: number): number {
  const xx = Math.min(image.width - 1, Math.max(0, x)), yy = Math.min(image.height - 1, Math.max(0, y));
  const k = (yy * image.width + xx) * image.channels, d = image.data;
  return image.channels < 3 ? d[k] : 0.299 * d[k] + 0.587 * d[k + 1] + 0.114 * d[k + 2];
}

/**
 * Grain at a pixel: how far its luma departs from the mean of its four neighbours r pixels away, over that
 * mean (at least 8, so a black patch's noise does not count as much): hair strands are grainy at a few
 * pixels, skin and smooth shadows are not.
 */
export function grainAt(image: RasterImage, x: number, y: number, r: number): number {
  const m = (lumaAt(image, x - r, y) + lumaAt(image, x + r, y) + lumaAt(image, x, y - r) + lumaAt(image, x, y + r)) / 4;
  return Math.abs(lumaAt(image, x, y) - m) / Math.max(8, m);
}

/** RGB at the lattice's points, 3 channels. */
export function latticeRgb(image: RasterImage, at: ImageLattice): Uint8Array {
  const ch = image.channels, nx = at.cols.length, out = new Uint8Array(nx * at.rows.length * 3);
  for (let q = 0; q < at.rows.length; q++) for (let k = 0; k < nx; k++) {
    const s = (at.rows[q] * image.width + at.cols[k]) * ch, d = (q * nx + k) * 3;
    out[d] = image.data[s]; out[d + 1] = image.data[s + 1]; out[d + 2] = image.data[s + 2];
  }
  return out;
}

/**
 * Hair in face coordinates: the hair mask over u in [-1.5, 1.5], v in [-1.3, 3] (face widths), sampled on a
 * grid of about 0.02 face widths; without a mask, the parser's hair over its window.
 */
export function hairSampler(hair: Mask | undefined, local: (x: number, y: number) => [number, number], image: RasterImage, W: number,
  parserHair: (i: number) => number, win: Rect, grid: ImageLattice) {
  // Without a mask the parser's hair is read at the nearest lattice point (the pixel itself when the lattice is every pixel).
  const nx = grid.cols.length, ny = grid.rows.length;
  const step = nx > 1 ? grid.cols[1] - grid.cols[0] : 1;
  const stepPx = Math.max(1, 0.02 * W);
  // Invert the frame by sampling the image on a grid around the face, keeping points inside the u, v window.
  const c = local(0, 0), cx1 = local(1, 0), cy1 = local(0, 1);
  const du = [cx1[0] - c[0], cx1[1] - c[1]], dv = [cy1[0] - c[0], cy1[1] - c[1]];
  const detI = du[0] * dv[1] - du[1] * dv[0] || 1;
  const k = stepPx / W;
  // The grid's points: face coordinates, hair, pixel offset in the image, in typed arrays sized by counting
  // the loops' steps (the same float steps as the loops below).
  let nu = 0, nv = 0;
  for (let u = -1.5; u <= 1.5; u += k) nu++;
  for (let v = -1.3; v <= 3; v += k) nv++;
  const us = new Float64Array(nu * nv), vs = new Float64Array(nu * nv), hs = new Float64Array(nu * nv), offsets = new Int32Array(nu * nv);
  let m = 0;
  const [c0, c1] = c, [du0, du1] = du, [dv0, dv1] = dv;
  // The mask may be smaller than the image (the analyzer's is at the hair mask's work size): read it to scale.
  const hx = hair ? hair.width / image.width : 1, hy = hair ? hair.height / image.height : 1;
  for (let v = -1.3; v <= 3; v += k) for (let u = -1.5; u <= 1.5; u += k) {
    // Face to image coordinates (the frame inverted), written out: this loop visits some 30 000 points.
    const a = u - c0, b = v - c1;
    const x = (a * dv1 - b * dv0) / detI, y = (du0 * b - du1 * a) / detI;
    const xi = Math.floor(x), yi = Math.floor(y);
    if (xi < 0 || yi < 0 || xi >= image.width || yi >= image.height) continue;
    let h: number;
    if (hair) h = hair.data[Math.min(hair.height - 1, Math.floor((yi + 0.5) * hy)) * hair.width + Math.min(hair.width - 1, Math.floor((xi + 0.5) * hx))] / 255;
    else {
      const wx = xi - win.x0, wy = yi - win.y0;
      h = wx >= 0 && wy >= 0 && wx < win.w && wy < win.h ? parserHair(Math.min(ny - 1, Math.round(wy / step)) * nx + Math.min(nx - 1, Math.round(wx / step))) : 0;
    }
    us[m] = u; vs[m] = v; hs[m] = h; offsets[m] = yi * image.width + xi; m++;
  }
  const cell = k * k;
  let area = 0;
  for (let j = 0; j < m; j++) area += hs[j] * cell;
  return {
    area,
    /** L*a*b* of the points surely hair (> 0.8). */
    lab: (): Lab[] => {
      const sure: number[] = [];
      for (let j = 0; j < m; j++) if (hs[j] > 0.8) sure.push(offsets[j] * image.channels);
      const rgb = new Uint8Array(sure.length * 3);
      sure.forEach((s, j) => { rgb[3 * j] = image.data[s]; rgb[3 * j + 1] = image.data[s + 1]; rgb[3 * j + 2] = image.data[s + 2]; });
      const l = toLabInterleaved(rgb, 3, sure.length);
      return Array.from({ length: sure.length }, (_, j): Lab => [l[3 * j], l[3 * j + 1], l[3 * j + 2]]);
    },
    /** The depth (v) above which this share of the hair lies (-Infinity without hair). */
    depth: (q: number) => {
      const all = new Float64Array(m);
      let nd = 0;
      for (let j = 0; j < m; j++) if (hs[j] > 0.5 && Math.abs(us[j]) < 1.2) all[nd++] = vs[j];
      const d = all.subarray(0, nd).sort();
      return d.length ? d[Math.min(d.length - 1, Math.floor(q * d.length))] : -Infinity;
    },
  };
}
