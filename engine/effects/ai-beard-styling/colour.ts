/**
 * The beard's colour and light from the photo: the hair colour read from the person's brows and scalp hair
 * (face parsing) and from the face's own beard where it has one, and the photo's light over the face as
 * the broad lightness of the skin, relative to the face's typical skin, so a beard on the shadowed side of
 * a face is darker.
 */
import { LINEAR64, linearToSrgb, srgbToLinear } from '../../image/colour.ts';
import { expand, shrink } from '../../image/guided-filter.ts';
import { lumaPlane } from '../../image/luma.ts';
import type { RasterImage } from '../../image/raster.ts';
import type { Rect } from '../../image/rect.ts';
import { readWindow } from '../../image/window.ts';
import type { FaceParsing, ParsingClass } from '../../vision/parsing/face-parsing.ts';
import type { BeardMask } from '../../looks/beard/mask.ts';
import { feather } from '../../image/feather.ts';
import { CLASS_SURE, FALLBACK, GREY_LUMA, NECK, OWN_BAND, OWN_DARK, OWN_HIDDEN, OWN_LEAST, OWN_SHARE, OWN_SURE, WHITE_MAX } from './tuning.ts';

export type RGB = [number, number, number];

const luma = (c: readonly number[]) => 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];

/**
 * Per luma level (0..255), how many pixels the classes are sure of and their summed linear RGB: enough to
 * take the mean colour between two lightness quantiles in one pass (a hair mask covers much of the photo).
 */
function classHistogram(image: RasterImage, parsing: FaceParsing, classes: readonly ParsingClass[]) {
  const planes = classes.map((c) => parsing.classes[c]).filter((p): p is Uint8Array => !!p);
  const w = parsing.win.w;
  return histogram(image, parsing.win, planes.length ? (x, y) => { let p = 0; for (const pl of planes) p += pl[y * w + x]; return p >= CLASS_SURE; } : null);
}

/** histogram() over a window's pixels where `sure` holds (none with null). */
function histogram(image: RasterImage, win: Rect, sure: ((x: number, y: number) => boolean) | null) {
  const { x0, y0, w, h } = win, ch = image.channels;
  const count = new Float64Array(256), sum = new Float64Array(256 * 3);
  let total = 0;
  if (!sure) return { count, sum, total };
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!sure(x, y)) continue;
      const o = ((y0 + y) * image.width + x0 + x) * ch;
      const r = image.data[o], g = image.data[o + 1], b = image.data[o + 2];
      const l = Math.min(255, Math.round(luma([r, g, b])));
      count[l]++; total++;
      sum[l * 3] += LINEAR64[r]; sum[l * 3 + 1] += LINEAR64[g]; sum[l * 3 + 2] += LINEAR64[b];
    }
  }
  return { count, sum, total };
}

/** Mean colour (sRGB) of the pixels between two luma quantiles, averaged in linear light; null with too few. */
function band(hist: ReturnType<typeof classHistogram>, lo: number, hi: number, min = 30): RGB | null {
  if (hist.total < min) return null;
  const from = lo * hist.total, to = Math.max(from + 1, hi * hist.total);
  let seen = 0, n = 0;
  const acc = [0, 0, 0];
  for (let l = 0; l < 256 && seen < to; l++) {
    const c = hist.count[l];
    if (!c) continue;
    // The part of this level's pixels that falls inside [from, to).
    const take = Math.max(0, Math.min(seen + c, to) - Math.max(seen, from));
    if (take > 0) { const k = take / c; for (let j = 0; j < 3; j++) acc[j] += hist.sum[l * 3 + j] * k; n += take; }
    seen += c;
  }
  return n ? (acc.map((s) => linearToSrgb(s / n)) as RGB) : null;
}

export interface FaceTone {
  /** The hair colour a beard takes. */
  hair: RGB;
  /** The face's typical skin colour and lightness (luma 0..255). */
  skin: RGB;
  skinLuma: number;
  /** How grey or white the hair is, 0..1 (its dark body between strands is then lighter). */
  grey: number;
}

/**
 * The person's hair colour: the darker part of the brows (a brow mask holds skin between its hairs) and the
 * middle of the scalp hair's lightness (neither its shine nor its shadows), brows weighing more, as beards
 * usually match brows more than scalp hair. `own`: the face's own beard, whose darker part (dense and dark)
 * weighs most. Kept visibly darker than the skin.
 */
