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
 * The texture carried past the exemplar's own beard, so a preset larger than it (a long beard's drop, a
 * handlebar's tips) still has real hair: each pixel outside takes the pixel mirrored across its nearest
 * beard pixel (hair texture continues across the edge, with no seam and no repeated tile), in FILL_PASSES
 * bands outward; the nearest pixel itself only where the last band's mirror still falls outside. The alpha
 * is left as cut.
 */
export function fillTexture(b: CanonicalBeard): CanonicalBeard {
  const { w, h, rgb, alpha } = b, n = w * h;
  const near = new Int32Array(n);
  const queue = new Int32Array(n);
  let head = 0, tail = 0;
  // The core: the cut's sure pixels, less those much lighter than its typical hair (lit skin at a sparse
  // beard's edge, a lip corner): mirrored in from the hair beside them instead.
  const luma = (i: number) => 0.299 * rgb[i * 3] + 0.587 * rgb[i * 3 + 1] + 0.114 * rgb[i * 3 + 2];
  const sure: number[] = [];
  for (let i = 0; i < n; i++) if (alpha[i] >= CORE) sure.push(luma(i));
  sure.sort((a, b) => a - b);
  const med = sure[sure.length >> 1] ?? 0, mad = sure.length ? sure.map((l) => Math.abs(l - med)).sort((a, b) => a - b)[sure.length >> 1] : 0;
  const core = new Uint8Array(n);
  for (let i = 0; i < n; i++) core[i] = alpha[i] >= CORE && luma(i) <= med + LIGHT_OUT * 1.4826 * mad ? 1 : 0;
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

/** A library texture ready to render: its Lab planes with its own light taken out, and their statistics over its beard. */
export interface Exemplar extends CanonicalBeard {
  info: ExemplarInfo;
  /** Lab of the filled texture; L with the exemplar's broad light (LIGHT_SCALE) replaced by its mean. */
  lab: Float32Array;
  mean: [number, number, number];
  spread: [number, number, number];
}

/** The exemplar's broad light, canonical units: its luma blurred this far is divided out. */
export const LIGHT_SCALE = 0.05;

/** Lab planes and statistics of a filled texture (over its own beard, alpha ≥ CORE). */
export function prepareExemplar(b: CanonicalBeard, info: ExemplarInfo): Exemplar {
  const n = b.w * b.h, lab = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) {
    const c = linearToLab(srgbToLinear(Math.min(255, Math.max(0, b.rgb[i * 3]))), srgbToLinear(Math.min(255, Math.max(0, b.rgb[i * 3 + 1]))), srgbToLinear(Math.min(255, Math.max(0, b.rgb[i * 3 + 2]))));
    lab[i * 3] = c.l; lab[i * 3 + 1] = c.a; lab[i * 3 + 2] = c.b;
  }
  const L = new Float32Array(n);
  for (let i = 0; i < n; i++) L[i] = lab[i * 3];
  const broad = gauss(L, b.w, b.h, LIGHT_SCALE * b.res);
  let count = 0;
  const sum = [0, 0, 0], sq = [0, 0, 0];
  for (let i = 0; i < n; i++) if (b.alpha[i] >= CORE) { count++; for (let c = 0; c < 3; c++) sum[c] += lab[i * 3 + c]; }
  const m = sum.map((s) => s / Math.max(1, count)) as [number, number, number];
  // The exemplar's own light (a lit chin, a shadowed jaw) taken out: the target's is put back (render.ts).
  for (let i = 0; i < n; i++) lab[i * 3] = L[i] - broad[i] + m[0];
  for (let i = 0; i < n; i++) if (b.alpha[i] >= CORE) for (let c = 0; c < 3; c++) { const d = lab[i * 3 + c] - m[c]; sq[c] += d * d; }
  const s = sq.map((v) => Math.sqrt(v / Math.max(1, count))) as [number, number, number];
  return { ...b, info, lab, mean: m, spread: s };
}

const ready = new Map<string, Exemplar>();

/** Loads and prepares the whole library (once per process): the effect's steps are synchronous after it. */
export async function loadLibrary(): Promise<void> {
  for (const info of exemplarLibrary()) if (!ready.has(info.file)) ready.set(info.file, prepareExemplar(await loadExemplar(info), info));
}

/** The first loaded exemplar of a style; throws when loadLibrary has not run. */
export function exemplarOf(style: ExemplarInfo['style']): Exemplar {
  const info = exemplarLibrary().find((e) => e.style === style);
  const e = info && ready.get(info.file);
  if (!e) throw new Error(`beard exemplar library not loaded (style ${style})`);
  return e;
}
