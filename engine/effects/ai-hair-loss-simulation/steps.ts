/**
 * Steps of the hair loss simulation: the level read → the 5 largest faces → for each, in its head frame
 * (hairline.ts), the stage's loss field turned into lost strands (strands.ts) over the hair the parsing
 * sees, and where strands go, the scalp made from the forehead (scalp.ts) shows, or behind hair that stood
 * out of the skull, the background → the photo.
 *
 * Only hair above the brows changes: the loss is zero below the brows and every change is weighted by the
 * parsing's hair probability.
 */
import type endpoint from '../../../contract/endpoints/ai-hair-loss-simulation.ts';
import type { Params } from '../../../contract/endpoint.ts';
import { encodePhoto } from '../../image/encode.ts';
import type { RasterImage } from '../../image/raster.ts';
import { fromLab, toLab } from '../../image/retouch/color.ts';
import { blurPlane, maskedBlur } from '../../image/retouch/frequency.ts';
import { EffectError, type Step } from '../../pipeline/effect.ts';
import { perFace, selectFaces, type PortraitState } from '../../pipeline/portrait.ts';
import { parsingPlane } from '../../vision/regions/skin-mask.ts';
import type { Win } from '../../vision/regions/polygon.ts';
import { FLOOR, fromHead, hairlineLift, headFrame, lossAt, parseLevel, skullInside, SKULL, toHead, type HeadFrame, type Level } from './hairline.ts';
import { domeShade, domeSheen, fitPlane, harmonicFill, mirror, pushPull } from './scalp.ts';
import { strandGone, strandNoise, strandScale, valueNoise } from './strands.ts';

export type P = Params<typeof endpoint>;

export interface State extends PortraitState {
  level: Level;
  /** The photo being edited, a copy of the input's pixels. */
  pixels: Buffer;
}

/** Seed of the strand noise: the same photo and level always give the same result. */
const SEED = 20261125;
/** Parsing input side: the hair class at 384 is as good for this as at 512, at 0.6 of the time. */
const PARSE_INPUT = 384;
/** Share of the loss that thins every strand rather than removing whole ones. */
const THINNER = 0.4;
/** How much darker scalp is under the hair still standing (at no loss), than bare. */
const UNDER_HAIR_SHADE = 0.2;
/** Parsing skin probability from which a pixel is skin to learn from. */
const SKIN = 0.6;
/** How far (frame v) hairlines wander either way. */
const JITTER = 0.16;
/** The texture carried from the forehead: detail finer than this share of the face width. */
const TEXTURE_SIGMA = 0.008;
/** A scalp's grain is softer than a forehead's (no frown lines). */
const TEXTURE_GAIN = 0.7;
/**
 * The parsing's hair probability as the weight of the edit: firm from 0.55 (the soft edge of the hair
 * against the background counts as hair, else half a strand would stay standing round a bald head), none
 * below 0.25 (a headscarf or a dark backdrop the model is unsure of is not hair).
 */
const hairWeight = (p: number) => (p <= 0.25 ? 0 : p >= 0.55 ? 1 : (p - 0.25) / 0.3);

export const readLevel: Step<P, State> = (c) => {
  const level = parseLevel(String(c.params.level));
  // The contract already limits `level` to the 14 names; this guards a caller outside HTTP.
  if (!level) throw new EffectError('ERROR_INVALID_PARAMETER', 'level must be one of man_1..man_7, woman_1..woman_7');
  c.state.level = level;
  c.state.pixels = Buffer.from(c.image.data);
};

export const findFaces: Step<P, State> = selectFaces<P, State>(() => ({ count: 5 }));

/**
 * The window a face's edit works in: its head frame from the cheeks (skin to sample when a fringe hides
 * the forehead; nothing below the brows changes) to above the skull, clipped.
 */
