/**
 * Real clean-shaven lower faces (upper lip, chin, jaw, under the jaw, neck) in a canonical face frame: each
 * library portrait's bare skin (the parser's skin and neck) resampled through its face mesh into the mesh's
 * canonical (u, v) coordinates and stored as RGBA (alpha = bare skin) at `res` pixels per canonical unit.
 * At removal time the exemplar's fine band (pores, shaving grain, the small creases of a chin) is carried
 * onto the target through the target's mesh, scaled to the spread of the target's own skin band, and laid
 * over the fill's low band (looks/beard/removal.ts, BeardPlanes.grain): a shaved area then has the grain of
 * real bare lower-face skin at the person's own contrast, not a copy of cheek patches (which carried hair
 * that the parser calls skin, and on a dense beard left a smooth membrane).
 * The library (skin/, SOURCES.md beside it) is built by scripts/skin-library.ts from public-domain and CC0
 * portraits.
 */
import { readFileSync } from 'node:fs';
import { linearToLab, srgbToLinear } from '../../image/colour.ts';
import { gauss } from '../../image/gauss.ts';
import type { RasterImage } from '../../image/raster.ts';
import type { Rect } from '../../image/rect.ts';
import { faceSurface, uvField, type P3 } from '../../vision/regions/uv-map.ts';
import { bilinear, cutToFrame, decodeFrame, encodeFrame, frameSizeOf, type FrameImage } from '../../vision/regions/canonical-frame.ts';
import type { GrainSource } from '../../looks/beard/removal.ts';

/** The canonical box the library covers: below the nose to the neck, ear to ear. */
export const SKIN_FRAME = { u0: -0.1, v0: 0.45, u1: 1.1, v1: 1.4 } as const;
/** The surface's skirt past the face outline (as beard styling's): it reaches under the jaw onto the neck. */
export const SKIN_SKIRT = 0.6;
/**
 * The exemplar's band: its Lab less their blur over this many canonical units (about face widths), the
 * scale of the person's own texture band (removalTuning.textureSigma). A finer band (0.008) was smooth on a
 * soft photo: its own skin has next to no contrast that fine, and the grain scaled to it vanished.
 */
export const GRAIN_SIGMA = 0.015;

export const skinFrameSize = (res: number) => frameSizeOf(SKIN_FRAME, res);

/** A portrait's bare lower face in SKIN_FRAME: `alpha` is its bare skin. */
export type CanonicalSkin = FrameImage;

/** A portrait's lower face in the canonical frame: colour read through the mesh, alpha from `bare` (0..1 over `bareWin`). */
export const cutSkin = (image: RasterImage, mesh: readonly P3[], bare: Float32Array, bareWin: Rect, res: number): CanonicalSkin =>
  cutToFrame(image, faceSurface(mesh, SKIN_SKIRT), SKIN_FRAME, bare, bareWin, res);

export const encodeSkin = encodeFrame;

const decodeSkin = (png: Buffer, res: number): Promise<CanonicalSkin> => decodeFrame(png, SKIN_FRAME, res, 'skin exemplar');

export interface SkinInfo { file: string; res: number; source: string }

/** An exemplar ready to lay: its Lab fine band in units of its own robust spread, and where it is sure skin. */
export interface SkinExemplar { info: SkinInfo; w: number; h: number; res: number; band: Float32Array[]; sure: Float32Array }

/** Alpha from which an exemplar pixel counts as bare skin. */
const SURE = 0.6;
/**
 * The exemplar's band is clipped at this many robust spreads on the light side, and at DARK_CLIP on the dark:
 * a freshly shaved chin's darkest specks are stubble, which a removal must not put back.
 */
const CLIP = 3;
const DARK_CLIP = 1.5;

