/**
 * Real beards in the canonical face frame: a photo's beard cut by a mask (looks/beard/mask.ts's for the
 * library, template.ts's for a template photo) and resampled through its face mesh into the mesh's canonical
 * (u, v) coordinates, the frame presets.ts draws its shapes in. Stored as RGBA (alpha = the mask) over
 * FRAME at `res` pixels per canonical unit (about one pixel per pixel of a face as wide as `res`).
 * The library (exemplars/, SOURCES.md beside it) is built by scripts/beard-library.ts from CC0 and CC BY-SA
 * portraits; render.ts carries a cut beard onto a face.
 */
import { readFileSync } from 'node:fs';
import { linearToLab, srgbToLinear } from '../../image/colour.ts';
import { gauss } from '../../image/gauss.ts';
import { seededRandom } from '../../image/random.ts';
import type { RasterImage } from '../../image/raster.ts';
import type { Rect } from '../../image/rect.ts';
import { sampleAtlas, uvField, type P3 } from '../../vision/regions/uv-map.ts';
import { cutToFrame, decodeFrame, encodeFrame, frameSizeOf, type FrameImage } from '../../vision/regions/canonical-frame.ts';
import { atlas } from '../../vision/regions/atlas.ts';
import { parsingPlane } from '../../vision/regions/skin-mask.ts';
import type { Face } from '../../vision/faces/detect.ts';
import type { FaceParsing } from '../../vision/parsing/face-parsing.ts';
import type { BeardMask } from '../../looks/beard/mask.ts';
import { BEARD_SKIRT } from './tuning.ts';
import { beardSurface } from './shape.ts';

/** The canonical box a beard can lie in: cheekbones to the skirt's reach under the chin, ear to ear. */
export const FRAME = { u0: -0.1, v0: 0.4, u1: 1.1, v1: 1.3 } as const;

/** A beard in FRAME: `alpha` is its coverage. */
export type CanonicalBeard = FrameImage;

export const frameSize = (res: number) => frameSizeOf(FRAME, res);

/** The beard of `image` (its `mask` over `maskWin`, 0..1) in the canonical frame, through the face's mesh and skirt. */
export const cutCanonical = (image: RasterImage, mesh: readonly P3[], mask: Float32Array, maskWin: Rect, res: number): CanonicalBeard =>
  cutToFrame(image, beardSurface(mesh), FRAME, mask, maskWin, res);

/**
 * A library portrait's beard in the canonical frame: beard removal's `mask` (looks/beard/mask.ts) or the
 * mesh's beard and moustache zones, whichever is more, less what the parsing calls lips, mouth, nose,
 * background, clothes, glasses or hat. The mask alone misses much of a beard on dark skin (0 on two of the
 * library's portraits) and leaves holes in a full one; every library portrait is known to be bearded.
 */
export function cutExemplar(image: RasterImage, face: Face, parsing: FaceParsing, mask: BeardMask, res: number): CanonicalBeard {
  const m = face.mesh!;
  const field = uvField(m, mask.win, BEARD_SKIRT);
  const zone = sampleAtlas(atlas('beard'), field), tash = sampleAtlas(atlas('moustache'), field);
  const other = parsingPlane(parsing, ['upperLip', 'lowerLip', 'mouth', 'nose', 'background', 'cloth', 'glasses', 'hat'], mask.win);
  const cover = mask.beard.map((b, i) => Math.max(b, Math.max(zone[i], tash[i]) * Math.max(0, 1 - 1.5 * other[i])));
  return cutCanonical(image, m, cover, mask.win, res);
}

/** A cut beard as an RGBA PNG (the library's asset). */
export const encodeCanonical = encodeFrame;

export const decodeCanonical = (png: Buffer, res: number): Promise<CanonicalBeard> => decodeFrame(png, FRAME, res, 'beard exemplar');

/** One library entry (exemplars/library.json). */
export interface ExemplarInfo {
  /** The PNG beside library.json. */
  file: string;
  res: number;
  /** What kind of hair it holds: presets pick by it (library.ts). */
  style: 'long' | 'short' | 'stubble';
  source: string;
}

