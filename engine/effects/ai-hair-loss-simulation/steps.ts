/**
 * Steps of the hair loss simulation: the level read → the 5 largest faces → for each, in its head frame
 * (hairline.ts), the stage's loss field turned into lost strands over the hair the parsing sees (strands.ts:
 * the hair's own light gaps go first and its dark strands last, so thinning keeps the hair's texture), the
 * loss carried over the hair's fringe of wisps and over the band of skin in the old hairline's shade, and
 * where strands go, the scalp made from the forehead (scalp.ts: its colour, grain and light, continued from
 * the skin it meets as a membrane, shaded by the light the hair was in) shows, or behind hair that stood
 * out of the skull, the background → the photo.
 *
 * Only hair above the brows and the skin beside it change: the loss is zero below the brows and every
 * change is weighted by the parsing's hair probability.
 */
import type endpoint from '../../../contract/endpoints/ai-hair-loss-simulation.ts';
import type { Params } from '../../../contract/endpoint.ts';
import { encodePhoto } from '../../image/encode.ts';
import type { RasterImage } from '../../image/raster.ts';
import { fromLab, toLab } from '../../image/retouch/color.ts';
import { blurCoarse, blurPlane, maskedBlur } from '../../image/retouch/frequency.ts';
import { EffectError, type Step } from '../../pipeline/effect.ts';
import { perFace, selectFaces, type PortraitState } from '../../pipeline/portrait.ts';
import { parsingPlane } from '../../vision/regions/skin-mask.ts';
import type { Win } from '../../vision/regions/polygon.ts';
import { FLOOR, FLOOR_FADE, fromHead, hairlineLift, headFrame, lossAt, parseLevel, skullInside, SKULL, toHead, type HeadFrame, type Level } from './hairline.ts';
import { fitPlane } from '../../image/plane-fit.ts';
import { domeShade, domeSheen, harmonicFill, mirror, pushPull } from './scalp.ts';
import { hash2, maxFilter, strandGone, strandKeep, strandNoise, strandScale, valueNoise } from './strands.ts';

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
const THINNER = 0.25;
/** A strand's width, as a share of the face width (the hair texture strandKeep ranks). */
const STRAND_WIDTH = 0.003;
/** Softness of strandKeep's ranks: scalp shows through a strand's edges before its dark core goes. */
const KEEP_SOFT = 0.2;
/** Lab distance within which a background pixel passes for the hair (and is no source of the fill). */
const HAIR_LIKE = 12;
/** The band of skin under bared scalp that lay in the hair's shade (share of the face width). */
const SHADOW_BAND = 0.05;
/** How far (share of the face width) the loss reaches over the hair's fringe of wisps. */
const FRINGE_REACH = 0.025;
const smooth = (t: number) => { const c = t < 0 ? 0 : t > 1 ? 1 : t; return c * c * (3 - 2 * c); };
/** The hair's light carried onto the scalp: its broad lightness (over this share of the face width)... */
const HAIR_LIGHT_SIGMA = 0.07;
/** ...scaled by this (dark hair spans less lightness between its lit and shaded sides than skin would)... */
const HAIR_LIGHT = 0.8;
/** ...and limited to this many L either way. */
const HAIR_LIGHT_MAX = 14;
/** A scalp that never sees the sun is a touch pinker than the forehead (a*). */
const PINK = 1.5;
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
  const lift = hairlineLift(ownHairline(f, maps, win)), hairline = 1 + lift;
  const fw = 2 * f.halfWidth;
  const firm = new Float32Array(n), lost = new Float32Array(n);
  let anyLoss = false;
  for (let i = 0; i < n; i++) {
    if (maps.hair[i] <= 0.25) continue;
    const jitter = JITTER * (valueNoise(along[i] / wander, across[i] / wander, seed + 7) - 0.5);
    // A fringe hanging over the forehead grows from the hairline above it: it goes as that does.
    const over = 1 - smooth((Math.abs(U[i] - f.mid) - 0.45) / 0.2);
    const vHung = V[i] < hairline ? V[i] + (hairline - V[i]) * over : V[i];
    const loss = lossAt(level, U[i], vHung, f.mid, jitter, lift) * smooth((V[i] - FLOOR) / FLOOR_FADE);
    firm[i] = hairWeight(maps.hair[i]);
    if (loss <= 0) continue;
    lost[i] = loss;
    anyLoss = true;
  }
  if (!anyLoss) return 0;
  const lab = toLab(img, win);
  // Which strands go first: the hair's own light gaps, kept dark strands (strandKeep).
  const keep = strandKeep(lab.L, firm, noise, win.w, win.h, Math.max(0.7, STRAND_WIDTH * fw));
  // The fringe: wisps the parsing half-sees (under 0.55 hair, not skin) go as the firm hair beside them does.
  const firmLoss = new Float32Array(n);
  for (let i = 0; i < n; i++) if (firm[i] >= 1) firmLoss[i] = lost[i];
  const fringe = maxFilter(firmLoss, win.w, win.h, Math.max(2, Math.round(FRINGE_REACH * fw)));
  const gone = new Float32Array(n);
  let any = 0;
  for (let i = 0; i < n; i++) {
    const loss = lost[i];
    // Mostly whole strands gone; a little of every strand thinner, as thinning hair is.
    let g = loss > 0 ? (THINNER * loss + (1 - THINNER) * strandGone(loss, keep[i], KEEP_SOFT)) * firm[i] : 0;
    if (fringe[i] > 0 && maps.hair[i] < 0.55 && maps.skin[i] < 0.5 && maps.hair[i] + maps.background[i] > 0.5) {
      const wisp = fringe[i] * (1 - maps.skin[i]) * smooth((V[i] - FLOOR) / 0.15);
      if (wisp > g) { g = wisp; lost[i] = Math.max(loss, fringe[i]); }
    }
    gone[i] = g;
    if (g > 0.004) any++;
  }
  if (!any) return 0;
  // The skin just under hair that went lay in its shade (and its finest wisps): the scalp's membrane meets
  // the forehead a little lower, and that band of skin goes over to it, so no dark ghost of the old
  // hairline stays.
  const top = skullTop(f, maps, win);
  const bare = new Float32Array(n);
  for (let i = 0; i < n; i++) if (gone[i] > 0.5 && maps.hair[i] >= 0.25) bare[i] = 1;
  const nearBare = blurPlane(bare, win.w, win.h, Math.max(1.5, SHADOW_BAND * fw));
  const shadowed = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    if (maps.hair[i] >= 0.55 || maps.background[i] >= 0.5 || nearBare[i] <= 0.02) continue;
    // Only this head's own forehead and hair's edge: never a neighbour's face or clothes beside it.
    if ((maps.skin[i] < 0.3 && maps.hair[i] < 0.1) || skullInside(U[i], V[i], top) <= 0) continue;
    const k = smooth(nearBare[i] / 0.25) * smooth((V[i] - FLOOR) / 0.25);
    shadowed[i] = k;
    if (k > gone[i]) { gone[i] = k; if (k > 0.004) any++; lost[i] = Math.max(lost[i], k); }
  }

  const reveal = scalpLayer(lab.L, lab.a, lab.b, U, V, win, f, top, maps, lost, shadowed, seed);
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
 * under a little above the usual height (short hair), else about the usual height (big hair, or the top
 * outside the parsing).
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
  // Short hair lies about a tenth of a forehead height thick over a skull a little above the usual height
  // (the frame's usual 1.6 left a band of filled-in background under the top of short hair); under big hair,
  // back to the usual height (a taller guess under a mop of curls shows as an egg).
  const raised = SKULL.top + 0.12;
  if (last - 0.1 <= raised) return Math.max(1.15, last - 0.1);
  return Math.max(SKULL.top, raised - (last - 0.1 - raised));
}