/** The exemplar's Lab fine band (GRAIN_SIGMA) over its robust spread on its sure skin, per channel. */
export function prepareSkin(s: CanonicalSkin, info: SkinInfo): SkinExemplar {
  const n = s.w * s.h, planes = [new Float32Array(n), new Float32Array(n), new Float32Array(n)];
  for (let i = 0; i < n; i++) {
    const c = linearToLab(srgbToLinear(s.rgb[i * 3]), srgbToLinear(s.rgb[i * 3 + 1]), srgbToLinear(s.rgb[i * 3 + 2]));
    planes[0][i] = c.l; planes[1][i] = c.a; planes[2][i] = c.b;
  }
  // A sure pixel must have sure skin across the band's reach (a lip's, nostril's or collar's edge nearby
  // would carry that edge into the band).
  const sure = gauss(Float32Array.from(s.alpha, (a) => (a >= SURE ? 1 : 0)), s.w, s.h, 2 * GRAIN_SIGMA * s.res);
  for (let i = 0; i < n; i++) sure[i] = Math.min(1, Math.max(0, (sure[i] - 0.85) / 0.1));
  const band = planes.map((p) => {
    // The band is taken from the skin alone (a normalised masked blur), so the frame's empty pixels do not bleed in.
    const wgt = Float32Array.from(s.alpha, (a) => (a >= SURE ? 1 : 0));
    const num = gauss(Float32Array.from(p, (v, i) => v * wgt[i]), s.w, s.h, GRAIN_SIGMA * s.res), den = gauss(wgt, s.w, s.h, GRAIN_SIGMA * s.res);
    const b = new Float32Array(n);
    for (let i = 0; i < n; i++) b[i] = den[i] > 1e-3 ? p[i] - num[i] / den[i] : 0;
    // In units of its robust spread, clipped (a mole, a fleck of light, stubble's specks).
    const v: number[] = [];
    for (let i = 0; i < n; i++) if (sure[i] >= 1) v.push(Math.abs(b[i]));
    v.sort((x, y) => x - y);
    const spread = Math.max(1e-3, 1.4826 * (v[v.length >> 1] ?? 1));
    for (let i = 0; i < n; i++) b[i] = Math.max(-DARK_CLIP, Math.min(CLIP, b[i] / spread));
    return b;
  });
  return { info, w: s.w, h: s.h, res: s.res, band, sure };
}

const LIBRARY_DIR = new URL('./skin/', import.meta.url);
let library: SkinInfo[] | undefined;
const ready = new Map<string, SkinExemplar>();

export function skinLibrary(): SkinInfo[] {
  library ??= JSON.parse(readFileSync(new URL('library.json', LIBRARY_DIR), 'utf8')).exemplars as SkinInfo[];
  return library;
}

/** Decodes and prepares the library once per process. */
export async function loadSkinLibrary(): Promise<SkinExemplar[]> {
  for (const info of skinLibrary()) if (!ready.has(info.file)) ready.set(info.file, prepareSkin(await decodeSkin(readFileSync(new URL(info.file, LIBRARY_DIR)), info.res), info));
  return skinLibrary().map((i) => ready.get(i.file)!);
}

/**
 * The exemplar for a face `faceWidth` pixels wide: the least sharp one still at least as sharp as the face
 * (its grain then reaches the face's finest band; a far sharper one is not needed), else the sharpest.
 */
export function pickSkin(lib: readonly SkinExemplar[], faceWidth: number): SkinExemplar {
  const enough = lib.filter((e) => e.res >= faceWidth).sort((a, b) => a.res - b.res);
  return enough[0] ?? [...lib].sort((a, b) => b.res - a.res)[0];
}

/**
 * The grain source for one face (removal.ts's BeardPlanes.grain): over any window, the exemplar's unit band
 * carried through the face's mesh, and the exemplar's sureness there (0 off its skin or off the mesh).
 */
export function meshGrain(ex: SkinExemplar, mesh: readonly P3[]): GrainSource {
  return (win: Rect) => {
    const { u, v } = uvField(mesh, win, SKIN_SKIRT);
    const n = win.w * win.h;
    const band = [new Float32Array(n), new Float32Array(n), new Float32Array(n)], has = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const uu = u[i];
      if (uu !== uu) continue;
      const x = (uu - SKIN_FRAME.u0) * ex.res, y = (v[i] - SKIN_FRAME.v0) * ex.res;
      if (x < 0 || y < 0 || x >= ex.w || y >= ex.h) continue;
      const s = bilinear(ex.sure, ex.w, ex.h, 1, x, y, 0);
      if (s <= 0) continue;
      has[i] = s;
      for (let c = 0; c < 3; c++) band[c][i] = bilinear(ex.band[c], ex.w, ex.h, 1, x, y, 0);
    }
    return { band, has, sigma: GRAIN_SIGMA };
  };
}