const LIBRARY_DIR = new URL('./exemplars/', import.meta.url);
let library: ExemplarInfo[] | undefined;
const loaded = new Map<string, Promise<CanonicalBeard>>();

export function exemplarLibrary(): ExemplarInfo[] {
  library ??= JSON.parse(readFileSync(new URL('library.json', LIBRARY_DIR), 'utf8')).exemplars as ExemplarInfo[];
  return library;
}

/** An exemplar's texture, decoded once per process. */
export function loadExemplar(info: ExemplarInfo): Promise<CanonicalBeard> {
  let p = loaded.get(info.file);
  if (!p) {
    p = decodeCanonical(readFileSync(new URL(info.file, LIBRARY_DIR)), info.res).then(fillTexture);
    loaded.set(info.file, p);
  }
  return p;
}

/** Alpha from which a frame pixel counts as the exemplar's own beard (its texture is real hair there). */
export const CORE = 0.6;

/** A core pixel is at most this many robust spreads lighter than the cut's median. */
const LIGHT_OUT = 1.5;
/** Mirroring passes outward from the hair (each reaches about as far again as the hair is thick). */
const FILL_PASSES = 6;

/**
 * The cut's own hair: its sure pixels (alpha ≥ CORE), less those much lighter than its typical hair (lit
 * skin at a sparse beard's edge, a lip corner), 1 per pixel.
 */
export function hairCore(b: CanonicalBeard): Uint8Array {
  const { rgb, alpha } = b, n = b.w * b.h;
  const luma = (i: number) => 0.299 * rgb[i * 3] + 0.587 * rgb[i * 3 + 1] + 0.114 * rgb[i * 3 + 2];
  const sure: number[] = [];
  for (let i = 0; i < n; i++) if (alpha[i] >= CORE) sure.push(luma(i));
  sure.sort((a, b) => a - b);
  const med = sure[sure.length >> 1] ?? 0, mad = sure.length ? sure.map((l) => Math.abs(l - med)).sort((a, b) => a - b)[sure.length >> 1] : 0;
  const core = new Uint8Array(n);
  for (let i = 0; i < n; i++) core[i] = alpha[i] >= CORE && luma(i) <= med + LIGHT_OUT * 1.4826 * mad ? 1 : 0;
  return core;
}

/**
 * The texture carried past the exemplar's own beard, so a preset larger than it (a long beard's drop, a
 * handlebar's tips) still has real hair: each pixel outside takes the pixel mirrored across its nearest
 * beard pixel (hair texture continues across the edge, with no seam and no repeated tile), in FILL_PASSES
 * bands outward; the nearest pixel itself only where the last band's mirror still falls outside. The alpha
 * is left as cut. Only a base now: prepareExemplar keeps its fine detail and replaces the non-hair places'
 * by synthesis (the mirrored bands showed as blocks and streaks).
 */
export function fillTexture(b: CanonicalBeard): CanonicalBeard {
  const { w, h, rgb } = b, n = w * h;
  const near = new Int32Array(n);
  const queue = new Int32Array(n);
  let head = 0, tail = 0;
  const core = hairCore(b);
  const out = Float32Array.from(rgb);
  // Each pass mirrors in as far as the hair beside it reaches; what it filled is hair for the next pass, so
  // the texture is carried outward in bands (a pixel whose mirror falls outside waits: taking the nearest
  // pixel alone smeared it into streaks).
  for (let pass = 0; pass < FILL_PASSES; pass++) {
    near.fill(-1);
    head = 0; tail = 0;
    for (let i = 0; i < n; i++) if (core[i]) { near[i] = i; queue[tail++] = i; }
    if (!tail || tail === n) break;
    while (head < tail) {
      const i = queue[head++], x = i % w, y = (i / w) | 0;
      const visit = (j: number) => { if (near[j] < 0) { near[j] = near[i]; queue[tail++] = j; } };
      if (x > 0) visit(i - 1);
      if (x < w - 1) visit(i + 1);
      if (y > 0) visit(i - w);
      if (y < h - 1) visit(i + w);
    }
    const done: number[] = [];
    const last = pass === FILL_PASSES - 1;
    for (let i = 0; i < n; i++) {
      if (core[i]) continue;
      const q = near[i], qx = q % w, qy = (q / w) | 0, x = i % w, y = (i / w) | 0;
      const rx = 2 * qx - x, ry = 2 * qy - y;
      const r = rx >= 0 && ry >= 0 && rx < w && ry < h && core[ry * w + rx] ? ry * w + rx : last ? q : -1;
      if (r < 0) continue;
      for (let c = 0; c < 3; c++) out[i * 3 + c] = out[r * 3 + c];
      done.push(i);
    }
    for (const i of done) core[i] = 1;
  }
  return { ...b, rgb: out };
}

