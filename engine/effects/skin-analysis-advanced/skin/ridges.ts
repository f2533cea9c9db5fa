/**
 * Wrinkles and folds as dark lines: the Hessian of lightness at a few scales (Gaussian derivatives),
 * where a valley across one direction and flat along the other is a line (Frangi et al. 1998, reduced to
 * its line term). The scale-normalised response σ²λ₁ of a line with a Gaussian profile of depth d peaks at
 * σ = its width at d / 2^1.5, so depth = 2.83·σ²λ₁ is in lightness units (L*) whatever the line's width.
 * Lines are the connected runs of pixels deeper than a threshold whose direction matches the zone's
 * (forehead lines run across, glabella lines up and down); length is measured along the run's axis, in mm.
 */
import { gauss as blurPlane } from '../../../image/gauss.ts';

export interface RidgeField {
  /** Estimated line depth in L* (0 where there is no dark line). */
  depth: Float32Array;
  /** Direction along the line, radians in (-π/2, π/2], image axes (y down). */
  angle: Float32Array;
  w: number; h: number;
}

/** Profile depth per unit of scale-normalised response, for a Gaussian line at its matched scale. */
const DEPTH_PER_RESPONSE = 2 ** 1.5;

/** Dark-line depth over several scales (σ in pixels; those below 0.6 px are raised to it). */
export function ridgeField(L: Float32Array, w: number, h: number, sigmas: readonly number[]): RidgeField {
  const depth = new Float32Array(w * h), angle = new Float32Array(w * h);
  for (const s0 of sigmas) {
    const s = Math.max(0.6, s0);
    const g = blurPlane(L, w, h, s);
    const norm = s * s * DEPTH_PER_RESPONSE;
    for (let y = 1; y < h - 1; y++) {
      for (let x = 1, i = y * w + 1; x < w - 1; x++, i++) {
        const dxx = g[i - 1] - 2 * g[i] + g[i + 1];
        const dyy = g[i - w] - 2 * g[i] + g[i + w];
        const dxy = (g[i + w + 1] - g[i + w - 1] - g[i - w + 1] + g[i - w - 1]) / 4;
        const tr = (dxx + dyy) / 2, det = Math.sqrt(((dxx - dyy) / 2) ** 2 + dxy * dxy);
        const l1 = tr + det, l2 = tr - det; // l1 ≥ l2: a dark line curves up across it
        if (l1 <= 0) continue;
        // Line term: a blob (l2 as large as l1) is not a line.
        const r = Math.abs(l2) / l1;
        const d = norm * l1 * Math.exp(-(r * r) / 0.5);
        if (d > depth[i]) {
          depth[i] = d;
          // Eigenvector of l1 is across the line; the line runs perpendicular to it.
          const across = 0.5 * Math.atan2(2 * dxy, dxx - dyy);
          let a = across + Math.PI / 2;
          if (a > Math.PI / 2) a -= Math.PI;
          angle[i] = a;
        }
      }
    }
  }
  return { depth, angle, w, h };
}

export interface Line {
  /** Length along its axis, mm. */
  length: number;
  /** Mean depth, L*. */
  depth: number;
  /** Axis direction, radians. */
  angle: number;
  /** Bounding box in frame pixels. */
  x0: number; y0: number; x1: number; y1: number;
  pixels: number;
  /** Its pixels (frame indices). */
  at: Int32Array;
}

export interface LineQuery {
  /** Zone plane (0..1); pixels below 0.5 are outside. */
  zone: Float32Array;
  /** Minimum depth of a line pixel, L*. */
  minDepth: number;
  /** Expected direction (radians, image axes) and the tolerance around it; omit for any direction. */
  direction?: number;
  tolerance?: number;
  /** Frame pixels per mm. */
  s: number;
}

const angleDiff = (a: number, b: number) => { let d = Math.abs(a - b) % Math.PI; if (d > Math.PI / 2) d = Math.PI - d; return d; };