/**
 * What shows where hair goes, as Lab planes over the window: inside the skull the scalp (forehead colour
 * and light, the light the hair itself was in, dome shading, sheen, forehead texture), outside it the
 * background filled in. Null when no forehead or other skin is visible to make a scalp from.
 */
function scalpLayer(L: Float32Array, A: Float32Array, B: Float32Array, U: Float32Array, V: Float32Array, win: Win, f: HeadFrame, top: number, maps: HairMaps, lost: Float32Array, shadowed: Float32Array, seed: number): Float32Array[] | null {
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
  const forehead = sample.count >= 150;
  if (!forehead) sample = pick(-1.0, 0.9, 0.9);
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
  const uLo = Math.min(...su), uHi = Math.max(...su), vLo = Math.min(...sv), vHi = Math.max(...sv);
  raw.sort((a, b) => a - b);
  const cap = raw[Math.floor(0.97 * raw.length)];
  const sheenGain = Math.max(2, Math.min(6, 0.5 * (cap - raw[raw.length >> 1])));
  const texture = scalpTexture(L, sample.m, forehead, win, fw, seed);
  const light = hairLight(L, maps.hair, lost, win, fw);

  const outL = new Float32Array(n), outA = new Float32Array(n), outB = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const u = U[i], v = V[i];
    const cu = Math.min(uHi, Math.max(uLo, u)), cv = Math.min(vHi, Math.max(vLo, v));
    const shade = domeShade(u, v, top);
    outL[i] = (pl[0] + pl[1] * cu + pl[2] * cv) * shade + light[i] + sheenGain * domeSheen(u - f.mid, v, top) * lost[i];
    outA[i] = pa[0] + pa[1] * cu + PINK;
    outB[i] = pb[0] + pb[1] * cu;
  }
  // The seam: the model's colour is moved to meet the skin it borders (the forehead, temples, the ears),
  // by the difference there carried over the scalp as a membrane (harmonicFill), as a Poisson blend does.
  const skinWeight = new Float32Array(n);
  // Every skin pixel the edit leaves as it is counts, the shaded ones just under the hair most of all.
  for (let i = 0; i < n; i++) if (maps.skin[i] >= 0.5 && maps.hair[i] <= 0.25 && V[i] >= -0.3 && shadowed[i] < 0.05) skinWeight[i] = 1;
  const skinL = maskedBlur(L, skinWeight, win.w, win.h, sigma), skinA = maskedBlur(A, skinWeight, win.w, win.h, sigma), skinB = maskedBlur(B, skinWeight, win.w, win.h, sigma);
  const dL = new Float32Array(n), dA = new Float32Array(n), dB = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    if (!skinWeight[i]) continue;
    dL[i] = skinL[i] - outL[i];
    dA[i] = skinA[i] - outA[i]; dB[i] = skinB[i] - outB[i];
  }
  const [fL, fA, fB] = harmonicFill([dL, dA, dB], skinWeight, win.w, win.h);
  for (let i = 0; i < n; i++) {
    // Scalp seen between remaining strands lies in their shade; bare scalp does not.
    // Never lighter than the forehead's own highlights: past them an overexposed forehead's scalp would
    // leave the gamut and come back white.
    outL[i] = Math.min(cap, (outL[i] + fL[i]) * (1 - UNDER_HAIR_SHADE * (1 - lost[i]))) + texture[i];
    outA[i] += fA[i]; outB[i] += fB[i];
  }
  // Outside the skull: the background, pushed in from the pixels the parsing calls background, away from
  // the hair's fringe (whose wisps would come back as a halo), with the background's own grain.
  const nearHair = new Float32Array(n);
  for (let i = 0; i < n; i++) if (maps.hair[i] >= 0.25) nearHair[i] = 1;
  const reach = maxFilter(nearHair, win.w, win.h, Math.max(2, Math.round(FRINGE_REACH * fw)));
  // Hair the parsing missed (dark hair cut by the photo's edge, taken for a dark backdrop) must not be
  // pushed back in: nothing the colour of the hair that goes is a source.
  let hl = 0, ha = 0, hb = 0, hc = 0;
  for (let i = 0; i < n; i++) if (maps.hair[i] >= 0.55 && lost[i] > 0) { hl += L[i]; ha += A[i]; hb += B[i]; hc++; }
  if (hc) { hl /= hc; ha /= hc; hb /= hc; }
  const bgWeight = new Float32Array(n), bgLoose = new Float32Array(n);
  let bgCount = 0, looseCount = 0;
  for (let i = 0; i < n; i++) {
    if (maps.background[i] < 0.6 || maps.hair[i] >= 0.1) continue;
    bgLoose[i] = 1; looseCount++;
    const hairLike = hc > 0 && (L[i] - hl) ** 2 + (A[i] - ha) ** 2 + (B[i] - hb) ** 2 < HAIR_LIKE ** 2;
    if (!reach[i] && !hairLike) { bgWeight[i] = 1; bgCount++; }
  }
  const source = bgCount >= 50 ? bgWeight : bgLoose;
  if (Math.max(bgCount, looseCount) < 50) return [outL, outA, outB];
  const [fl, fa, fb] = pushPull([L, A, B], source, win.w, win.h);
  const grain = backgroundGrain(L, source, win, seed);
  for (let i = 0; i < n; i++) {
    const k = skullInside(U[i], V[i], top, 0.04);
    if (k >= 1) continue;
    outL[i] = outL[i] * k + (fl[i] + grain[i]) * (1 - k);
    outA[i] = outA[i] * k + fa[i] * (1 - k);
    outB[i] = outB[i] * k + fb[i] * (1 - k);
  }
  return [outL, outA, outB];
}