export function headWindow(f: HeadFrame, size: { width: number; height: number }): Win | null {
  const corners = [[-1.7, -1.0], [1.7, -1.0], [-1.7, 2.6], [1.7, 2.6]].map(([u, v]) => fromHead(f, u, v));
  const xs = corners.map((p) => p[0]), ys = corners.map((p) => p[1]);
  const x0 = Math.max(0, Math.floor(Math.min(...xs))), y0 = Math.max(0, Math.floor(Math.min(...ys)));
  const x1 = Math.min(size.width, Math.ceil(Math.max(...xs))), y1 = Math.min(size.height, Math.ceil(Math.max(...ys)));
  return x1 > x0 && y1 > y0 ? { x0, y0, w: x1 - x0, h: y1 - y0 } : null;
}

export const simulate: Step<P, State> = perFace<P, State>(async (face, index, c) => {
  if (!face.mesh) return;
  const s = c.state;
  const frame = headFrame(face.mesh);
  const win = headWindow(frame, c.image);
  if (!win) return;
  const parsing = await c.facts.parsing(face, { input: PARSE_INPUT, classes: ['hair', 'skin', 'background'] });
  const hair = parsingPlane(parsing, ['hair'], win), background = parsingPlane(parsing, ['background'], win);
  // Big hair reaches past the parsing's square: there the matte-based hair mask and the person matte say
  // what is hair and what is background (the matte costs about as much as the parsing, so only then).
  if (hairAtEdge(parsing.classes.hair, parsing.win)) {
    const [hairAll, person] = await Promise.all([c.facts.hairMask(s.faces), c.facts.personMatte()]);
    const p = parsing.win;
    for (let y = 0, i = 0; y < win.h; y++) {
      const iy = win.y0 + y, rowIn = iy >= p.y0 && iy < p.y0 + p.h;
      for (let x = 0; x < win.w; x++, i++) {
        const ix = win.x0 + x, j = iy * c.image.width + ix;
        // The matte-based hair only where the person matte is sure (dark backdrops pass for dark hair).
        if (!rowIn || ix < p.x0 || ix >= p.x0 + p.w) hair[i] = person.data[j] >= 128 ? hairAll.data[j] / 255 : 0;
        if (person.data[j] < 13) background[i] = 1;
      }
    }
  }
  const pixels: RasterImage = { data: s.pixels!, width: c.image.width, height: c.image.height, channels: c.image.channels };
  editHair(pixels, win, frame, s.level!, { hair, skin: parsingPlane(parsing, ['skin'], win), background }, SEED + index);
});

/**
 * Whether the parsing's hair runs into its window's top or side edges (over more than 2 % of them): then
 * the hair goes on outside what was parsed. The photo's own edges count too (nothing lies beyond them).
 */
export function hairAtEdge(hair: Uint8Array | undefined, win: Win): boolean {
  if (!hair) return false;
  let on = 0;
  for (let x = 0; x < win.w; x++) if (hair[x] >= 128 || hair[win.w + x] >= 128) on++;
  for (let y = 0; y < win.h; y++) {
    const r = y * win.w;
    if (hair[r] >= 128 || hair[r + 1] >= 128) on++;
    if (hair[r + win.w - 1] >= 128 || hair[r + win.w - 2] >= 128) on++;
  }
  return on > 0.02 * (win.w + 2 * win.h);
}

export interface HairMaps {
  /** Probabilities 0..1 over the window. */
  hair: Float32Array; skin: Float32Array; background: Float32Array;
}

/**
 * The edit of one face, in place over `win` of `img`. Exposed for the quality script and tests.
 * Returns how many pixels it touched.
 */