/** The lines in a zone: 8-connected runs of qualifying pixels, measured along their principal axis. */
export function findLines(field: RidgeField, q: LineQuery): Line[] {
  const { w, h, depth, angle } = field;
  const ok = new Uint8Array(w * h);
  for (let i = 0; i < ok.length; i++) {
    if (q.zone[i] < 0.5 || depth[i] < q.minDepth) continue;
    if (q.direction !== undefined && angleDiff(angle[i], q.direction) > (q.tolerance ?? Math.PI / 6)) continue;
    ok[i] = 1;
  }
  const lines: Line[] = [];
  const stack: number[] = [];
  for (let start = 0; start < ok.length; start++) {
    if (ok[start] !== 1) continue;
    ok[start] = 2; stack.push(start);
    let n = 0, sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0, sd = 0, x0 = w, y0 = h, x1 = 0, y1 = 0;
    const members: number[] = [];
    while (stack.length) {
      const i = stack.pop()!;
      const x = i % w, y = (i - x) / w;
      members.push(i);
      n++; sx += x; sy += y; sxx += x * x; syy += y * y; sxy += x * y; sd += depth[i];
      if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        const xx = x + dx, yy = y + dy;
        if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
        const j = yy * w + xx;
        if (ok[j] === 1) { ok[j] = 2; stack.push(j); }
      }
    }
    const mx = sx / n, my = sy / n;
    const cxx = sxx / n - mx * mx, cyy = syy / n - my * my, cxy = sxy / n - mx * my;
    const ax = 0.5 * Math.atan2(2 * cxy, cxx - cyy);
    const ux = Math.cos(ax), uy = Math.sin(ax);
    let lo = Infinity, hi = -Infinity;
    for (const i of members) { const x = i % w, y = (i - x) / w; const t = (x - mx) * ux + (y - my) * uy; if (t < lo) lo = t; if (t > hi) hi = t; }
    lines.push({ length: (hi - lo + 1) / q.s, depth: sd / n, angle: ax, x0, y0, x1, y1, pixels: n, at: Int32Array.from(members) });
  }
  return lines.sort((a, b) => b.length * b.depth - a.length * a.depth);
}

/** A line's evidence: length (mm) times depth (L*), summed over the lines that qualify. */
export const lineEvidence = (lines: readonly Line[], minLength: number) =>
  lines.filter((l) => l.length >= minLength).reduce((s, l) => s + l.length * l.depth, 0);

/**
 * A line's cross-section, for telling a crease from soft shading by its shape rather than its depth or
 * length. `sharpness`: the line's depth read at the finest scale over its depth read at the broadest
 * (ridgeField at each alone, the deepest within a pixel of its spine, median along it). A Gaussian line of
 * width σ_l reads 2.83·d·σ_l·σ²/(σ_l² + σ²)^1.5 at scale σ, so the ratio is above 1 for a line narrower
 * than about the scales' geometric mean and falls toward (fine/broad)² for a broad shade. `asymmetry`:
 * (steeper - gentler) / (steeper + gentler) of the two flanks' steepest slopes across the line, on the
 * lightness blurred by the finest scale, out to twice the broadest scale: a fold has an edge on one side
 * and a roll on the other, a shade on a round cheek falls and rises alike. `spine`: the line's deepest
 * pixel per pixel of length along its axis.
 */
export interface FoldShape { sharpness: number; asymmetry: number; spine: number }

/** A crease: narrower than the scales' geometric mean (sharpness ≥ 1). */
export const CREASE_SHARPNESS = 1;

