/**
 * The blemish finder: on the skin's Lab planes, what stands out from the skin around it at lesion scale.
 *   red   raised redness (a* above the local skin): acne, inflamed bumps;
 *   dark  darker than the local skin (L* below): spots, small moles, marks.
 * Sizes are in millimetres (the iris is about 11.7 mm across, so scale comes from the mesh's iris ring),
 * which keeps pores (under ~0.5 mm) and features (brows, nostrils: taken out of the skin mask anyway)
 * out of it at any photo resolution. Round blobs of 0.7-6 mm are spots to heal; round ones up to 12 mm
 * are patches to even; long thin ones are lines (scars, marks) to even.
 */
import { blurPlane, maskedBlur } from '../../image/frequency.ts';
import { FIND } from './tuning.ts';

export type BlemishKind = 'red' | 'dark';
export interface Blemish {
  kind: BlemishKind;
  /** Centre and equivalent radius, plane pixels. */
  x: number;
  y: number;
  r: number;
  /** Peak contrast against the local skin, Lab units (a* for red, L* for dark). */
  contrast: number;
  /** The component's pixels, plane indices (for evening patches and lines). */
  pixels: number[];
}
export interface Blemishes { spots: Blemish[]; patches: Blemish[]; lines: Blemish[] }

/** Robust spread (1.4826 x median absolute deviation) of `v` over the pixels where `on` is set. */
function spread(v: Float32Array, on: Uint8Array): number {
  const s: number[] = [];
  // A sample is enough, and keeps this cheap on big windows.
  const step = Math.max(1, Math.floor(v.length / 20000));
  for (let i = 0; i < v.length; i += step) if (on[i]) s.push(v[i]);
  if (s.length < 10) return 0;
  s.sort((x, y) => x - y);
  const med = s[s.length >> 1];
  const dev = s.map((x) => Math.abs(x - med)).sort((x, y) => x - y);
  return 1.4826 * dev[dev.length >> 1];
}

/**
 * The spread of `v` around each pixel (root mean square about the local mean, weighted by `on`, sigma
 * px): what the skin near a place varies by, the place itself included.
 */
function localSpread(v: Float32Array, on: Uint8Array, w: number, h: number, sigma: number): Float32Array {
  const weight = Float32Array.from(on), sq = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) sq[i] = v[i] * v[i];
  const mean = maskedBlur(v, weight, w, h, sigma), meanSq = maskedBlur(sq, weight, w, h, sigma);
  for (let i = 0; i < v.length; i++) mean[i] = Math.sqrt(Math.max(0, meanSq[i] - mean[i] * mean[i]));
  return mean;
}

/**
 * Finds blemishes on the planes of a window (w x h). `skin` is 0..1 per pixel (the retouch skin mask);
 * `pxPerMm` the scale. Spots come strongest first.
 */