/**
 * A library texture ready to render: the hair's fine detail alone, with the exemplar's coarser structure
 * taken out. What is coarser than a few strands in a cut beard is not hair texture: its lit and shadowed
 * sides, skin showing through a sparse patch or under the lip, and the fill's mirrored blocks; laid on a
 * face they read as pale blocks, a stepped upper edge and dirt-like blotches. The render draws the beard's
 * tone from the target (its hair colour and light) and only this detail from the exemplar.
 */
export interface Exemplar extends CanonicalBeard {
  info: ExemplarInfo;
  /**
   * Lab detail of the filled texture finer than BEARD_SCALE, each channel divided by the L detail's local
   * strength (over DETAIL_NORM), holes synthesised, then streaked along the hair's flow (streak): strands
   * whose L has unit spread everywhere.
   */
  detail: Float32Array;
  /** The same for stubble: finer detail (STUBBLE_SCALE) streaked over a short hair's length. */
  stubble: Float32Array;
}

/**
 * Structure coarser than this (canonical units, a Gaussian's sigma) is the exemplar's patches and light, not
 * its hair: where the detail this fine is as strong as a beard's is hair (the synthesis' sources).
 */
export const DETAIL_SCALE = 0.012;
/** The detail's local strength is measured over this (canonical units), so sparse and dense parts read alike. */
export const DETAIL_NORM = 0.04;
/** The local strength divided by is at least this share of its median over the beard (a bare patch is not blown up). */
const NORM_FLOOR = 0.5;
/** Normalised detail clipped to this many spreads (a specular glint or a hole edge). */
const DETAIL_CLIP = 3;

/** The normalised, streaked Lab detail of a filled texture for beards and for stubble (its own beard, alpha ≥ CORE, sets the strength floor). */
export function prepareExemplar(b: CanonicalBeard, info: ExemplarInfo): Exemplar {
  const n = b.w * b.h, planes = [new Float32Array(n), new Float32Array(n), new Float32Array(n)];
  for (let i = 0; i < n; i++) {
    const c = linearToLab(srgbToLinear(Math.min(255, Math.max(0, b.rgb[i * 3]))), srgbToLinear(Math.min(255, Math.max(0, b.rgb[i * 3 + 1]))), srgbToLinear(Math.min(255, Math.max(0, b.rgb[i * 3 + 2]))));
    planes[0][i] = c.l; planes[1][i] = c.a; planes[2][i] = c.b;
  }
  const { strength, med } = detailStrength(fineOf(planes[0], b, DETAIL_SCALE), b);
  const detail = normalised(planes, b, BEARD_SCALE);
  // Real hair detail: the cut's hair core where its detail is as strong as a beard's (not skin under the
  // lip, not the fill's mirrored streaks); the rest is taken from the nearest such hair.
  const core = hairCore(b);
  const hair = new Uint8Array(n);
  for (let i = 0; i < n; i++) hair[i] = core[i] && strength[i] >= HAIR_STRENGTH * med ? 1 : 0;
  const cell = Math.max(4, Math.round(CELL * b.res));
  // Stubble's short hairs: the exemplar's finest detail, streaked over a short hair's length (no tiling of
  // the beard's texture at a finer scale: its reflections read as a symmetric, regular pattern).
  const short = normalised(planes, b, STUBBLE_SCALE);
  return {
    ...b, info,
    detail: streak(synthesise(detail, hair, b.w, b.h, cell), hair, b.w, b.h, b.res, STRAND),
    stubble: streak(synthesise(short, hair, b.w, b.h, cell), hair, b.w, b.h, b.res, STUBBLE_STRAND),
  };
}