/** Seeded white noise, blurred to about a pixel's grain, scaled to unit spread. */
function grainPlane(w: number, h: number, seed: number): Float32Array {
  const g = new Float32Array(w * h);
  for (let y = 0, i = 0; y < h; y++) for (let x = 0; x < w; x++, i++) g[i] = hash2(x, y, seed) - 0.5;
  const b = blurPlane(g, w, h, 0.7);
  let s = 0;
  for (let i = 0; i < b.length; i++) s += b[i] * b[i];
  const k = 1 / Math.sqrt(s / b.length || 1);
  for (let i = 0; i < b.length; i++) b[i] *= k;
  return b;
}

/**
 * The scalp's grain: the forehead's fine band, mirror-tiled from skin well inside the forehead (the brows,
 * eyes and hairline beside it never bleed in), soft-clipped, its holes and, without a forehead, all of it
 * filled with grain of the same spread.
 */
function scalpTexture(L: Float32Array, sample: Float32Array, forehead: boolean, win: Win, fw: number, seed: number): Float32Array {
  const n = win.w * win.h, tsig = Math.max(1, TEXTURE_SIGMA * fw);
  const fine = blurPlane(L, win.w, win.h, tsig);
  const outside = new Float32Array(n);
  for (let i = 0; i < n; i++) outside[i] = sample[i] ? 0 : 1;
  const near = maxFilter(outside, win.w, win.h, Math.ceil(2.5 * tsig));
  let s = 0, count = 0, bx0 = win.w, by0 = win.h, bx1 = -1, by1 = -1;
  for (let y = 0, i = 0; y < win.h; y++) for (let x = 0; x < win.w; x++, i++) {
    if (near[i]) continue;
    const d = L[i] - fine[i];
    s += d * d; count++;
    if (x < bx0) bx0 = x; if (x > bx1) bx1 = x; if (y < by0) by0 = y; if (y > by1) by1 = y;
  }
  const spread = count ? Math.sqrt(s / count) : 1;
  const grain = grainPlane(win.w, win.h, seed + 11);
  const out = new Float32Array(n);
  const useTile = forehead && count >= 100, tw = bx1 - bx0 + 1, th = by1 - by0 + 1, clip = 2.5 * spread;
  for (let y = 0, i = 0; y < win.h; y++) for (let x = 0; x < win.w; x++, i++) {
    let t = TEXTURE_GAIN * spread * grain[i];
    if (useTile) {
      const j = (by0 + mirror(y, th)) * win.w + bx0 + mirror(x, tw);
      if (!near[j]) t = TEXTURE_GAIN * clip * Math.tanh((L[j] - fine[j]) / clip);
    }
    out[i] = t;
  }
  return out;
}