export function findBlemishes(L: Float32Array, A: Float32Array, skin: Float32Array, w: number, h: number, pxPerMm: number): Blemishes {
  const n = w * h, f = FIND;
  const core = new Float32Array(n);
  for (let i = 0; i < n; i++) core[i] = skin[i] >= 0.95 ? 1 : 0;
  // Well inside the skin: blurred core still (almost) full.
  const inner = blurPlane(core, w, h, f.edgeMm * pxPerMm);
  const on = new Uint8Array(n);
  for (let i = 0; i < n; i++) on[i] = core[i] && inner[i] > 0.97 ? 1 : 0;

  const g = f.grainMm * pxPerMm, s = f.skinMm * pxPerMm;
  const sL = blurPlane(L, w, h, g), sA = blurPlane(A, w, h, g);
  const bL = maskedBlur(L, core, w, h, s), bA = maskedBlur(A, core, w, h, s);
  const red = new Float32Array(n), dark = new Float32Array(n);
  for (let i = 0; i < n; i++) { red[i] = sA[i] - bA[i]; dark[i] = bL[i] - sL[i]; }
  const sdRed = spread(red, on), sdDark = spread(dark, on);
  const tRed = Math.max(f.pixel.redFloor, f.pixel.k * sdRed), tDark = Math.max(f.pixel.darkFloor, f.pixel.k * sdDark);
  const pRed = Math.max(f.peak.redFloor, f.peak.k * sdRed), pDark = Math.max(f.peak.darkFloor, f.peak.k * sdDark);
  const localRed = localSpread(red, on, w, h, f.local.mm * pxPerMm), localDark = localSpread(dark, on, w, h, f.local.mm * pxPerMm);

  // Blobs: local maxima of each contrast above its peak threshold, each grown over the pixels above half
  // its peak (its full width at half maximum, so a bump on a broadly flushed cheek is not merged into it).
  const out: Blemishes = { spots: [], patches: [], lines: [] };
  const taken = new Uint8Array(n), stack: number[] = [];
  const rMax = Math.max(1, Math.round(pxPerMm)), reach = Math.ceil(f.patchMaxMm * pxPerMm);
  for (const [kind, v, peak, floor, local] of [['red', red, pRed, tRed, localRed], ['dark', dark, pDark, tDark, localDark]] as const) {
    const mark = new Uint8Array(n);
    for (let start = 0; start < n; start++) {
      const top = v[start];
      if (!on[start] || top < peak || taken[start] || top < f.local.k * local[start]) continue;
      const sx0 = start % w, sy0 = (start - sx0) / w;
      let isMax = true;
      for (let dy = -rMax; dy <= rMax && isMax; dy++) for (let dx = -rMax; dx <= rMax; dx++) {
        const xx = sx0 + dx, yy = sy0 + dy;
        if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
        const j = yy * w + xx;
        if (v[j] > top || (v[j] === top && j < start)) { isMax = false; break; }
      }
      if (!isMax) continue;
      const level = Math.max(floor, top / 2);
      const px: number[] = [];
      let touchesEdge = false;
      mark[start] = 1; stack.push(start);
      while (stack.length) {
        const i = stack.pop()!;
        px.push(i);
        const x = i % w, y = (i - x) / w;
        if (Math.abs(x - sx0) > reach || Math.abs(y - sy0) > reach) { touchesEdge = true; continue; }
        for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx, yy = y + dy;
          if (xx < 0 || yy < 0 || xx >= w || yy >= h) { touchesEdge = true; continue; }
          const j = yy * w + xx;
          if (mark[j] || v[j] < level) continue;
          if (!on[j]) { touchesEdge = true; continue; }
          mark[j] = 1; stack.push(j);
        }
      }
      for (const i of px) taken[i] = 1;
      if (touchesEdge) continue;
      let sx = 0, sy = 0;
      for (const i of px) { const x = i % w; sx += x; sy += (i - x) / w; }
      const cx = sx / px.length, cy = sy / px.length;
      let xx = 0, yy = 0, xy = 0;
      for (const i of px) { const x = i % w - cx, y = (i - (i % w)) / w - cy; xx += x * x; yy += y * y; xy += x * y; }
      xx /= px.length; yy /= px.length; xy /= px.length;
      const m = (xx + yy) / 2, d = Math.sqrt(((xx - yy) / 2) ** 2 + xy * xy);
      const major = Math.sqrt(Math.max(0, m + d)), minor = Math.sqrt(Math.max(0.25, m - d));
      const r = Math.sqrt(px.length / Math.PI), diamMm = (2 * r) / pxPerMm;
      const b: Blemish = { kind, x: cx, y: cy, r, contrast: top, pixels: px };
      // A uniform ellipse's 4 x sd along its axis is its length.
      const elongation = major / minor, lengthMm = (4 * major) / pxPerMm;
      if (elongation >= f.lineElongation) { if (lengthMm >= f.lineMinMm) out.lines.push(b); continue; }
      if (diamMm < f.spot.minMm) continue;
      if (diamMm <= f.spot.maxMm) out.spots.push(b);
      else if (diamMm <= f.patchMaxMm) out.patches.push(b);
    }
  }
  out.spots.sort((p, q) => q.contrast - p.contrast);
  return out;
}

/** Pixels per millimetre from the mesh's iris rings (468-472 and 473-477; an iris is about 11.7 mm across). */
export function pixelsPerMm(mesh: readonly (readonly number[])[], faceWidth: number): number {
  const radius = (c: number) => [1, 2, 3, 4].reduce((s, k) => s + Math.hypot(mesh[c + k][0] - mesh[c][0], mesh[c + k][1] - mesh[c][1]), 0) / 4;
  const iris = mesh.length >= 478 ? Math.max(radius(468), radius(473)) * 2 : 0;
  // The larger iris (the nearer eye of a turned face); a face 100-170 mm wide bounds a bad iris fit.
  const fromIris = iris / 11.7;
  return Math.min(faceWidth / 100, Math.max(faceWidth / 170, fromIris || faceWidth / 135));
}
