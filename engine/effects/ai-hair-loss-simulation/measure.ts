/**
 * Measures of a result against its photo, read from the two images and the head frame alone (no internals
 * of the effect), for the quality script and the HTTP tests:
 *   texture  the new scalp's fine-band energy over the forehead's: the spread of L less its blur (σ of
 *            HP_SIGMA face widths, about a pore's size), on the bare top of the head against the untouched
 *            forehead; a smooth dome reads near 0, the person's own skin 1;
 *   mid      the same over the band between that blur and one of MID_SIGMA face widths (mottling, pores'
 *            clusters, the fine shading): where a smooth plastic dome shows even with a fine grain on it;
 *   shade    the fall-off of light toward the head's sides: mean L at 0.55 to 0.8 half face widths from the
 *            midline over mean L within 0.2 of it, on the new scalp (v 1.15 to 1.6) and on the forehead
 *            (v 0.3 to 0.6); a dome lit evenly to its outline reads near 1 where the forehead falls off;
 *   colour   the bare scalp's mean Lab against the untouched forehead's (the same pixels as texture): ΔE of
 *            the means, and the chroma part alone (a*, b*), which a dome in shade (its chroma falling with
 *            its light) also moves; the hue angle between them, which shading does not: an orange or pink
 *            cast reads there;
 *   edge     how wide the hairline's transition is: the density of changed pixels (blurred over a strand's
 *            spacing) rising from kept hair to bare scalp, its 20-80 % width where it crosses the middle, as
 *            a share of the face width (a face is about 14 cm wide: 1 % is about 1.4 mm).
 */
import { toLab } from '../../image/colour.ts';
import { changedPixels } from '../../image/change.ts';
import { blurPlane } from '../../image/frequency.ts';
import type { RasterImage } from '../../image/raster.ts';
import { toHead, type HeadFrame } from './hairline.ts';

/** The fine band: L less its blur over this share of the face width (at least a pixel). */
export const HP_SIGMA = 0.005;
/** The density of changed pixels is read over this share of the face width (about a strand's spacing). */
export const DENSITY_SIGMA = 0.006;
/** The mid band's upper blur, share of the face width. */
export const MID_SIGMA = 0.03;

export interface ScalpMeasures {
  /** RMS of the fine band on the bare scalp and on the forehead (L units), and their ratio. */
  scalpHf: number; foreheadHf: number; ratio: number;
  /** Fall-off of L toward the sides (outer over middle), on the new scalp and on the forehead. */
  shadeScalp: number; shadeForehead: number;
  /** The same for the mid band. */
  scalpMid: number; foreheadMid: number; midRatio: number;
  /** ΔE (CIE76) between the bare scalp's mean Lab and the forehead's, and its a*b* part alone; NaN without both. */
  colourDE: number; chromaDE: number;
  /** The hue angle of the scalp's mean a*b* less the forehead's, degrees (positive: yellower, negative: redder). */
  hueDiff: number;
  /** The two means (L, a*, b*). */
  scalpLab: number[]; foreheadLab: number[];
  /** Pixels each was read on. */
  scalpPixels: number; foreheadPixels: number;
  /** Median 20-80 % width of the change's density across its edge above the forehead, share of the face width; NaN without one. */
  edgeWidth: number;
  /**
   * The same for the change's strength (|ΔL|, blurred as the density is, over its 95th percentile above the
   * forehead): hair that thins by fading as well as by strands reads as wide here, a cut as narrow.
   */
  edgeSoft: number;
  /** Pixels changed by more than 12 levels above the brows. */
  changed: number;
  /** Mean |ΔL| over the top of the head (v 0.9 to 1.8, within 0.7 of the midline): how visible a diffuse thinning is. */
  topShift: number;
}

/** A mask shrunk by `r` pixels (a pixel stays where every pixel within the square of side 2r + 1 is set). */
function erode(m: Uint8Array, w: number, h: number, r: number): Uint8Array {
  const rows = new Uint8Array(m.length), out = new Uint8Array(m.length);
  for (let y = 0; y < h; y++) {
    let run = 0;
    const last = new Int32Array(w).fill(0);
    for (let x = 0; x < w; x++) { run = m[y * w + x] ? run + 1 : 0; last[x] = run; }
    for (let x = 0; x < w; x++) {
      const xe = Math.min(w - 1, x + r);
      rows[y * w + x] = x - r >= 0 && xe - (x - r) === 2 * r && last[xe] >= 2 * r + 1 ? 1 : 0;
    }
  }
  for (let x = 0; x < w; x++) {
    let run = 0;
    const last = new Int32Array(h);
    for (let y = 0; y < h; y++) { run = rows[y * w + x] ? run + 1 : 0; last[y] = run; }
    for (let y = 0; y < h; y++) {
      const ye = Math.min(h - 1, y + r);
      out[y * w + x] = y - r >= 0 && ye - (y - r) === 2 * r && last[ye] >= 2 * r + 1 ? 1 : 0;
    }
  }
  return out;
}

/**
 * The measures of one face's result. The scalp: pixels changed, above v 1.15 (the old hairline and
 * above) within half a face width of the midline, two fine-band widths inside the change; the forehead:
 * pixels unchanged between v 0.25 and 0.65 within 0.35 of the midline, as far inside.
 */