/** The L detail's local strength (over DETAIL_NORM) at `scale`, and its median over the exemplar's own beard (alpha ≥ CORE). */
function detailStrength(fineL: Float32Array, b: CanonicalBeard) {
  const strength = gauss(fineL.map((d) => d * d), b.w, b.h, DETAIL_NORM * b.res).map(Math.sqrt);
  const own: number[] = [];
  for (let i = 0; i < b.w * b.h; i++) if (b.alpha[i] >= CORE) own.push(strength[i]);
  own.sort((x, y) => x - y);
  return { strength, med: own[own.length >> 1] ?? 0 };
}

/** `p`'s detail finer than `scale` (canonical units, a Gaussian's sigma). */
function fineOf(p: Float32Array, b: CanonicalBeard, scale: number): Float32Array {
  const low = gauss(p, b.w, b.h, scale * b.res);
  return p.map((v, i) => v - low[i]);
}

/** The Lab detail of `planes` finer than `scale`, each channel divided by the L detail's local strength (over DETAIL_NORM, floored). */
function normalised(planes: Float32Array[], b: CanonicalBeard, scale: number): Float32Array {
  const n = b.w * b.h;
  const fine = planes.map((p) => fineOf(p, b, scale));
  const { strength, med } = detailStrength(fine[0], b);
  const floor = Math.max(1e-3, NORM_FLOOR * (med || 1));
  const detail = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) {
    const k = 1 / Math.max(floor, strength[i]);
    for (let c = 0; c < 3; c++) detail[i * 3 + c] = Math.max(-DETAIL_CLIP, Math.min(DETAIL_CLIP, fine[c][i] * k));
  }
  return detail;
}

/** Stubble's texture: detail finer than this (canonical units, a Gaussian's sigma; about one exemplar pixel). */
export const STUBBLE_SCALE = 0.004;
/** A stubble hair's length along the flow (canonical units, a Gaussian's sigma). */
export const STUBBLE_STRAND = 0.004;

/** A strand's length (canonical units, the Gaussian sigma along the flow): about a short beard's hairs as seen. */
export const STRAND = 0.015;
/** A beard's texture: detail finer than this (canonical units, a Gaussian's sigma), about a strand's width. */
export const BEARD_SCALE = 0.008;
/** The share of the isotropic detail kept beside the streaked (a strand's own broken texture). */
const STREAK_KEEP = 0.3;

/**
 * The direction hair grows in the canonical frame (unit vector, frame pixels): down on the chin, cheeks and
 * neck; out and down from the philtrum over the upper lip (a moustache's hairs fan toward the mouth's corners).
 */
export function flowAt(u: number, v: number): [number, number] {
  // Moustache zone: above the mouth (v under 0.7) and within the mouth corners and a little past them.
  const tash = Math.min(1, Math.max(0, (0.72 - v) / 0.03)) * Math.min(1, Math.max(0, (0.26 - Math.abs(u - 0.5)) / 0.06));
  const dx = tash * 4 * (u - 0.5), dy = 1;
  const len = Math.hypot(dx, dy);
  return [dx / len, dy / len];
}

/**
 * The detail smeared along the hair's flow (a line integral of the texture, after Cabral and Leedom 1993):
 * the exemplar's isotropic fine detail reads as a stipple of dots and flecks at a beard's scale; averaged
 * along the direction hair grows, its dark and light runs become strands and the gaps between them. Then
 * back to a unit spread over the hair (its robust spread), STREAK_KEEP of the unsmeared detail kept.
 */
