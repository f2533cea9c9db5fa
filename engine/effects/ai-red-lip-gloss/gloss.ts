/**
 * A specular highlight for a glossy surface (lip gloss), shaped by the surface and lit by the photo's own
 * light rather than pasted on:
 *   - the surface: the region's mask blurred into a dome (thick parts high, edges sloping), whose normals
 *     follow the region's curvature;
 *   - the light: its direction from the photo's shading around the region (the side that is brighter),
 *     biased to come from above as most portrait light does; its colour from the region's own brightest
 *     pixels, whitened;
 *   - Blinn-Phong with the viewer in front, then weighted by where the photo is already bright, so the
 *     highlight sits where the real light falls.
 */
import { boxMean } from '../../image/guided-filter.ts';
import { LINEAR, toLab } from '../../image/colour.ts';
import type { Pixels } from '../../image/raster.ts';
import type { Rect } from '../../image/rect.ts';
import { BRIGHT, CORE, DOME_SIGMA, DOME_SLOPE, FAVOUR, FINE_SIGMA, FROM_ABOVE, LIGHT_DEFAULT, LIT_ELSEWHERE, SHADING_LEAST, SHADING_SIGMA, SKIN_AROUND, SPECULAR, STRONG_LIGHT, TILT_EACH, TILT_MOST, WHITENED, TEXTURE, CENTRED } from './tuning.ts';

export interface Gloss {
  /** Highlight weight 0..1 over the area. */
  weight: Float32Array;
  /** 8-bit sRGB colour of the light. */
  light: [number, number, number];
  /** Unit vector toward the light (x right, y down, z toward the viewer). */
  direction: [number, number, number];
}

const blur = (p: Float32Array, area: Rect, sigma: number) => {
  const r = Math.max(1, Math.round(Math.sqrt(sigma * sigma + 0.25) - 0.5));
  return boxMean(boxMean(boxMean(p, area.w, area.h, r), area.w, area.h, r), area.w, area.h, r);
};

const ramp = (v: number, lo: number, hi: number) => (hi > lo ? Math.min(1, Math.max(0, (v - lo) / (hi - lo))) : 0);

/**
 * The highlight for `mask` (0..1 over `area`) on `source`. `scale` is the face width in pixels; `favour`
 * (0..1 over the area, optional) weighs parts of the region up (the lower lip catches more light).
 */