export function editHair(img: RasterImage, win: Win, f: HeadFrame, level: Level, maps: HairMaps, seed: number): number {
  const n = win.w * win.h;
  const U = new Float32Array(n), V = new Float32Array(n);
  for (let y = 0, i = 0; y < win.h; y++) for (let x = 0; x < win.w; x++, i++) {
    const [u, v] = toHead(f, win.x0 + x + 0.5, win.y0 + y + 0.5);
    U[i] = u; V[i] = v;
  }
  // Which hair goes: the stage's loss, turned into strands.
  const across = new Float32Array(n), along = new Float32Array(n);
  const focus = 1.2, reach = (SKULL.top + focus) * f.forehead;
  for (let i = 0; i < n; i++) {
    const du = (U[i] - f.mid) * f.halfWidth, dv = (V[i] + focus) * f.forehead;
    across[i] = Math.atan2(du, dv) * reach;
    along[i] = Math.hypot(du, dv);
  }
  const noise = strandNoise(across, along, strandScale(2 * f.halfWidth), seed);
  // A slow wander of the hairline, in frame v: about a fifth of a half face width per bump.
  const wander = 0.2 * f.halfWidth;
  const lift = hairlineLift(ownHairline(f, maps, win));
  const gone = new Float32Array(n), lost = new Float32Array(n);
  let any = 0;
  for (let i = 0; i < n; i++) {
    if (maps.hair[i] <= 0.25) continue;
    const jitter = JITTER * (valueNoise(along[i] / wander, across[i] / wander, seed + 7) - 0.5);
    const loss = lossAt(level, U[i], V[i], f.mid, jitter, lift);
    if (loss <= 0) continue;
    lost[i] = loss;
    // Mostly whole strands gone; a little of every strand thinner, as thinning hair is.
    gone[i] = (THINNER * loss + (1 - THINNER) * strandGone(loss, noise[i])) * hairWeight(maps.hair[i]);
    if (gone[i] > 0.004) any++;
  }
  if (!any) return 0;

  const lab = toLab(img, win);
  const top = skullTop(f, maps, win);
  const reveal = scalpLayer(lab.L, lab.a, lab.b, U, V, win, f, top, maps, lost);
  if (!reveal) return 0;
  for (let i = 0; i < n; i++) {
    const g = gone[i];
    if (g <= 0) continue;
    lab.L[i] += (reveal[0][i] - lab.L[i]) * g;
    lab.a[i] += (reveal[1][i] - lab.a[i]) * g;
    lab.b[i] += (reveal[2][i] - lab.b[i]) * g;
  }
  // Write back only what changed (fromLab would round-trip every pixel of the window).
  const before = Buffer.from(img.data);
  fromLab(lab, img);
  const ch = img.channels;
  for (let y = 0, i = 0; y < win.h; y++) {
    for (let x = 0; x < win.w; x++, i++) {
      if (gone[i] > 0.004) continue;
      const j = ((win.y0 + y) * img.width + win.x0 + x) * ch;
      img.data[j] = before[j]; img.data[j + 1] = before[j + 1]; img.data[j + 2] = before[j + 2];
    }
  }
  return any;
}

/** Where the hair begins over the middle of the forehead (v), or null when no hair is found there. */
function ownHairline(f: HeadFrame, maps: HairMaps, win: Win): number | null {
  for (let v = 0.2; v <= 1.6; v += 0.02) {
    let hits = 0;
    for (const du of [-0.12, 0, 0.12]) {
      const [x, y] = fromHead(f, f.mid + du, v);
      const xi = Math.floor(x) - win.x0, yi = Math.floor(y) - win.y0;
      if (xi >= 0 && yi >= 0 && xi < win.w && yi < win.h && maps.hair[yi * win.w + xi] >= 0.5) hits++;
    }
    if (hits >= 2) return v;
  }
  return null;
}

/**
 * The top of the skull (v): a little below where the hair ends over the middle of the head when that is
 * under the usual height (short hair), else the usual height (big hair, or the top outside the parsing).
 */