export function foldShape(L: Float32Array, w: number, h: number, line: Line, depth: Float32Array, scales: { fine: number; broad: number }): FoldShape {
  const ux = Math.cos(line.angle), uy = Math.sin(line.angle), nx = -uy, ny = ux;
  let mx = 0, my = 0;
  for (const i of line.at) { mx += i % w; my += (i - (i % w)) / w; }
  mx /= line.at.length; my /= line.at.length;
  const bins = new Map<number, number>();
  for (const i of line.at) {
    const x = i % w, y = (i - x) / w, t = Math.round((x - mx) * ux + (y - my) * uy);
    const j = bins.get(t);
    if (j === undefined || depth[i] > depth[j]) bins.set(t, i);
  }
  const spine = [...bins.values()];
  const fine = Math.max(0.6, scales.fine), broad = Math.max(fine, scales.broad);
  const near = (d: Float32Array, i: number) => {
    const x = i % w, y = (i - x) / w;
    let m = 0;
    for (let yy = Math.max(0, y - 1); yy <= Math.min(h - 1, y + 1); yy++) for (let xx = Math.max(0, x - 1); xx <= Math.min(w - 1, x + 1); xx++) m = Math.max(m, d[yy * w + xx]);
    return m;
  };
  const dFine = ridgeField(L, w, h, [fine]).depth, dBroad = ridgeField(L, w, h, [broad]).depth;
  const ratios = Float32Array.from(spine, (i) => near(dFine, i) / Math.max(1e-6, near(dBroad, i))).sort();
  // Cross-section: the spine's mean profile, half-pixel steps out to twice the broad scale.
  const g = blurPlane(L, w, h, fine), R = Math.ceil(4 * broad), prof = new Float64Array(2 * R + 1);
  const at = (x: number, y: number) => {
    const cx = Math.max(0, Math.min(w - 1.001, x)), cy = Math.max(0, Math.min(h - 1.001, y));
    const x0 = Math.floor(cx), y0 = Math.floor(cy), fx = cx - x0, fy = cy - y0, i = y0 * w + x0;
    return (1 - fy) * ((1 - fx) * g[i] + fx * g[i + 1]) + fy * ((1 - fx) * g[i + w] + fx * g[i + w + 1]);
  };
  for (const i of spine) {
    const x = i % w, y = (i - x) / w;
    for (let k = -R; k <= R; k++) prof[k + R] += at(x + nx * k * 0.5, y + ny * k * 0.5) / spine.length;
  }
  // The valley's bottom within a broad scale of the spine, then each flank's steepest rise (per pixel).
  let bottom = 0;
  for (let k = -Math.ceil(2 * broad); k <= Math.ceil(2 * broad); k++) if (prof[k + R] < prof[bottom + R]) bottom = k;
  const slope = (dir: 1 | -1) => {
    let best = 0;
    for (let k = bottom; Math.abs(k + dir) <= R; k += dir) best = Math.max(best, (prof[k + dir + R] - prof[k + R]) * 2);
    return best;
  };
  const a = slope(-1), b = slope(1);
  return { sharpness: ratios[ratios.length >> 1] ?? 0, asymmetry: a + b > 0 ? Math.abs(a - b) / (a + b) : 0, spine: spine.length };
}

/**
 * A band's floor with its own line left out: `times` x the `quantile` of the depth over the zone less the
 * pixels within `margin` px of `line` (what the rest of the band reads: the cheek's other relief, shading
 * and grain). Read over the whole band (spreadIn), a fold that fills half of it made the median its own
 * depth, and the floor then hid the very fold it was measured beside. When less than a quarter of the
 * zone is left, the floor is 0 (the caller's minimum depth then decides alone).
 */
export function floorBeside(depth: Float32Array, zone: Float32Array, w: number, line: Line | undefined, margin: number, quantile: number, times: number): number {
  const out = new Uint8Array(depth.length);
  if (line) {
    const m = Math.max(0, Math.round(margin)), h = depth.length / w;
    for (const i of line.at) {
      const x = i % w, y = (i - x) / w;
      for (let yy = Math.max(0, y - m); yy <= Math.min(h - 1, y + m); yy++) {
        for (let xx = Math.max(0, x - m); xx <= Math.min(w - 1, x + m); xx++) if ((xx - x) ** 2 + (yy - y) ** 2 <= m * m) out[yy * w + xx] = 1;
      }
    }
  }
  let inZone = 0;
  const rest: number[] = [];
  for (let i = 0; i < depth.length; i++) {
    if (zone[i] < 0.5) continue;
    inZone++;
    if (!out[i]) rest.push(Math.abs(depth[i]));
  }
  if (!rest.length || rest.length * 4 < inZone) return 0;
  rest.sort((a, b) => a - b);
  return times * rest[Math.min(rest.length - 1, Math.floor(rest.length * quantile))];
}
