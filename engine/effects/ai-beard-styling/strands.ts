/**
 * Hair drawn as strands. Per part: first its body (the dense mass a real beard shows between single hairs,
 * uneven by a low-frequency noise), then strands rooted inside the part with probability by its coverage,
 * each traced along the part's direction field with its own turn and curl, tapering in width and opacity
 * toward the tip, hanging a little with length, and drawn anti-aliased (coverage by distance to the strand's
 * centre line, the strand's own overlaps counted once). Colours are the person's hair colour varied per
 * strand and multiplied by the photo's light at each pixel (white hair's strands lighter, with more and
 * brighter highlights and shadowed strands between). A beard thins out toward its edge (sparser
 * strands, not a line across the cheek). Stubble is skin, not hair over it: a bluish-grey shadow of the hair
 * under the skin and short dark stumps, each only darker than the skin it lies on. Seeded: the same photo
 * gives the same beard.
 */
import type { Rect } from '../../image/rect.ts';
import type { BeardPart } from './presets.ts';
import { directionField, type FaceShape } from './shape.ts';
import { feather } from '../../image/feather.ts';
import { BODY_DARK, BODY_OPACITY, EDGE_BAND, EDGE_FLOOR, GREY_BODY_DARK, GREY_DARK, GREY_DARK_SHARE, GREY_SHEEN, GREY_SHEEN_SHARE, GREY_SPREAD, LOCK_WIDTH, MIN_SHARE, MIN_WIDTH, SHADOW_GAIN, SHADOW_TINT, SHEEN_GREY, STRAND_STEP, STRAND_WIDTH, STUBBLE_LENGTH, STUMP_MAX } from './tuning.ts';


export const hashSeed = (text: string) => {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
};

/** Smooth value noise on a grid of `cell` pixels, 0..1, over w x h. */
export function valueNoise(w: number, h: number, cell: number, rand: () => number): Float32Array {
  const gw = Math.ceil(w / cell) + 2, gh = Math.ceil(h / cell) + 2;
  const g = new Float32Array(gw * gh);
  for (let i = 0; i < g.length; i++) g[i] = rand();
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const gy = y / cell, y0 = Math.floor(gy), fy = gy - y0, sy = fy * fy * (3 - 2 * fy);
    for (let x = 0; x < w; x++) {
      const gx = x / cell, x0 = Math.floor(gx), fx = gx - x0, sx = fx * fx * (3 - 2 * fx);
      const o = y0 * gw + x0;
      out[y * w + x] = (g[o] * (1 - sx) + g[o + 1] * sx) * (1 - sy) + (g[o + gw] * (1 - sx) + g[o + gw + 1] * sx) * sy;
    }
  }
  return out;
}

export interface HairLook {
  /** Base hair colour, sRGB 0..255. */
  rgb: readonly [number, number, number];
  /** The photo's light at each window pixel relative to the face's (1 = as bright as the face's skin). */
  shade: Float32Array;
  /** How grey or white the hair is, 0..1 (colour.ts greyness): its body is then less dark. */
  grey?: number;
  /**
   * The photo's blur at the face, px (grain.ts edgeBlur): the hair is softened to it afterwards, and its
   * strands drawn as locks at least LOCK_WIDTH of it wide, so texture at a scale the blur leaves remains
   * (single-pixel strands blurred away left a flat tone).
   */
  blur?: number;
}

export const isStubble = (part: Pick<BeardPart, 'length'>) => part.length < STUBBLE_LENGTH;

/**
 * Stubble's shadow into `out` (RGB floats) over `cover`: the skin multiplied toward SHADOW_TINT by
 * `strength` x coverage, uneven by `noise` (0..1). Only ever darker than what is under it.
 */
export function stubbleShadow(out: Float32Array, cover: Float32Array, strength: number, noise: (i: number) => number): void {
  for (let i = 0; i < cover.length; i++) {
    const c = cover[i];
    if (c <= 0.01) continue;
    const a = Math.min(1, strength * c * (0.6 + 0.4 * noise(i)));
    for (let k = 0; k < 3; k++) out[i * 3 + k] *= 1 - a * (1 - SHADOW_TINT[k]);
  }
}

/**
 * Draws one part's body and strands into `out` (window RGB, floats 0..255). `cover` is the part's coverage;
 * strands root inside it and reach at most about 1.3 strand lengths past it.
 */