function skullTop(f: HeadFrame, maps: HairMaps, win: Win): number {
  let last = -1;
  for (let v = 0.6; v <= 2.6; v += 0.02) {
    let hits = 0, known = 0;
    for (const du of [-0.12, 0, 0.12]) {
      const [x, y] = fromHead(f, f.mid + du, v);
      const xi = Math.floor(x) - win.x0, yi = Math.floor(y) - win.y0;
      if (xi < 0 || yi < 0 || xi >= win.w || yi >= win.h) continue;
      known++;
      if (maps.hair[yi * win.w + xi] >= 0.5) hits++;
    }
    if (known === 0) break; // the photo's top edge
    if (hits >= 2) last = v;
  }
  if (last < 0) return SKULL.top;
  return Math.max(1.15, Math.min(SKULL.top, last - 0.05));
}

/**
 * What shows where hair goes, as Lab planes over the window: inside the skull the scalp (forehead colour
 * and light, dome shading, sheen, forehead texture), outside it the background filled in. Null when no
 * forehead or other skin is visible to make a scalp from.
 */
function scalpLayer(L: Float32Array, A: Float32Array, B: Float32Array, U: Float32Array, V: Float32Array, win: Win, f: HeadFrame, top: number, maps: HairMaps, lost: Float32Array): Float32Array[] | null {
  const n = win.w * win.h, fw = 2 * f.halfWidth;
  // Forehead skin, else any skin of this face.
  const pick = (vMin: number, vMax: number, uMax: number) => {
    const m = new Float32Array(n);
    let count = 0;
    for (let i = 0; i < n; i++) {
      if (maps.skin[i] >= SKIN && maps.hair[i] < 0.15 && V[i] >= vMin && V[i] <= vMax && Math.abs(U[i] - f.mid) <= uMax) { m[i] = 1; count++; }
    }
    return { m, count };
  };
  let sample = pick(0.12, 0.75, 0.6);
  if (sample.count < 150) sample = pick(-1.0, 0.9, 0.9);
  if (sample.count < 40) return null;
  const sigma = Math.max(2, 0.03 * fw);
  const lowL = maskedBlur(L, sample.m, win.w, win.h, sigma);
  const lowA = maskedBlur(A, sample.m, win.w, win.h, sigma), lowB = maskedBlur(B, sample.m, win.w, win.h, sigma);
  const su: number[] = [], sv: number[] = [], sl: number[] = [], sa: number[] = [], sb: number[] = [], raw: number[] = [];
  for (let i = 0; i < n; i++) if (sample.m[i]) { su.push(U[i]); sv.push(V[i]); sl.push(lowL[i]); sa.push(lowA[i]); sb.push(lowB[i]); raw.push(L[i]); }
  // Lightness keeps the forehead's slopes (its light); colour only its mean and slope across, since going
  // up the forehead toward the hair it picks up the hair's tint.
  const pl = fitPlane(su, sv, sl)!, pa = fitPlane(su, sv, sa)!, pb = fitPlane(su, sv, sb)!;
  const meanV = sv.reduce((a, b) => a + b, 0) / sv.length;
  pa[0] += pa[2] * meanV; pa[2] = 0; pb[0] += pb[2] * meanV; pb[2] = 0;
  // Texture: pores and fine grain only (a forehead's wrinkles, tiled over a scalp, would read as stripes).
  const fine = blurPlane(L, win.w, win.h, Math.max(1, TEXTURE_SIGMA * fw));
  const uLo = Math.min(...su), uHi = Math.max(...su), vLo = Math.min(...sv), vHi = Math.max(...sv);
  raw.sort((a, b) => a - b);
  const sheenGain = Math.max(2, Math.min(6, 0.5 * (raw[Math.floor(0.97 * raw.length)] - raw[raw.length >> 1])));

  // The texture tile: the forehead's high band over the box its samples span.
  let bx0 = win.w, by0 = win.h, bx1 = 0, by1 = 0;
  for (let y = 0, i = 0; y < win.h; y++) for (let x = 0; x < win.w; x++, i++) {
    if (!sample.m[i]) continue;
    if (x < bx0) bx0 = x; if (x > bx1) bx1 = x; if (y < by0) by0 = y; if (y > by1) by1 = y;
  }
  const tw = bx1 - bx0 + 1, th = by1 - by0 + 1;
  const texture = (x: number, y: number): number => {
    const i = (by0 + mirror(y, th)) * win.w + bx0 + mirror(x, tw);
    return sample.m[i] ? TEXTURE_GAIN * (L[i] - fine[i]) : 0;
  };

  const outL = new Float32Array(n), outA = new Float32Array(n), outB = new Float32Array(n);
  for (let y = 0, i = 0; y < win.h; y++) {
    for (let x = 0; x < win.w; x++, i++) {
      const u = U[i], v = V[i];
      const cu = Math.min(uHi, Math.max(uLo, u)), cv = Math.min(vHi, Math.max(vLo, v));
      const shade = domeShade(u, v, top);
      // Scalp seen between remaining strands lies in their shade; bare scalp does not.
      const underHair = 1 - UNDER_HAIR_SHADE * (1 - lost[i]);
      outL[i] = ((pl[0] + pl[1] * cu + pl[2] * cv) * shade + sheenGain * domeSheen(u - f.mid, v, top) * lost[i] + texture(x, y)) * underHair;
      outA[i] = pa[0] + pa[1] * cu + pa[2] * cv;
      outB[i] = pb[0] + pb[1] * cu + pb[2] * cv;
    }
  }
  // The seam: the model's colour is moved to meet the skin it borders (the forehead, temples, the ears),
  // by the difference there carried over the scalp as a membrane (harmonicFill), as a Poisson blend does.
  const skinWeight = new Float32Array(n);
  // Every skin pixel the edit leaves as it is counts, the shaded ones just under the hair most of all.
  for (let i = 0; i < n; i++) if (maps.skin[i] >= 0.5 && maps.hair[i] <= 0.25 && V[i] >= -0.3) skinWeight[i] = 1;
  const skinL = maskedBlur(L, skinWeight, win.w, win.h, sigma), skinA = maskedBlur(A, skinWeight, win.w, win.h, sigma), skinB = maskedBlur(B, skinWeight, win.w, win.h, sigma);
  const dL = new Float32Array(n), dA = new Float32Array(n), dB = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    if (!skinWeight[i]) continue;
    dL[i] = skinL[i] - (outL[i] - texture(i % win.w, (i / win.w) | 0));
    dA[i] = skinA[i] - outA[i]; dB[i] = skinB[i] - outB[i];
  }
  const [fL, fA, fB] = harmonicFill([dL, dA, dB], skinWeight, win.w, win.h);
  for (let i = 0; i < n; i++) { outL[i] += fL[i]; outA[i] += fA[i]; outB[i] += fB[i]; }
  // Outside the skull: the background, pushed in from the pixels the parsing calls background.
  const bgWeight = new Float32Array(n);
  let bgCount = 0;
  for (let i = 0; i < n; i++) if (maps.background[i] >= 0.6 && maps.hair[i] < 0.1) { bgWeight[i] = 1; bgCount++; }
  if (bgCount < 50) return [outL, outA, outB];
  const [fl, fa, fb] = pushPull([L, A, B], bgWeight, win.w, win.h);
  for (let i = 0; i < n; i++) {
    const k = skullInside(U[i], V[i], top, 0.04);
    if (k >= 1) continue;
    outL[i] = outL[i] * k + fl[i] * (1 - k);
    outA[i] = outA[i] * k + fa[i] * (1 - k);
    outB[i] = outB[i] * k + fb[i] * (1 - k);
  }
  return [outL, outA, outB];
}

export const encode: Step<P, State> = async (c) => {
  c.output.images.result = await encodePhoto({ data: c.state.pixels!, width: c.image.width, height: c.image.height, channels: c.image.channels });
};