export function streak(detail: Float32Array, hair: Uint8Array, w: number, h: number, res: number, strand: number): Float32Array {
  const sigma = strand * res, reach = Math.ceil(2 * sigma);
  const taps: number[] = [];
  for (let t = -reach; t <= reach; t++) taps.push(Math.exp(-(t * t) / (2 * sigma * sigma)));
  const out = new Float32Array(w * h * 3);
  const acc = [0, 0, 0];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const [dx, dy] = flowAt(FRAME.u0 + (x + 0.5) / res, FRAME.v0 + (y + 0.5) / res);
      acc[0] = acc[1] = acc[2] = 0;
      let wsum = 0;
      for (let t = -reach; t <= reach; t++) {
        const sx = x + t * dx, sy = y + t * dy;
        if (sx < 0 || sy < 0 || sx > w - 1.001 || sy > h - 1.001) continue;
        const x0 = Math.floor(sx), y0 = Math.floor(sy), ax = sx - x0, ay = sy - y0, wt = taps[t + reach];
        const o = (y0 * w + x0) * 3, r = w * 3;
        for (let c = 0; c < 3; c++) acc[c] += wt * ((detail[o + c] * (1 - ax) + detail[o + 3 + c] * ax) * (1 - ay) + (detail[o + r + c] * (1 - ax) + detail[o + r + 3 + c] * ax) * ay);
        wsum += wt;
      }
      const o = (y * w + x) * 3;
      for (let c = 0; c < 3; c++) out[o + c] = wsum > 0 ? acc[c] / wsum : 0;
    }
  }
  const spread = (p: Float32Array) => {
    const d: number[] = [];
    for (let i = 0; i < w * h; i++) if (hair[i]) d.push(Math.abs(p[i * 3]));
    d.sort((a, b) => a - b);
    return Math.max(1e-3, 1.4826 * (d[d.length >> 1] ?? 1));
  };
  const ks = (1 - STREAK_KEEP) / spread(out), kd = STREAK_KEEP / spread(detail);
  const mixed = out.map((v, i) => v * ks + detail[i] * kd);
  const km = 1 / spread(mixed);
  return mixed.map((v) => Math.max(-DETAIL_CLIP, Math.min(DETAIL_CLIP, v * km)));
}

/** A beard's detail counts as hair from this share of its median strength over the cut. */
const HAIR_STRENGTH = 0.7;
/** The synthesis' cell (canonical units): about a few strands' length. */
const CELL = 0.05;
/** A cell is its own texture when this share of its pixels is hair; a source patch needs as much. */
const CELL_HAIR = 0.85;
/** A hole's cell reads from any hair place up to this many times the nearest one's distance (plus two cells). */
const NEAR_SLACK = 1.5;

/**
 * Fills the exemplar's non-hair places with its own hair detail (after Heitz and Neyret's by-example noise,
 * 2018): overlapping cells on a grid of `g` pixels, each reading the texture at its own place when that is
 * hair, else shifted to the nearest place whose patch is hair (so the strands keep the neighbourhood's
 * direction); the cells' tent weights blended with the variance-preserving sum (Σ w·T / sqrt(Σ w²)), so
 * the filled texture keeps a unit spread and shows no seams.
 */