export function scalpMeasures(before: RasterImage, after: RasterImage, f: HeadFrame): ScalpMeasures {
  const { width: w, height: h } = before;
  const fw = 2 * f.halfWidth, win = { x0: 0, y0: 0, w, h };
  const changed = changedPixels(before.data, after.data, before.channels);
  const hpSigma = Math.max(1, HP_SIGMA * fw), r = Math.max(2, Math.round(2 * hpSigma));
  // Only the head's box is read (a whole photo's planes for a small face would be most of the time).
  const U = new Float32Array(w * h), V = new Float32Array(w * h);
  const scalp = new Uint8Array(w * h), fore = new Uint8Array(w * h);
  let count = 0;
  for (let y = 0, i = 0; y < h; y++) for (let x = 0; x < w; x++, i++) {
    const [u, v] = toHead(f, x + 0.5, y + 0.5);
    U[i] = u - f.mid; V[i] = v;
    if (v >= 0 && changed[i]) count++;
    if (changed[i] && v >= 1.15 && Math.abs(u - f.mid) <= 0.5) scalp[i] = 1;
    if (!changed[i] && v >= 0.25 && v <= 0.65 && Math.abs(u - f.mid) <= 0.35) fore[i] = 1;
  }
  const hf = (img: RasterImage, m: Uint8Array) => {
    const L = toLab(img, win).L, low = blurPlane(L, w, h, hpSigma), lower = blurPlane(L, w, h, Math.max(2, MID_SIGMA * fw));
    let s = 0, sm = 0, k = 0;
    for (let i = 0; i < m.length; i++) if (m[i]) { s += (L[i] - low[i]) ** 2; sm += (low[i] - lower[i]) ** 2; k++; }
    return { rms: k ? Math.sqrt(s / k) : NaN, mid: k ? Math.sqrt(sm / k) : NaN, k };
  };
  const sIn = erode(scalp, w, h, r), fIn = erode(fore, w, h, r);
  const a = hf(after, sIn), b = hf(before, fIn);
  const labA = toLab(after, win), labB = toLab(before, win), La = labA.L, Lb = labB.L;
  const mean = (lab: typeof labA, m: Uint8Array) => {
    let l = 0, aa = 0, bb = 0, k = 0;
    for (let i = 0; i < m.length; i++) if (m[i]) { l += lab.L[i]; aa += lab.a[i]; bb += lab.b[i]; k++; }
    return k ? [l / k, aa / k, bb / k] : [NaN, NaN, NaN];
  };
  const ms = mean(labA, sIn), mf = mean(labB, fIn);
  const sums = new Float64Array(8);
  for (let i = 0; i < La.length; i++) {
    const x = Math.abs(U[i]), band = x < 0.2 ? 0 : x >= 0.55 && x <= 0.8 ? 1 : -1;
    if (band < 0) continue;
    if (changed[i] && V[i] >= 1.15 && V[i] <= 1.6) { sums[band * 2] += La[i]; sums[band * 2 + 1]++; }
    if (!changed[i] && V[i] >= 0.3 && V[i] <= 0.6) { sums[4 + band * 2] += Lb[i]; sums[4 + band * 2 + 1]++; }
  }
  const fall = (o: number) => (sums[o + 1] > 50 && sums[o + 3] > 50 ? sums[o + 2] / sums[o + 3] / (sums[o] / sums[o + 1]) : NaN);
  let shift = 0, top = 0;
  for (let i = 0; i < La.length; i++) if (V[i] >= 0.9 && V[i] <= 1.8 && Math.abs(U[i]) <= 0.7) { shift += Math.abs(La[i] - Lb[i]); top++; }
  // The edge: the change's density, where it crosses 0.5 above the forehead's middle.
  const dens = new Float32Array(w * h);
  for (let i = 0; i < dens.length; i++) dens[i] = changed[i];
  const d = blurPlane(dens, w, h, Math.max(1, DENSITY_SIGMA * fw));
  const edgeOf = (d: Float32Array) => {
    const widths: number[] = [];
    for (let y = 1; y < h - 1; y++) for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      if (V[i] < 0.5 || Math.abs(U[i]) > 1.2 || d[i] < 0.35 || d[i] > 0.65) continue;
      const g = Math.hypot(d[i + 1] - d[i - 1], d[i + w] - d[i - w]) / 2;
      if (g > 1e-4) widths.push(0.6 / g / fw);
    }
    widths.sort((p, q) => p - q);
    return widths.length ? widths[widths.length >> 1] : NaN;
  };
  const strength = new Float32Array(w * h);
  for (let i = 0; i < strength.length; i++) strength[i] = Math.abs(La[i] - Lb[i]);
  const sb = blurPlane(strength, w, h, Math.max(1, DENSITY_SIGMA * fw));
  const above: number[] = [];
  for (let i = 0; i < sb.length; i++) if (V[i] >= 0.5 && Math.abs(U[i]) <= 1.2 && sb[i] > 0.5) above.push(sb[i]);
  above.sort((p, q) => p - q);
  const full = above.length ? above[Math.floor(0.95 * (above.length - 1))] : 0;
  if (full > 0) for (let i = 0; i < sb.length; i++) sb[i] = Math.min(1, sb[i] / full);
  return {
    shadeScalp: fall(0), shadeForehead: fall(4),
    colourDE: Math.hypot(ms[0] - mf[0], ms[1] - mf[1], ms[2] - mf[2]), chromaDE: Math.hypot(ms[1] - mf[1], ms[2] - mf[2]), scalpLab: ms, foreheadLab: mf,
    hueDiff: ((Math.atan2(ms[2], ms[1]) - Math.atan2(mf[2], mf[1])) * 180) / Math.PI,
    scalpHf: a.rms, foreheadHf: b.rms, ratio: a.rms / b.rms, scalpMid: a.mid, foreheadMid: b.mid, midRatio: a.mid / b.mid, scalpPixels: a.k, foreheadPixels: b.k,
    edgeWidth: edgeOf(d), edgeSoft: full > 0 ? edgeOf(sb) : NaN, changed: count, topShift: top ? shift / top : 0,
  };
}
