/**
 * A real beard from the canonical frame (exemplar.ts) onto a face: each window pixel's canonical (u, v)
 * (the face mesh's piecewise-affine field, shape.ts) reads the exemplar's hair detail (its fine Lab detail,
 * normalised and streaked along the hair's flow, or stubble's finer texture: exemplar.ts prepareExemplar); the beard's tone is the target's hair colour in Lab with that
 * detail around it (an L spread that grows with the colour's lightness, so a grey beard has a grey beard's
 * contrast), its light is the target's (lightPlane), and it is laid over the photo with an edge that thins
 * out hair by hair: at the soft border the texture's dark strands keep more of the coverage than the light
 * gaps between them.
 */
import { labToLinear, linearToLab, linearToSrgb, srgbToLinear } from '../../image/colour.ts';
import type { UvField } from '../../vision/regions/uv-map.ts';
import type { RGB } from './colour.ts';
import { FRAME, type Exemplar } from './exemplar.ts';
import { EDGE_HAIR, GAP_KNEE, STUBBLE_HAIR, GREY_CONTRAST, HAIR_CONTRAST, HAIR_SPREAD, TONE_CHROMA } from './tuning.ts';

const clamp = (x: number, a: number, b: number) => (x < a ? a : x > b ? b : x);

export interface Look {
  /** The beard's colour (sRGB): the exemplar's detail is laid around it. */
  hair: RGB;
  /** How grey the target's hair is, 0..1 (colour.ts greyness): a grey beard's light strands stand out more. */
  grey: number;
  /** Stubble: its short hairs' texture (Exemplar.stubble) instead of a beard's strands. */
  stubble?: boolean;
  /** The target's light relative to its skin, per window pixel (colour.ts lightPlane). */
  light: Float32Array;
}

/**
 * Draws `ex` over `out` (the window's RGB as floats, row-major over field.win) where `cover` (0..1) says,
 * and returns the coverage actually laid (the hair-like edge applied), per pixel.
 */
export function renderExemplar(out: Float32Array, field: UvField, ex: Exemplar, cover: Float32Array, look: Look): Float32Array {
  const { u, v } = field, n = u.length;
  const laid = new Float32Array(n);
  const t = linearToLab(srgbToLinear(look.hair[0]), srgbToLinear(look.hair[1]), srgbToLinear(look.hair[2]));
  const target = [t.l, t.a, t.b];
  // Lighter hair shows more contrast between strands and gaps in absolute lightness (the gaps stay dark),
  // and grey hair more again (white hairs over dark gaps); black hair still shows its strands' sheen.
  const s = clamp(t.l * HAIR_CONTRAST, HAIR_SPREAD[0], HAIR_SPREAD[1]) * (1 + GREY_CONTRAST * look.grey);
  // The strands' chroma varies as a dark beard's does, not more on a lighter one (a white beard's gaps turned blue).
  const sc = Math.min(s, HAIR_SPREAD[0]) * TONE_CHROMA;
  const scale = [s, sc, sc];
  // A grey or white beard's gaps are shallower than a dark one's (light scattered by the pale hairs fills
  // them): its darker-than-mean texture compressed toward GAP_KNEE[1] spreads (a dark beard's to GAP_KNEE[0]).
  // At full depth they read as a regular dark speckle on white.
  const knee = GAP_KNEE[0] + (GAP_KNEE[1] - GAP_KNEE[0]) * look.grey;
  const tex = look.stubble ? ex.stubble : ex.detail;
  // Stubble is short hair over skin everywhere, not an edge: its hairs darken the skin in a fine grain
  // (STUBBLE_HAIR) rather than lie as whole strands on bare skin.
  const edge = look.stubble ? STUBBLE_HAIR : EDGE_HAIR;
  const lab = [0, 0, 0], rgb = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    const c0 = cover[i];
    if (!(c0 > 0) || u[i] !== u[i]) continue;
    const fx = (u[i] - FRAME.u0) * ex.res, fy = (v[i] - FRAME.v0) * ex.res;
    if (fx < 0 || fy < 0 || fx >= ex.w || fy >= ex.h) continue;
    sample(ex, tex, fx, fy, lab);
    const dev = lab[0];
    if (dev < 0) { const q = Math.tanh(dev / knee) * knee / dev; lab[0] *= q; lab[1] *= q; lab[2] *= q; }
    for (let c = 0; c < 3; c++) lab[c] = target[c] + lab[c] * scale[c];
    const lin = labToLinear(clamp(lab[0], 0, 100), lab[1], lab[2]);
    for (let c = 0; c < 3; c++) rgb[c] = linearToSrgb(clamp(lin[c], 0, 1)) * look.light[i];
    // Hair by hair at the border: a darker-than-mean strand holds its coverage further out than a gap.
    const a = clamp(c0 - edge * c0 * (1 - c0) * clamp(dev, -1.5, 1.5), 0, 1);
    laid[i] = a;
    for (let c = 0; c < 3; c++) out[i * 3 + c] += (rgb[c] - out[i * 3 + c]) * a;
  }
  return laid;
}

/** Bilinear normalised detail of the exemplar at frame pixel coordinates. */
function sample(ex: Exemplar, p: Float32Array, x: number, y: number, out: number[]): void {
  const fx = Math.min(ex.w - 1.001, Math.max(0, x - 0.5)), fy = Math.min(ex.h - 1.001, Math.max(0, y - 0.5));
  const x0 = Math.floor(fx), y0 = Math.floor(fy), ax = fx - x0, ay = fy - y0;
  const o = (y0 * ex.w + x0) * 3, r = ex.w * 3;
  for (let c = 0; c < 3; c++) out[c] = (p[o + c] * (1 - ax) + p[o + 3 + c] * ax) * (1 - ay) + (p[o + r + c] * (1 - ax) + p[o + r + 3 + c] * ax) * ay;
}