export function synthesise(detail: Float32Array, hair: Uint8Array, w: number, h: number, g: number): Float32Array {
  // Share of hair in the 2g patch around each pixel (an integral image).
  const I = new Float64Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) I[(y + 1) * (w + 1) + x + 1] = hair[y * w + x] + I[y * (w + 1) + x + 1] + I[(y + 1) * (w + 1) + x] - I[y * (w + 1) + x];
  const share = (cx: number, cy: number) => {
    const x0 = Math.max(0, cx - g), y0 = Math.max(0, cy - g), x1 = Math.min(w, cx + g), y1 = Math.min(h, cy + g);
    const a = (x1 - x0) * (y1 - y0);
    return a > 0 ? (I[y1 * (w + 1) + x1] - I[y0 * (w + 1) + x1] - I[y1 * (w + 1) + x0] + I[y0 * (w + 1) + x0]) / a : 0;
  };
  // The places a hair patch can be read from (fully inside the frame).
  const sources: number[] = [];
  const step = Math.max(1, g >> 2);
  for (let y = g; y + g <= h; y += step) for (let x = g; x + g <= w; x += step) if (share(x, y) >= CELL_HAIR) sources.push(x, y);
  if (!sources.length) return detail;
  const gw = Math.ceil(w / g) + 1, gh = Math.ceil(h / g) + 1;
  const rand = seededRandom(w * 7919 + h);
  const shift = new Int32Array(gw * gh * 2);
  for (let cy = 0; cy < gh; cy++) {
    for (let cx = 0; cx < gw; cx++) {
      const x = cx * g, y = cy * g;
      if (x < w && y < h && share(x, y) >= CELL_HAIR) continue;
      // One of the hair places within NEAR_SLACK of the nearest, drawn per cell (seeded): the nearest
      // alone repeated one patch over every cell of a hole, a visible grid.
      let best = Infinity;
      for (let k = 0; k < sources.length; k += 2) best = Math.min(best, (sources[k] - x) ** 2 + (sources[k + 1] - y) ** 2);
      const reach = (Math.sqrt(best) * NEAR_SLACK + 2 * g) ** 2, near: number[] = [];
      for (let k = 0; k < sources.length; k += 2) if ((sources[k] - x) ** 2 + (sources[k + 1] - y) ** 2 <= reach) near.push(k);
      const k = near[Math.floor(rand() * near.length)];
      shift[(cy * gw + cx) * 2] = sources[k] - x; shift[(cy * gw + cx) * 2 + 1] = sources[k + 1] - y;
    }
  }
  const out = new Float32Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    const cy0 = Math.floor(y / g), ty = y / g - cy0;
    for (let x = 0; x < w; x++) {
      const cx0 = Math.floor(x / g), tx = x / g - cx0;
      const acc = [0, 0, 0], wts = [0, 0, 0, 0], keys = [0, 0, 0, 0];
      for (let dy = 0; dy < 2; dy++) {
        for (let dx = 0; dx < 2; dx++) {
          const wt = (dx ? tx : 1 - tx) * (dy ? ty : 1 - ty);
          const c = ((cy0 + dy) * gw + cx0 + dx) * 2;
          wts[dy * 2 + dx] = wt; keys[dy * 2 + dx] = shift[c] * 65536 + shift[c + 1];
          if (wt <= 0) continue;
          const sx = Math.min(w - 1, Math.max(0, x + shift[c])), sy = Math.min(h - 1, Math.max(0, y + shift[c + 1]));
          const o = (sy * w + sx) * 3;
          for (let ch = 0; ch < 3; ch++) acc[ch] += wt * detail[o + ch];
        }
      }
      // Cells reading the same place add coherently (their weights sum); different places add as independent noise.
      let w2 = 0;
      for (let a = 0; a < 4; a++) {
        if (keys.indexOf(keys[a]) !== a) continue;
        let sum = 0;
        for (let b2 = a; b2 < 4; b2++) if (keys[b2] === keys[a]) sum += wts[b2];
        w2 += sum * sum;
      }
      const k = 1 / Math.sqrt(Math.max(1e-6, w2)), o = (y * w + x) * 3;
      for (let ch = 0; ch < 3; ch++) out[o + ch] = acc[ch] * k;
    }
  }
  return out;
}

const ready = new Map<string, Exemplar>();

/** Loads and prepares the whole library (once per process): the effect's steps are synchronous after it. */
export async function loadLibrary(): Promise<void> {
  for (const info of exemplarLibrary()) if (!ready.has(info.file)) ready.set(info.file, prepareExemplar(await loadExemplar(info), info));
}

/**
 * The library's texture (its first entry): with only the detail transferred (prepareExemplar), what sets a
 * beard's look is how clearly its strands read, and the short full beard's (beard_full_short_black_glasses_03)
 * read best on the check half's faces (docs/experiments/ai-beard-styling.md). Throws when loadLibrary has not run.
 */
export function exemplarOf(): Exemplar {
  const info = exemplarLibrary()[0];
  const e = info && ready.get(info.file);
  if (!e) throw new Error('beard exemplar library not loaded');
  return e;
}