/**
 * The light the hair was in, as a lightness offset for the scalp: the hair's broad lightness (its local
 * mean, over firm hair) less its mean over the hair that goes, scaled and limited, so a head lit from one
 * side or from above keeps that light once bald and reads as a dome.
 */
function hairLight(L: Float32Array, hair: Float32Array, lost: Float32Array, win: Win, fw: number): Float32Array {
  const n = win.w * win.h, wgt = new Float32Array(n), pw = new Float32Array(n);
  for (let i = 0; i < n; i++) if (hair[i] >= 0.55) { wgt[i] = 1; pw[i] = L[i]; }
  const sig = Math.max(3, HAIR_LIGHT_SIGMA * fw);
  const num = blurCoarse(pw, win.w, win.h, sig), den = blurCoarse(wgt, win.w, win.h, sig);
  let ref = 0, cnt = 0;
  for (let i = 0; i < n; i++) if (wgt[i] && lost[i] > 0.3 && den[i] > 0.05) { ref += num[i] / den[i]; cnt++; }
  const out = new Float32Array(n);
  if (!cnt) return out;
  ref /= cnt;
  for (let i = 0; i < n; i++) {
    if (den[i] <= 0.02) continue;
    const d = HAIR_LIGHT * (num[i] / den[i] - ref);
    out[i] = Math.max(-HAIR_LIGHT_MAX, Math.min(HAIR_LIGHT_MAX, d)) * smooth(den[i] / 0.3);
  }
  return out;
}

/** Lightness of the background's fine band round the head, as grain of that spread over the fill. */
function backgroundGrain(L: Float32Array, source: Float32Array, win: Win, seed: number): Float32Array {
  const fine = blurPlane(L, win.w, win.h, 1.5);
  let s = 0, count = 0;
  for (let i = 0; i < L.length; i++) if (source[i]) { const d = L[i] - fine[i]; s += d * d; count++; }
  const spread = count ? Math.min(4, Math.sqrt(s / count)) : 0;
  const g = grainPlane(win.w, win.h, seed + 13);
  for (let i = 0; i < g.length; i++) g[i] *= spread;
  return g;
}

export const encode: Step<P, State> = async (c) => {
  c.output.images.result = await encodePhoto({ data: c.state.pixels!, width: c.image.width, height: c.image.height, channels: c.image.channels });
};