export function glossHighlight(source: Pixels, mask: Float32Array, area: Rect, scale: number, favour?: Float32Array): Gloss {
  const { L } = toLab(source, area);
  const n = mask.length;

  // Light direction: the mean gradient of the broad shading of the skin around the region (brighter side =
  // toward the light). The region itself and what it borders (a dark open mouth) would say nothing of the light.
  const around = blur(mask, area, SKIN_AROUND.sigma * scale);
  const skinW = new Float32Array(n), skinL = new Float32Array(n);
  for (let i = 0; i < n; i++) { skinW[i] = around[i] < SKIN_AROUND.below ? 1 : 0; skinL[i] = skinW[i] * L[i]; }
  const bw = blur(skinW, area, SHADING_SIGMA * scale), bl = blur(skinL, area, SHADING_SIGMA * scale);
  let gx = 0, gy = 0, cnt = 0;
  for (let y = 1; y < area.h - 1; y++) for (let x = 1; x < area.w - 1; x++) {
    const i = y * area.w + x;
    if (!skinW[i] || bw[i - 1] < SHADING_LEAST || bw[i + 1] < SHADING_LEAST || bw[i - area.w] < SHADING_LEAST || bw[i + area.w] < SHADING_LEAST) continue;
    gx += bl[i + 1] / bw[i + 1] - bl[i - 1] / bw[i - 1]; gy += bl[i + area.w] / bw[i + area.w] - bl[i - area.w] / bw[i - area.w]; cnt++;
  }
  // L units per face width, over a strong side light's.
  const k = cnt ? scale / 2 / cnt : 0;
  let lx = Math.max(-TILT_EACH, Math.min(TILT_EACH, (gx * k) / STRONG_LIGHT)), ly = Math.max(-TILT_EACH, Math.min(TILT_EACH, (gy * k) / STRONG_LIGHT - FROM_ABOVE));
  const lxy = Math.hypot(lx, ly);
  if (lxy > TILT_MOST) { lx *= TILT_MOST / lxy; ly *= TILT_MOST / lxy; }
  const lz = Math.sqrt(Math.max(0, 1 - lx * lx - ly * ly));
  // Blinn-Phong half vector with the viewer at (0, 0, 1).
  let hx = lx, hy = ly, hz = lz + 1;
  const hn = Math.hypot(hx, hy, hz); hx /= hn; hy /= hn; hz /= hn;

  // The surface: a dome over the region; slope scaled so the lips' edges tilt about 45 degrees.
  const sigma = DOME_SIGMA * scale;
  const dome = blur(mask, area, sigma);
  const slope = DOME_SLOPE * sigma;
  const fine = blur(L, area, FINE_SIGMA * scale);
  const inside: number[] = [];
  for (let i = 0; i < n; i++) if (mask[i] > 0.5) inside.push(fine[i]);
  inside.sort((a, b) => a - b);
  const pct = (q: number) => inside.length ? inside[Math.min(inside.length - 1, Math.floor(q * inside.length))] : 0;
  const p50 = pct(0.5), p98 = pct(BRIGHT);

  // The lips' own fine relief (their vertical creases): the highlight is broken where they are, as a wet
  // surface's is, instead of lying on them as one smooth band. Scaled by its spread inside the lips.
  const coarse = blur(L, area, TEXTURE.sigma * scale);
  let hpSum = 0, hpN = 0, cxSum = 0, xMin = area.w, xMax = 0;
  for (let y = 0; y < area.h; y++) for (let x = 0; x < area.w; x++) {
    const i = y * area.w + x;
    if (mask[i] <= 0.5) continue;
    const d = fine[i] - coarse[i];
    hpSum += d * d; hpN++; cxSum += x;
    if (x < xMin) xMin = x; if (x > xMax) xMax = x;
  }
  const hpSpread = Math.sqrt(hpSum / Math.max(1, hpN)) || 1;
  // Toward the mouth's sides the lips turn away from the viewer: the highlight fades there.
  const cx = hpN ? cxSum / hpN : area.w / 2, reach = Math.max(1, CENTRED.spread * (xMax - xMin));

  const weight = new Float32Array(n);
  let sr = 0, sg = 0, sb = 0, sw = 0;
  for (let y = 1; y < area.h - 1; y++) for (let x = 1; x < area.w - 1; x++) {
    const i = y * area.w + x;
    const m = mask[i];
    if (m === 0) continue;
    const nx = -slope * (dome[i + 1] - dome[i - 1]) / 2, ny = -slope * (dome[i + area.w] - dome[i - area.w]) / 2;
    const nl = Math.hypot(nx, ny, 1);
    const nh = Math.max(0, (nx * hx + ny * hy + hz) / nl);
    const spec = nh ** SPECULAR.sharp + SPECULAR.broadShare * nh ** SPECULAR.broad;
    // Where the photo is already bright the light really falls: full there, a fifth elsewhere.
    const lit = LIT_ELSEWHERE + (1 - LIT_ELSEWHERE) * ramp(fine[i], p50, p98);
    const f = favour ? FAVOUR.base + FAVOUR.gain * favour[i] : 1;
    // Off the rims: a highlight on the very edge reads as an outline, not a wet surface.
    const core = ramp(dome[i], CORE.from, CORE.to);
    const relief = Math.min(TEXTURE.most, Math.max(0, 1 + TEXTURE.gain * (fine[i] - coarse[i]) / hpSpread));
    const centred = Math.exp(-0.5 * ((x - cx) / reach) ** 2);
    weight[i] = Math.min(1, spec * lit * f * m * core * relief * centred);
    if (fine[i] >= p98 && m > 0.5) {
      const j = ((area.y0 + y) * source.width + area.x0 + x) * source.channels;
      sr += LINEAR[source.data[j]]; sg += LINEAR[source.data[j + 1]]; sb += LINEAR[source.data[j + 2]]; sw++;
    }
  }
  // The light's colour: the brightest lip pixels' tint, three quarters whitened (lips add their own red).
  let light: [number, number, number] = [...LIGHT_DEFAULT];
  if (sw > 0) {
    const mx = Math.max(sr, sg, sb) || 1;
    const t = [sr / mx, sg / mx, sb / mx].map((v) => Math.round(255 * (WHITENED + (1 - WHITENED) * v) ** (1 / 2.2)));
    light = [t[0], t[1], t[2]];
  }
  return { weight, light, direction: [lx, ly, lz] };
}