export function drawPart(out: Float32Array, f: FaceShape, part: BeardPart, cover: Float32Array, look: HairLook, rand: () => number, stop?: Float32Array): void {
  const { w, h } = f.win;
  const fw = f.faceWidth;
  const [hr, hg, hb] = look.rgb;
  // The part's box, and the rect its strands can reach (planes below are computed over the rect only).
  let x0 = w, y0 = h, x1 = -1, y1 = -1, area = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const c = cover[y * w + x];
      if (c <= 0.01) continue;
      area += c;
      if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
    }
  }
  if (x1 < 0) return;
  // Beards (whose edge runs across the cheek) thin out over the band, a part narrower than the band (a chin
  // strap) relative to its own middle; a moustache keeps its outline.
  const inner = part.flow === 'beard' || part.flow === 'point' ? feather(cover, f.win, EDGE_BAND * fw) : null;
  let peak = 0.05;
  if (inner) for (let i = 0; i < inner.length; i++) if (inner[i] > peak) peak = inner[i];
  /** Coverage thinned toward the outline's edge. */
  const dense = inner ? (i: number) => cover[i] * (EDGE_FLOOR + (1 - EDGE_FLOOR) * Math.min(1, inner[i] / peak)) : (i: number) => cover[i];
  /**
   * The body's: gone at the outline's edge, where only sparse strands reach (with the strands' floor its
   * edge stood as a line across the cheek once the hair was softened to a soft photo's blur).
   */
  const thick = inner ? (i: number) => cover[i] * Math.min(1, inner[i] / peak) : dense;
  const length = part.length * fw, width = Math.max(MIN_WIDTH, STRAND_WIDTH * fw, LOCK_WIDTH * (look.blur ?? 0));
  const reach = Math.ceil(1.3 * length + width + 2);
  const rx0 = Math.max(0, x0 - reach), ry0 = Math.max(0, y0 - reach), rx1 = Math.min(w, x1 + reach + 1), ry1 = Math.min(h, y1 + reach + 1);
  const rect: Rect = { x0: rx0, y0: ry0, w: rx1 - rx0, h: ry1 - ry0 };
  const rw = rect.w, rh = rect.h;
  /** Rect index of a window pixel. */
  const at = (x: number, y: number) => (y - rect.y0) * rw + x - rect.x0;
  const stubble = isStubble(part);
  if (stubble && part.body > 0) {
    const noise = valueNoise(rw, rh, Math.max(2, 0.015 * fw), rand);
    stubbleShadow(out, cover.map((_, i) => dense(i)), SHADOW_GAIN * part.body, (i) => noise[at(i % w, Math.floor(i / w))]);
  } else if (part.body > 0) {
    // Body: darker than single strands (light does not get between dense hairs), uneven in patches.
    const bodyDark = BODY_DARK + (GREY_BODY_DARK - BODY_DARK) * (look.grey ?? 0);
    const noise = valueNoise(rw, rh, Math.max(2, 0.02 * fw), rand);
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const i = y * w + x, c = thick(i);
        if (c <= 0.01) continue;
        const a = BODY_OPACITY * part.body * c * c * (0.5 + 0.5 * noise[at(x, y)]);
        const s = look.shade[i] * bodyDark;
        out[i * 3] += (hr * s - out[i * 3]) * a;
        out[i * 3 + 1] += (hg * s - out[i * 3 + 1]) * a;
        out[i * 3 + 2] += (hb * s - out[i * 3 + 2]) * a;
      }
    }
  }
  const dir = directionField(f, part.flow, rect);
  // Clumps: neighbouring strands share their lightness (hair grows and lies in locks), and the roots thin
  // out unevenly toward the part's edge rather than along a drawn line.
  const clump = valueNoise(rw, rh, Math.max(2, 0.012 * fw), rand);
  const ragged = valueNoise(rw, rh, Math.max(1.5, 0.008 * fw), rand);
  const count = Math.round((part.layers * area) / (Math.max(1.5, length * 0.9) * width));
  const scratch = new Float32Array(w * h);
  let touched = new Int32Array(1024);
  const [gx, gy] = f.down;
  const hang = Math.min(0.6, part.length * 6);
  const grey = look.grey ?? 0;
  /** The highlight's grey: white hair's is near white. */
  const glint = SHEEN_GREY + (255 - SHEEN_GREY) * grey;
  for (let n = 0, tries = 0; n < count && tries < count * 20; tries++) {
    // Roots: rejection sampling over the part's box, accepted by coverage.
    const rx = x0 + rand() * (x1 - x0 + 1), ry = y0 + rand() * (y1 - y0 + 1);
    const ix = Math.floor(rx), iy = Math.floor(ry), ri = iy * w + ix, rr = at(ix, iy);
    const c = dense(ri);
    if (c <= 0 || rand() >= Math.min(1, c * (0.55 + 0.9 * ragged[rr]))) continue;
    let dx = dir.dx[rr], dy = dir.dy[rr];
    if (dx !== dx) continue;
    if (stop && stop[ri] >= 0.5) continue;
    // Behind `stop` a strand ends and counts for the share of it drawn, so a part the stop cuts into (a
    // smiling face's lip over a moustache's outline) keeps its density where it shows.
    let drawn = 0;
    const len = length * (0.55 + 0.7 * rand()) * (0.45 + 0.55 * c);
    const wid = width * (0.7 + 0.6 * rand());
    // Stumps are the hair's dark cut ends; longer strands vary in locks.
    let lightness = stubble ? 0.45 + 0.35 * rand() : (0.65 + 0.6 * clump[rr]) * (0.75 + 0.55 * rand() ** 1.5);
    // A few strands catch the light: a grey sheen over their colour (stumps are too short to); white hair
    // more often and brighter, with shadowed strands between.
    const r1 = stubble ? 1 : rand();
    let sheen = r1 < 0.2 ? 0.12 + 0.2 * rand() : 0;
    if (grey > 0 && !stubble) {
      // Drawn only for grey hair, so other beards keep their seeded strands.
      const r2 = rand(), r3 = rand();
      const white = r1 < GREY_SHEEN_SHARE ? GREY_SHEEN[0] + GREY_SHEEN[1] * r2 : 0;
      const shadowed = r1 > 1 - GREY_DARK_SHARE;
      const own = shadowed ? GREY_DARK * (0.85 + 0.3 * r3) : 1 + GREY_SPREAD * (clump[rr] - 0.5) + 0.25 * (r3 - 0.5);
      lightness += (own - lightness) * grey;
      sheen += (white - sheen) * grey;
    }
    const alpha = 0.75 + 0.2 * rand();
    let turn = (rand() - 0.5) * 0.5;
    const bend = (rand() - 0.5) * 2 * part.curl / Math.max(1, len);
    const wave = part.curl > 0.6 ? (rand() * 2 * Math.PI) : 0, waveK = (2 * Math.PI) / Math.max(4, len * (0.4 + 0.4 * rand()));
    let px = rx, py = ry, nt = 0;
    const steps = Math.max(2, Math.ceil(len / STRAND_STEP));
    for (let s = 0; s <= steps; s++) {
      if (stop) {
        const sx = Math.floor(px), sy = Math.floor(py);
        if (sx >= 0 && sy >= 0 && sx < w && sy < h && stop[sy * w + sx] >= 0.5) break;
      }
      drawn = s;
      const t = s / steps;
      const wt = wid * (1 - 0.55 * t), aa = alpha * (1 - 0.6 * t * t);
      // Splat: coverage by distance to the centre line, widths under a pixel as fractional coverage.
      const r = wt / 2 + 0.5;
      const xa = Math.max(rect.x0, Math.floor(px - r)), xb = Math.min(rx1 - 1, Math.floor(px + r));
      const ya = Math.max(rect.y0, Math.floor(py - r)), yb = Math.min(ry1 - 1, Math.floor(py + r));
      const r2 = r * r, peak = Math.min(1, wt) * aa;
      for (let yy = ya; yy <= yb; yy++) {
        const ey = yy + 0.5 - py;
        for (let xx = xa; xx <= xb; xx++) {
          const ex = xx + 0.5 - px, d2 = ex * ex + ey * ey;
          if (d2 >= r2) continue;
          const cov = Math.min(1, r - Math.sqrt(d2)) * peak;
          const o = yy * w + xx;
          if (scratch[o] === 0) {
            if (nt === touched.length) { const t2 = new Int32Array(nt * 2); t2.set(touched); touched = t2; }
            touched[nt++] = o;
          }
          if (cov > scratch[o]) scratch[o] = cov;
        }
      }
      // Next point: the field where the strand is now, turned by the strand's own angle, hanging with length.
      const k = at(Math.min(rx1 - 1, Math.max(rect.x0, Math.floor(px))), Math.min(ry1 - 1, Math.max(rect.y0, Math.floor(py))));
      const fx = dir.dx[k], fy = dir.dy[k];
      if (fx === fx) { dx = fx; dy = fy; }
      turn += bend * STRAND_STEP + (wave ? 0.35 * part.curl * Math.cos(wave + waveK * s * STRAND_STEP) * waveK * STRAND_STEP : 0);
      const cs = Math.cos(turn), sn = Math.sin(turn);
      let ux = dx * cs - dy * sn, uy = dx * sn + dy * cs;
      ux += gx * hang * t; uy += gy * hang * t;
      const un = Math.hypot(ux, uy) || 1;
      px += (ux / un) * STRAND_STEP; py += (uy / un) * STRAND_STEP;
      if (px < rect.x0 || py < rect.y0 || px >= rx1 || py >= ry1) break;
    }
    n += stop ? Math.max(MIN_SHARE, drawn / steps) : 1;
    for (let k = 0; k < nt; k++) {
      const o = touched[k], a = scratch[o];
      scratch[o] = 0;
      const s = look.shade[o] * lightness, g = glint * look.shade[o] * sheen;
      for (let ch = 0; ch < 3; ch++) {
        const v = out[o * 3 + ch], hair = look.rgb[ch] * s * (1 - sheen) + g;
        out[o * 3 + ch] += ((stubble ? Math.min(hair, STUMP_MAX * v) : hair) - v) * a;
      }
    }
  }
}
