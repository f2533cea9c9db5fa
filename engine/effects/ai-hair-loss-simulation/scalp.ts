/**
 * The bare scalp, made from the person's own forehead: the dome as a sphere lit as the forehead is (its
 * light's direction from a plane fitted to the forehead's luminance over the dome's normals), in the
 * forehead's own colour; its texture (the forehead's fine band, mirror-tiled). Also the push-pull fill
 * that shows what lies behind hair that stood outside the skull.
 */
import { FRONTAL, SKULL, type SkullSpan } from './hairline.ts';
import { AMBIENT, LIGHT_UP, SHADE_CURVE } from './tuning.ts';

/**
 * The dome's surface normal at frame point (u from the midline, v): the skull as an ellipsoid seen from the
 * front (x across, y up, z toward the camera), its outline the frame's skull ellipse.
 */
export function domeNormal(u: number, v: number, top: number, widen = 1, skull: SkullSpan = FRONTAL): [number, number, number] {
  let x = (u - skull.u0) / (skull.a * widen), y = v > SKULL.v0 ? (v - SKULL.v0) / ((top - SKULL.v0) * widen) : 0;
  const r = Math.hypot(x, y);
  if (r > 0.995) { x *= 0.995 / r; y *= 0.995 / r; }
  return [x, y, Math.sqrt(Math.max(0, 1 - x * x - y * y))];
}

/** How a bald head in this photo is lit: a light's direction (unit), the ambient share, the sheen's lobe. */
export interface DomeLight { dir: [number, number, number]; half: [number, number, number]; ambient: number }

/**
 * The light from the forehead: `slope` and `rise` are its linear luminance's slopes across and up (over
 * the dome normal's x and y) over its mean, as a least-squares plane gives them. A Lambertian sphere lit from direction (lx, 0, 1) has
 * that ratio near (1 - ambient) lx over (ambient + (1 - ambient)), so lx is recovered from it, limited.
 */
export function domeLight(slope: number, rise = LIGHT_UP): DomeLight {
  const lx = Math.max(-0.8, Math.min(0.8, (slope / (1 - AMBIENT)) || 0));
  const ly = Math.max(LIGHT_UP, Math.min(1, (rise / (1 - AMBIENT)) || 0));
  const d = Math.hypot(lx, ly, 1);
  const dir: [number, number, number] = [lx / d, ly / d, 1 / d];
  const h = Math.hypot(dir[0], dir[1], dir[2] + 1);
  return { dir, half: [dir[0] / h, dir[1] / h, (dir[2] + 1) / h], ambient: AMBIENT };
}

/**
 * The forehead's own shading, extended over the dome: its linear luminance over its mean fitted as a
 * low-order polynomial in the dome's normal, c0 + a·nx + c·ny + b·(nx² + ny²) (least squares), the curvature
 * b kept between SHADE_CURVE's bounds (never lighter toward the outline and the crown, never darker than a
 * grazing sphere's). The forehead's fall-off toward its temples is thus carried round the dome: shade toward
 * the crown and the sides, the light's side from a, its highlights where the forehead has them.
 * Null when the samples do not pin it down.
 */
export interface DomeShade { c0: number; a: number; c: number; b: number; floor: number }
export function fitDomeShade(nx: readonly number[], ny: readonly number[], z: readonly number[]): DomeShade | null {
  const k = z.length;
  if (k < 12) return null;
  // Normal equations of [1, nx, ny, r²], with a ridge pulling the slopes toward none and the curvature
  // toward a sphere's usual fall-off: a turned head's forehead spans a narrow band of normals on one side,
  // and its free fit (a slope of 0.8, a curvature at the bound) carried round the dome made a grey crown.
  const M = Array.from({ length: 4 }, () => new Float64Array(5));
  for (let i = 0; i < k; i++) {
    const r = [1, nx[i], ny[i], nx[i] * nx[i] + ny[i] * ny[i]];
    for (let p = 0; p < 4; p++) { for (let q = 0; q < 4; q++) M[p][q] += r[p] * r[q]; M[p][4] += r[p] * z[i]; }
  }
  const prior = [0, 0, 0, SHADE_CURVE.prior];
  for (let p = 1; p < 4; p++) { M[p][p] += SHADE_CURVE.ridge * k; M[p][4] += SHADE_CURVE.ridge * k * prior[p]; }
  for (let col = 0; col < 4; col++) {
    let piv = col;
    for (let r = col + 1; r < 4; r++) if (Math.abs(M[r][col]) > Math.abs(M[piv][col])) piv = r;
    if (Math.abs(M[piv][col]) < 1e-9 * k) return null;
    [M[col], M[piv]] = [M[piv], M[col]];
    for (let r = 0; r < 4; r++) {
      if (r === col) continue;
      const f = M[r][col] / M[col][col];
      for (let q = col; q < 5; q++) M[r][q] -= f * M[col][q];
    }
  }
  const [c0, a, c, b] = M.map((row, i) => row[4] / row[i]);
  if (![c0, a, c, b].every(Number.isFinite)) return null;
  // (Bounds on the forehead's mean, 1: c0 is the level at the dome's front, which a forehead seen from the side never reaches.)
  const s: DomeShade = { c0, a: Math.max(-0.8, Math.min(0.8, a)), c: Math.max(-0.5, Math.min(0.5, c)), b: Math.max(SHADE_CURVE.most, Math.min(SHADE_CURVE.least, b)), floor: 0 };
  // The bounds move the fit off the forehead's mean: the level is set again so it reads the forehead's mean.
  let zm = 0, fm = 0;
  for (let i = 0; i < k; i++) { zm += z[i]; fm += s.a * nx[i] + s.c * ny[i] + s.b * (nx[i] * nx[i] + ny[i] * ny[i]); }
  s.c0 = (zm - fm) / k;
  if (!(s.c0 > 0)) return null;
  // Carried far past the normals the forehead spans (a turned head's crown, seen from its side), the
  // polynomial went on falling: it goes no darker than a little under the darkest it reads on the forehead.
  let least = Infinity;
  for (let i = 0; i < k; i++) least = Math.min(least, s.c0 + s.a * nx[i] + s.c * ny[i] + s.b * (nx[i] * nx[i] + ny[i] * ny[i]));
  s.floor = Math.max(AMBIENT, (1 - SHADE_CURVE.reach) * least);
  return s;
}