export function faceTone(image: RasterImage, parsing: FaceParsing, own?: OwnBeard | null): FaceTone {
  const brows = band(classHistogram(image, parsing, ['rightBrow', 'leftBrow']), 0.05, 0.45);
  const hair = band(classHistogram(image, parsing, ['hair']), 0.2, 0.6, 200);
  const skin = band(classHistogram(image, parsing, ['skin']), 0.3, 0.8) ?? [190, 150, 130];
  let rgb: RGB;
  if (brows && hair) rgb = [0, 1, 2].map((c) => linearToSrgb(0.6 * srgbToLinear(brows[c]) + 0.4 * srgbToLinear(hair[c]))) as RGB;
  else rgb = brows ?? hair ?? FALLBACK;
  // The person's own beard or moustache, where there is one, is the colour a drawn one must match.
  const facial = own ? band(histogram(own.photo, own.win, (x, y) => own.beard[y * own.win.w + x] >= OWN_SURE), OWN_BAND[0], OWN_BAND[1], Math.max(30, OWN_LEAST * own.faceWidth ** 2)) : null;
  // Only hair clearly darker than the skin: a faint stubble's mask reads as the skin's colour.
  const share = facial ? OWN_SHARE * Math.min(1, own!.hidden / OWN_HIDDEN) * Math.min(1, Math.max(0, (OWN_DARK - luma(facial) / luma(skin)) / 0.2)) : 0;
  if (facial && share > 0) rgb = [0, 1, 2].map((c) => linearToSrgb(share * srgbToLinear(facial[c]) + (1 - share) * srgbToLinear(rgb[c]))) as RGB;
  const skinLuma = luma(skin);
  const grey = greyness(rgb, skinLuma);
  let l = luma(rgb);
  if (grey > 0) {
    // White hair reflects more light than skin and reads in a photo a little lighter than it, but the
    // brows' shadowed part and the parsing's soft hair edge (background, skin) pull the estimate toward a
    // dull mid grey: lifted and nearly neutral, so a white-haired man gets a silver beard and not a grey
    // smudge (at the skin's lightness, under the jaw's shadow, it read as a dull grey).
    const target = Math.min(WHITE_MAX, l + (GREY_LUMA * skinLuma - l) * grey);
    rgb = rgb.map((v) => (v + (l - v) * 0.5 * grey) * (target / l)) as RGB;
    l = target;
  }
  // Light hair on light skin still reads as a beard when it is a little darker than the skin.
  const most = Math.min(WHITE_MAX, (0.8 + (GREY_LUMA - 0.8) * grey) * skinLuma);
  if (l > most) rgb = rgb.map((v) => v * (most / l)) as RGB;
  return { hair: rgb, skin, skinLuma, grey };
}

/** The face's own facial hair (looks/beard/mask.ts's mask) on the photo as sent. */
export type OwnBeard = Pick<BeardMask, 'win' | 'faceWidth' | 'beard' | 'hidden'> & { photo: RasterImage };

/**
 * 0..1: how grey or white a hair colour is, by a low saturation (blond and brown hair are saturated) and a
 * lightness near the skin's (black and dark brown hair, also in a black and white photo, are far darker).
 */
export function greyness(rgb: RGB, skinLuma: number): number {
  const hi = Math.max(...rgb), sat = hi > 0 ? (hi - Math.min(...rgb)) / hi : 0;
  const rel = luma(rgb) / Math.max(1, skinLuma);
  const ramp = (v: number) => Math.min(1, Math.max(0, v));
  return ramp((0.22 - sat) / 0.08) * ramp((rel - 0.45) / 0.2);
}

/**
 * The photo's light over a window relative to the face's skin: the window's luma blurred by `sigma` pixels
 * (the broad light, not the texture) over the skin's typical luma, clamped so that a highlight or a dark
 * background cannot make the hair glow or vanish.
 */
export function lightPlane(image: RasterImage, win: Rect, skinLuma: number, sigma: number, skin?: Float32Array): Float32Array {
  const px = readWindow(image, win);
  const l = lumaPlane(px, win.w, win.h, image.channels);
  const ref = Math.max(0.05, skinLuma / 255);
  // The broad light needs no full resolution: blurred on blocks of about sigma / 4, then brought back.
  const s = Math.max(1, Math.floor(sigma / 4));
  const gw = Math.ceil(win.w / s), gh = Math.ceil(win.h / s), grid: Rect = { x0: 0, y0: 0, w: gw, h: gh };
  const small = new Float32Array(gw * gh);
  if (skin) {
    // Weighted by the skin (normalised convolution): the light on the skin, not the collar's or the background's.
    const weighted = new Float32Array(l.length);
    for (let i = 0; i < l.length; i++) weighted[i] = l[i] * skin[i];
    const num = feather(shrink(weighted, win.w, win.h, s, gw, gh), grid, sigma / s), den = feather(shrink(skin, win.w, win.h, s, gw, gh), grid, sigma / s);
    for (let i = 0; i < small.length; i++) {
      // Away from skin (under the chin, over a collar) the light of a shadowed neck, not the collar's.
      const t = Math.min(1, den[i] / 0.3);
      small[i] = t > 0 ? t * (num[i] / Math.max(1e-6, den[i])) + (1 - t) * NECK * ref : NECK * ref;
    }
  } else small.set(feather(shrink(l, win.w, win.h, s, gw, gh), grid, sigma / s));
  const broad = expand(small, gw, gh, win.w, win.h, s);
  const out = new Float32Array(l.length);
  for (let i = 0; i < out.length; i++) out[i] = Math.min(1.35, Math.max(0.4, broad[i] / ref));
  return out;
}