/** The fitted shading at normal n, relative to the forehead's mean, never under its floor. */
export function domeShade(n: readonly number[], s: DomeShade): number {
  const r2 = n[0] * n[0] + n[1] * n[1];
  return Math.max(s.floor, s.c0 + s.a * n[0] + s.c * n[1] + s.b * r2);
}

/** Diffuse light factor at normal n (ambient..1). */
export function domeDiffuse(n: readonly number[], light: DomeLight): number {
  const c = n[0] * light.dir[0] + n[1] * light.dir[1] + n[2] * light.dir[2];
  return light.ambient + (1 - light.ambient) * Math.max(0, c);
}

/** The sheen's lobe at normal n, 0..1: broad, since a scalp's skin is not polished. */
export function domeSheen(n: readonly number[], light: DomeLight): number {
  const c = Math.max(0, n[0] * light.half[0] + n[1] * light.half[1] + n[2] * light.half[2]);
  return c ** 24;
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
 * With a finite `decay` (pixels) the membrane is screened: it still meets the known values, and falls off
 * toward 0 as exp(-distance / decay) away from them.
 */
export function harmonicFill(planes: Float32Array[], weight: Float32Array, w: number, h: number, iterations = 40, decay = Infinity): Float32Array[] {
  const s = Math.max(1, Math.round(Math.max(w, h) / 160));
  // Screening per grid cell: (cell / decay)², so the fill falls off as exp(-distance / decay) from the known values.
  const screen = Number.isFinite(decay) && decay > 0 ? (s / decay) ** 2 : 0;
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
  const grid = small.map((g) => relax(g, known, gw, gh, iterations, screen));
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
export function relax(g: Float32Array, known: Uint8Array, gw: number, gh: number, iterations: number, screen = 0): Float32Array {
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
    const coarse = relax(cg, ck, cw, ch, iterations, 4 * screen);
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
      next[j] = sum / (k + screen);
    }
    out.set(next);
  }
  return out;
}

/**
 * The backdrop behind hair that went, mirrored in from beyond the head's old outline: for each pixel where
 * `need` is set, along the ray from the head's centre (cx, cy) outward, the first `source` pixel at depth t
 * marks the backdrop's edge, and the pixel as far again beyond it (2t from here, the reflection across
 * that edge) gives the value, so the fill carries the backdrop's own texture and lines instead of a blur;
 * the edge pixel itself where the reflection is not backdrop. NaN where no backdrop lies within `reach`.
 */
export function mirrorFill(planes: Float32Array[], source: Float32Array, need: Uint8Array, w: number, h: number, cx: number, cy: number, reach: number): Float32Array[] {
  const out = planes.map(() => new Float32Array(w * h).fill(NaN));
  for (let y = 0, i = 0; y < h; y++) {
    for (let x = 0; x < w; x++, i++) {
      if (!need[i]) continue;
      const dx = x - cx, dy = y - cy, d = Math.hypot(dx, dy);
      if (d < 1) continue;
      const ux = dx / d, uy = dy / d;
      let hit = -1, t1 = 0;
      for (let t = 1; t <= reach; t++) {
        const qx = Math.round(x + ux * t), qy = Math.round(y + uy * t);
        if (qx < 0 || qy < 0 || qx >= w || qy >= h) break;
        if (source[qy * w + qx] > 0) { hit = qy * w + qx; t1 = t; break; }
      }
      if (hit < 0) continue;
      const rx = Math.round(x + ux * 2 * t1), ry = Math.round(y + uy * 2 * t1);
      const j = rx >= 0 && ry >= 0 && rx < w && ry < h && source[ry * w + rx] > 0 ? ry * w + rx : hit;
      for (let c = 0; c < planes.length; c++) out[c][i] = planes[c][j];
    }
  }
  return out;
}
