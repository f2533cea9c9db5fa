/**
 * Steps of the hair loss simulation: the level read → the 5 largest faces → for each with hair to lose
 * (hairCover: a hat, a headscarf or a bald head is left as it is), in its head frame (hairline.ts), the
 * stage's loss field turned into lost strands over the hair the parsing sees (strands.ts: the hair's own
 * light gaps go first and its dark strands last, so thinning keeps the hair's texture), the loss carried
 * over the hair's fringe of wisps and over the band of skin in the old hairline's shade, and where strands
 * go, inside the bald head's outline (the skull grown to the person matte's outline less a hair's
 * thickness) the scalp made from the forehead (scalp.ts: a sphere lit as the forehead is, in its colour
 * and grain, meeting the skin without a seam) shows, and outside it the backdrop, mirrored in from beyond
 * the person's outline → the photo.
 */
import type endpoint from '../../../contract/endpoints/ai-hair-loss-simulation.ts';
import type { Params } from '../../../contract/endpoint.ts';
import { encodePhoto } from '../../image/encode.ts';
import type { RasterImage } from '../../image/raster.ts';
import { fromLab, labToLinear, linearToLab, toLab } from '../../image/colour.ts';
import { blurPlane, maskedBlur } from '../../image/frequency.ts';
import type { Rect } from '../../image/rect.ts';
import { EffectError, type Ctx, type Step } from '../../pipeline/effect.ts';
import type { Face } from '../../vision/faces/detect.ts';
import { perFace, selectFaces, type PortraitState } from '../../pipeline/portrait.ts';
import { parsingPlane } from '../../vision/regions/skin-mask.ts';
import { FLOOR, FLOOR_FADE, fromHead, hairlineLift, headFrame, lossAt, OUTSIDE_BAND, parseLevel, skullInside, skullSpan, SKULL, templeSide, toHead, type SkullSpan, type HeadFrame, type Level } from './hairline.ts';
import { fitPlane } from '../../image/plane-fit.ts';
import { dilatePlane } from '../../image/morphology.ts';
import { domeDiffuse, domeLight, domeNormal, domeSheen, harmonicFill, mirror, mirrorFill, pushPull } from './scalp.ts';
import { fibreScale, hash2, smoothLoss, strandGone, strandKeep, strandNoise, strandScale, valueNoise } from './strands.ts';

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
/**
 * The hair's own texture's share in which strands go where a man's hairline recedes (the rest: fibreScale's
 * noise). At strandKeep's usual 0.75 the hair thinned out in blobs; below about 0.2 dark hair's own
 * strands no longer show in what stays.
 */
const FIBRE_TEXTURE = 0.35;
/**
 * A man's loss field smoothed over this share of the face width (smoothLoss): no corners in the hairline.
 * Fully from SMOOTH_FROM + 0.3 (v) up, not below SMOOTH_FROM.
 */
const LOSS_SMOOTH = 0.03, SMOOTH_FROM = 0.6;
/** Softness of strandKeep's ranks: scalp shows through a strand's edges before its dark core goes. */
const KEEP_SOFT = 0.2;
/** Lab distance within which a background pixel passes for the hair (and is no source of the fill). */
const HAIR_LIKE = 12;
/** The band of skin under bared scalp that lay in the hair's shade (share of the face width). */
const SHADOW_BAND = 0.08;
/** Short hair's thickness over the skull (share of the face width): the person's outline less this is the head's. */
const HAIR_THICKNESS = 0.03;
/** The dome is shaded as an ellipsoid this much larger than the head's outline (its edge is not yet grazing). */
const SHADE_WIDEN = 1.06;
/** The bald head reaches at most this far out of the usual skull (in its radii). */
const HEAD_MAX = 1.2;
/** Hair the person matte holds may stand this far out of the skull (skull radii) and still be theirs. */
const PERSON_BAND = 2.2;
/**
 * Over the backdrop (outside the bald head's outline) hair goes whole or stays, not thinned: its loss
 * turned into a step at BACKDROP_GOES, BACKDROP_SOFT wide. Thinned there, spiky black hair over a light
 * wall came back as a lattice of blobs and rims floating in the air (helen_3248183827 at man_4 and man_5,
 * where the crown's 0.8 gave the hair over it a loss of 0.5).
 */
const BACKDROP_GOES = 0.35, BACKDROP_SOFT = 0.1;
/** Where hair stands over the top of the head (frame v over the skull's top), whose loss templeSide's band takes. */
const TOP_ABOVE = 0.15;
/** Bangs: hair over this share of the forehead (fringeCover), hiding the hairline. */
export const BANGS_COVER = 0.25;
/**
 * Under bangs the skin the scalp's membrane is pinned to lies in their shade (its lit part hides under
 * them): the correction falls off over this share of the face width instead of carrying that shade over
 * the whole dome (helen_3139620200's dome came out 10 L darker than the forehead, flat brown).
 */
const BANGS_MEMBRANE = 0.15;
/** How far behind the hairline (frame v) the bangs' strands grow from. */
const FRINGE_ROOT = 0.2;
/** How far (share of the face width) the loss reaches over the hair's fringe of wisps. */
const FRINGE_REACH = 0.025;
const smooth = (t: number) => { const c = t < 0 ? 0 : t > 1 ? 1 : t; return c * c * (3 - 2 * c); };
/** The sheen's strength over the forehead's own highlights (a bald head shines a little more). */
const SHEEN_GAIN = 1.2;
/**
 * The scalp rolls off into the forehead's highlights over this much L below them (softCap), instead of
 * stopping flat at them: a small face's dome, whose model (with its sheen) lies above them, came back one
 * plain light cap with no shading.
 */
const CAP_KNEE = 10;
/** The forehead's mottling carried onto the scalp, as a share of its spread (the scalp is evener). */
const MOTTLE_GAIN = 0.5;
/** How much darker scalp is under the hair still standing (at no loss), than bare. */
const UNDER_HAIR_SHADE = 0.35;
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
export function headWindow(f: HeadFrame, size: { width: number; height: number }): Rect | null {
  // A turned head's skull reaches further back and higher in the frame (skullSpan).
  const sk = skullSpan(f.mid, f.down), u0 = Math.min(-1.7, sk.u0 - 1.3 * sk.a), u1 = Math.max(1.7, sk.u0 + 1.3 * sk.a), v1 = Math.max(2.6, sk.top + 1);
  const corners = [[u0, -1.0], [u1, -1.0], [u0, v1], [u1, v1]].map(([u, v]) => fromHead(f, u, v));
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
  // No hair to lose (a hat, a headscarf, a bald head): the face stays as it is, which is what it would look like.
  if (hairCover(frame, hair, win) < MIN_HAIR_COVER) return;
  // The person matte says which hair standing out of the skull is this person's and what lies behind it.
  // Big hair reaches past the parsing's square: there the matte-based hair mask says what is hair.
  const atEdge = hairAtEdge(parsing.classes.hair, parsing.win);
  const [hairAll, matte] = await Promise.all([atEdge ? c.facts.hairMask(s.faces) : null, c.facts.personMatte()]);
  const p = parsing.win, person = new Float32Array(win.w * win.h);
  for (let y = 0, i = 0; y < win.h; y++) {
    const iy = win.y0 + y, rowIn = iy >= p.y0 && iy < p.y0 + p.h;
    for (let x = 0; x < win.w; x++, i++) {
      const ix = win.x0 + x, j = iy * c.image.width + ix;
      person[i] = matte.data[j] / 255;
      // The matte-based hair only where the person matte is sure (dark backdrops pass for dark hair).
      if (hairAll && (!rowIn || ix < p.x0 || ix >= p.x0 + p.w)) hair[i] = matte.data[j] >= 128 ? hairAll.data[j] / 255 : 0;
      if (hairAll && matte.data[j] < 13) background[i] = 1;
    }
  }
  const pixels: RasterImage = { data: s.pixels!, width: c.image.width, height: c.image.height, channels: c.image.channels };
  editHair(pixels, win, frame, s.level!, { hair, skin: parsingPlane(parsing, ['skin'], win), background, person }, SEED + index);
});

/**
 * Below this share of the scalp seen as hair, a face has no hair to lose (see hairCover): hats, headscarves
 * and a bald head measured 0 on the shared photos, thin white hair (Biden) 0.12.
 */
export const MIN_HAIR_COVER = 0.05;

/**
 * Share of the scalp the parsing calls hair (≥ 0.5): points over the top of the usual skull (|u| ≤ 0.8,
 * v 1.05..1.45), those inside the photo. A hat, a headscarf or a bald head leave little; even a receding
 * hairline keeps the crown and the sides.
 */
export function hairCover(f: HeadFrame, hair: Float32Array, win: Rect): number {
  let seen = 0, on = 0;
  for (let u = -0.8; u <= 0.801; u += 0.1) {
    for (let v = 1.05; v <= 1.451; v += 0.05) {
      const [x, y] = fromHead(f, u, v);
      const xi = Math.floor(x) - win.x0, yi = Math.floor(y) - win.y0;
      if (xi < 0 || yi < 0 || xi >= win.w || yi >= win.h) continue;
      seen++;
      if (hair[yi * win.w + xi] >= 0.5) on++;
    }
  }
  return seen ? on / seen : 0;
}

/** The largest face's hair cover as the effect sees it (hairCover), for the quality script's report. */
export async function faceHairCover(facts: { parsing: Ctx<P, State>['facts']['parsing'] }, face: Face, size: { width: number; height: number }): Promise<number> {
  if (!face.mesh) return 0;
  const frame = headFrame(face.mesh), win = headWindow(frame, size);
  if (!win) return 0;
  const parsing = await facts.parsing(face, { input: PARSE_INPUT, classes: ['hair', 'skin', 'background'] });
  return hairCover(frame, parsingPlane(parsing, ['hair'], win), win);
}

/**
 * Whether the parsing's hair runs into its window's top or side edges (over more than 2 % of them): then
 * the hair goes on outside what was parsed. The photo's own edges count too (nothing lies beyond them).
 */
export function hairAtEdge(hair: Uint8Array | undefined, win: Rect): boolean {
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
  /** The person matte, 0..1, when known: hair on the person is theirs however far it stands out. */
  person?: Float32Array;
}

/**
 * The edit of one face, in place over `win` of `img`. Exposed for the quality script and tests.
 * Returns how many pixels it touched.
 */
export function editHair(img: RasterImage, win: Rect, f: HeadFrame, level: Level, maps: HairMaps, seed: number): number {
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
  // A man's hairline recedes: what stays in front of it is single hairs (fibreScale). A woman's top thins
  // diffusely, where the hair's own texture decides which strands go.
  const man = level.series === 'man';
  const noise = strandNoise(across, along, (man ? fibreScale : strandScale)(2 * f.halfWidth), seed);
  // A slow wander of the hairline, in frame v: about a fifth of a half face width per bump.
  const wander = 0.2 * f.halfWidth;
  // Bangs (hair over the middle of the forehead well below a hairline) hide the person's hairline: the
  // stages keep the usual one, and the fringe hangs from roots behind it.
  const h0 = ownHairline(f, maps, win), bangs = fringeCover(f, maps, win) >= BANGS_COVER;
  const lift = bangs ? 0 : hairlineLift(h0), hairline = 1 + lift;
  const fw = 2 * f.halfWidth, skull = skullSpan(f.mid, f.down);
  const firm = new Float32Array(n), lost = new Float32Array(n);
  const beside = hangsBeside(f, skull, maps, win);
  let anyLoss = false;
  for (let i = 0; i < n; i++) {
    if (maps.hair[i] <= 0.25) continue;
    const hangs = beside[U[i] < skull.u0 ? 0 : 1];
    const jitter = JITTER * (valueNoise(along[i] / wander, across[i] / wander, seed + 7) - 0.5);
    // A fringe hanging over the forehead grows from the hairline above it: it goes as that does.
    // Bangs reach over the temples too, and go as their roots behind the hairline do: they thin and
    // recede stage by stage instead of leaving the forehead bare where the temples recede.
    const over = 1 - smooth((Math.abs(U[i] - f.mid) - (bangs ? 0.9 : 0.45)) / 0.2);
    const hung = bangs ? hairline + FRINGE_ROOT : hairline;
    const vHung = V[i] < hung ? V[i] + (hung - V[i]) * over : V[i];
    const band = maps.person && maps.person[i] >= 0.5 ? PERSON_BAND : OUTSIDE_BAND;
    const floor = smooth((V[i] - FLOOR) / FLOOR_FADE);
    let loss = lossAt(level, U[i], vHung, f.mid, jitter, lift, band, skull, hangs) * floor;
    // Low over the temples, bangs may as well hang from the sides (the horseshoe keeps those): they go
    // when both would.
    if (bangs && vHung > V[i]) loss = Math.min(loss, lossAt(level, U[i], V[i], f.mid, jitter, lift, band, skull, hangs) * floor);
    firm[i] = hairWeight(maps.hair[i]);
    if (loss <= 0) continue;
    lost[i] = loss;
    anyLoss = true;
  }
  if (!anyLoss) return 0;
  if (man) {
    const onHair = new Float32Array(n);
    for (let i = 0; i < n; i++) if (maps.hair[i] > 0.25) onHair[i] = 1;
    const smoothed = smoothLoss(lost, onHair, win.w, win.h, LOSS_SMOOTH * fw);
    // Not over the forehead: bangs hanging there keep their own edge (smoothed, they thinned toward the brows
    // at man_7 and helen_3248183827's identity fell from 0.86 to 0.82).
    for (let i = 0; i < n; i++) lost[i] += (smoothed[i] - lost[i]) * smooth((V[i] - SMOOTH_FROM) / 0.3);
  }
  const top = skullTop(f, skull, maps, win);
  const shape = headShape(f, top, skull, maps, win);
  const head = headOutline(shape, U, V);
  if (man) {
    // Hair over the backdrop beside the temples (outside the bald head's outline) is the silhouette of the
    // hair on the sides and top standing over the receding temples: it goes when hair standing over the top
    // of the head goes (with the crown, from man_5), not with the temples' recession (at man_2 to man_4
    // helen_3219692565's silhouette went with the hairline and the backdrop showed in wedges beside the
    // forehead). Over the top itself it still goes with the crown, else a cap of hair floats over the dome.
    const topGone = lossAt(level, skull.u0, skull.top + TOP_ABOVE, f.mid, 0, lift, PERSON_BAND, skull);
    for (let i = 0; i < n; i++) {
      if (head[i] >= 1 || lost[i] <= topGone) continue;
      lost[i] += (topGone - lost[i]) * templeSide(U[i], V[i], skull) * (1 - head[i]);
    }
  }
  const lab = toLab(img, win);
  // Which strands go first: the hair's own light gaps, kept dark strands (strandKeep).
  const keep = strandKeep(lab.L, firm, noise, win.w, win.h, Math.max(0.7, STRAND_WIDTH * fw), man ? FIBRE_TEXTURE : undefined);
  // The fringe: wisps the parsing half-sees (under 0.55 hair, not skin) go as the firm hair beside them does.
  const firmLoss = new Float32Array(n);
  for (let i = 0; i < n; i++) if (firm[i] >= 1) firmLoss[i] = lost[i];
  const fringe = dilatePlane(firmLoss, win.w, win.h, Math.max(2, Math.round(FRINGE_REACH * fw)));
  // The parsing's hair stops short of the hair's soft outline against the backdrop; where the person matte
  // still sees the person there, the wisps reach twice as far.
  const fringeWide = maps.person ? dilatePlane(firmLoss, win.w, win.h, Math.max(3, Math.round(2 * FRINGE_REACH * fw))) : fringe;
  const gone = new Float32Array(n);
  let any = 0;
  for (let i = 0; i < n; i++) {
    const loss = lost[i];
    // Mostly whole strands gone; a little of every strand thinner, as thinning hair is.
    let g = loss > 0 ? (THINNER * loss + (1 - THINNER) * strandGone(loss, keep[i], KEEP_SOFT)) * firm[i] : 0;
    if (loss > 0 && head[i] < 1) g += (smooth((loss - BACKDROP_GOES) / BACKDROP_SOFT + 0.5) * firm[i] - g) * (1 - head[i]);
    const fr = maps.person && maps.person[i] > 0.03 && maps.skin[i] < 0.3 ? fringeWide[i] : fringe[i];
    if (fr > 0 && maps.hair[i] < 0.55 && maps.skin[i] < 0.5 && maps.hair[i] + maps.background[i] > 0.5) {
      const wisp = fr * (1 - maps.skin[i]) * smooth((V[i] - FLOOR) / 0.15);
      if (wisp > g) { g = wisp; lost[i] = Math.max(loss, fr); }
    }
    gone[i] = g;
    if (g > 0.004) any++;
  }
  if (!any) return 0;
  // The skin just under hair that went lay in its shade (and its finest wisps): the scalp's membrane meets
  // the forehead a little lower, and that band of skin goes over to it, so no dark ghost of the old
  // hairline stays.
  const bare = new Float32Array(n);
  for (let i = 0; i < n; i++) if (gone[i] > 0.5 && maps.hair[i] >= 0.25) bare[i] = 1;
  const nearBare = blurPlane(bare, win.w, win.h, Math.max(1.5, SHADOW_BAND * fw));
  const shadowed = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    if (maps.hair[i] >= 0.55 || maps.background[i] >= 0.5 || nearBare[i] <= 0.02) continue;
    // Only this head's own forehead and hair's edge: never a neighbour's face or clothes beside it.
    if ((maps.skin[i] < 0.3 && maps.hair[i] < 0.1) || skullInside(U[i], V[i], top, 0.08, skull) <= 0) continue;
    const k = smooth(nearBare[i] / 0.4) * smooth((V[i] - FLOOR) / 0.25);
    shadowed[i] = k;
    if (k > gone[i]) { gone[i] = k; if (k > 0.004) any++; lost[i] = Math.max(lost[i], k); }
  }

  const reveal = scalpLayer(lab.L, lab.a, lab.b, U, V, win, f, shape, head, maps, lost, shadowed, gone, seed, bangs);
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

/**
 * Whether long hair hangs beside the head, on the side below the skull's centre (u) and the one above: the
 * parsing sees hair over at least half of a patch just outside the skull, level with the ears (v -0.8..-0.2),
 * among its points inside the photo. Long hair falling from the top covers it; short hair leaves the ears
 * and the backdrop there.
 */
export function hangsBeside(f: HeadFrame, skull: SkullSpan, maps: HairMaps, win: Rect): [boolean, boolean] {
  const side = (sign: number) => {
    let seen = 0, on = 0;
    for (const du of [0.05, 0.15, 0.25]) {
      for (let v = -0.8; v <= -0.199; v += 0.15) {
        const [x, y] = fromHead(f, skull.u0 + sign * (skull.a + du), v);
        const xi = Math.floor(x) - win.x0, yi = Math.floor(y) - win.y0;
        if (xi < 0 || yi < 0 || xi >= win.w || yi >= win.h) continue;
        seen++;
        if (maps.hair[yi * win.w + xi] >= 0.5) on++;
      }
    }
    return seen > 0 && on >= 0.5 * seen;
  };
  return [side(-1), side(1)];
}

/**
 * Share of the forehead (|u| ≤ 0.6 off the middle, v 0.3..0.75) the parsing calls hair (≥ 0.5), among its
 * points inside the photo: bangs cover much of it, a hairline (even a low one at the temples) little.
 */
export function fringeCover(f: HeadFrame, maps: HairMaps, win: Rect): number {
  let seen = 0, on = 0;
  for (let du = -0.6; du <= 0.601; du += 0.1) {
    for (let v = 0.3; v <= 0.751; v += 0.05) {
      const [x, y] = fromHead(f, f.mid + du, v);
      const xi = Math.floor(x) - win.x0, yi = Math.floor(y) - win.y0;
      if (xi < 0 || yi < 0 || xi >= win.w || yi >= win.h) continue;
      seen++;
      if (maps.hair[yi * win.w + xi] >= 0.5) on++;
    }
  }
  return seen ? on / seen : 0;
}

/** Where the hair begins over the middle of the forehead (v), or null when no hair is found there. */
function ownHairline(f: HeadFrame, maps: HairMaps, win: Rect): number | null {
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
 * The top of the skull (v): a little below where the hair ends over the skull's centre (not over the
 * forehead's middle: on a turned head that is the front of the head, curving down) when that is
 * under a little above the usual height (short hair), else about the usual height (big hair, or the top
 * outside the parsing).
 */
function skullTop(f: HeadFrame, skull: SkullSpan, maps: HairMaps, win: Rect): number {
  let last = -1;
  for (let v = 0.6; v <= Math.max(2.6, skull.top + 1); v += 0.02) {
    let hits = 0, known = 0;
    for (const du of [-0.12, 0, 0.12]) {
      const [x, y] = fromHead(f, skull.u0 + du, v);
      const xi = Math.floor(x) - win.x0, yi = Math.floor(y) - win.y0;
      if (xi < 0 || yi < 0 || xi >= win.w || yi >= win.h) continue;
      known++;
      if (maps.hair[yi * win.w + xi] >= 0.5) hits++;
    }
    if (known === 0) break; // the photo's top edge
    if (hits >= 2) last = v;
  }
  if (last < 0) return skull.top;
  // Short hair lies about a tenth of a forehead height thick over a skull a little above the usual height
  // (the frame's usual 1.6 left a band of filled-in background under the top of short hair); under big hair,
  // back to the usual height (a taller guess under a mop of curls shows as an egg).
  const raised = skull.top + 0.12;
  if (last - 0.1 <= raised) return Math.max(1.15, last - 0.1);
  return Math.max(skull.top, raised - (last - 0.1 - raised));
}

/**
 * The bald head's outline: for each direction from the skull's centre (in the frame's skull-normalised
 * space, where the usual skull is the unit circle), how far the head reaches: the person's own outline less
 * a hair's thickness (short hair hugs the skull; a close crop's head goes on past the photo's edge), not
 * inside the usual skull unless the person ends there, nor past one a little larger (big hair stands far off the head), smoothed over
 * the angle so the outline is round, not the hair's tufts.
 */
export interface HeadShape { reach: Float32Array; top: number; skull: SkullSpan }
const ANGLES = 180;
function headShape(f: HeadFrame, top: number, skull: SkullSpan, maps: HairMaps, win: Rect): HeadShape {
  const reach = new Float32Array(ANGLES), b = top - SKULL.v0;
  const thick = (HAIR_THICKNESS * 2) / skull.a;
  for (let k = 0; k < ANGLES; k++) {
    const t = (2 * Math.PI * k) / ANGLES, c = Math.cos(t), sn = Math.sin(t);
    if (sn < -0.1 || !maps.person) { reach[k] = 1; continue; }
    // Scanned past the largest head as far as big hair still moves the guess (see below).
    let r = 0.8, cut = false;
    for (; r < 2 * HEAD_MAX - 1 + thick; r += 0.01) {
      const [x, y] = fromHead(f, skull.u0 + skull.a * r * c, SKULL.v0 + b * r * sn);
      const xi = Math.floor(x) - win.x0, yi = Math.floor(y) - win.y0;
      if (xi < 0 || yi < 0 || xi >= win.w || yi >= win.h) { cut = true; break; }
      if (maps.person[yi * win.w + xi] < 0.5) break;
    }
    const own = r - thick;
    // Where the photo cuts the head, it reaches at least that far (the hair's outline is not seen), up to
    // the largest head (less a hair's thickness when the cut lies beyond it); where the person ends inside
    // the usual skull (the far side of a turned head), the head ends there. Where the hair's outline is seen
    // further out than the largest head (big hair), it says nothing of the head's: the guess goes back
    // toward the usual skull as the hair grows (as skullTop's does), instead of the largest head, whose
    // scalp came out as flat bulges over the temples of a spiky mop.
    if (cut) reach[k] = r < HEAD_MAX ? Math.max(1, r) : HEAD_MAX - thick;
    else reach[k] = r >= 1 + thick ? (own <= HEAD_MAX ? own : Math.max(1, 2 * HEAD_MAX - own)) : Math.max(0.8, Math.min(1, r));
  }
  // Smoothed over about 20 degrees either way (three box passes), round the circle.
  let cur = reach;
  for (let pass = 0; pass < 3; pass++) {
    const next = new Float32Array(ANGLES), R = 6;
    for (let k = 0; k < ANGLES; k++) {
      let sum = 0;
      for (let d = -R; d <= R; d++) sum += cur[(k + d + ANGLES) % ANGLES];
      next[k] = sum / (2 * R + 1);
    }
    cur = next;
  }
  return { reach: cur, top, skull };
}

/** The head's reach (skull-normalised radius) toward frame point (u, v), and the point's own radius. */
function headReach(shape: HeadShape, u: number, v: number): [number, number] {
  const x = (u - shape.skull.u0) / shape.skull.a, y = (v - SKULL.v0) / (shape.top - SKULL.v0);
  const t = Math.atan2(y, x), p = ((t < 0 ? t + 2 * Math.PI : t) / (2 * Math.PI)) * ANGLES;
  const k0 = Math.floor(p) % ANGLES, k1 = (k0 + 1) % ANGLES, w = p - Math.floor(p);
  const reach = shape.reach[k0] * (1 - w) + shape.reach[k1] * w;
  return [reach, y < 0 ? Math.abs(x) : Math.hypot(x, y)];
}

/** Inside the bald head's outline, 0..1, soft over a few hundredths of the skull. */
function headOutline(shape: HeadShape, U: Float32Array, V: Float32Array): Float32Array {
  const out = new Float32Array(U.length);
  for (let i = 0; i < U.length; i++) {
    const [reach, r] = headReach(shape, U[i], V[i]);
    out[i] = smooth((reach - r) / 0.04 + 0.5);
  }
  return out;
}

/**
 * What shows where hair goes, as Lab planes over the window: inside the skull the scalp (forehead colour
 * and light, the light the hair itself was in, dome shading, sheen, forehead texture), outside it the
 * background filled in. Null when no forehead or other skin is visible to make a scalp from.
 */
function scalpLayer(L: Float32Array, A: Float32Array, B: Float32Array, U: Float32Array, V: Float32Array, win: Rect, f: HeadFrame, shape: HeadShape, head: Float32Array, maps: HairMaps, lost: Float32Array, shadowed: Float32Array, gone: Float32Array, seed: number, bangs = false): Float32Array[] | null {
  const n = win.w * win.h, fw = 2 * f.halfWidth, top = shape.top;
  const normalAt = (i: number) => domeNormal(U[i], V[i], top, SHADE_WIDEN * headReach(shape, U[i], V[i])[0], shape.skull);
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
  // The forehead in linear light: its mean colour, and its luminance against the dome's normals, whose
  // plane gives the light's direction across the face.
  const nx: number[] = [], ny: number[] = [], lum: number[] = [], raw: number[] = [];
  const rgb: [number, number, number] = [0, 0, 0], mean = [0, 0, 0], chan: number[][] = [[], [], []];
  for (let i = 0; i < n; i++) {
    if (!sample.m[i]) continue;
    labToLinear(L[i], A[i], B[i], rgb);
    const nn = normalAt(i);
    nx.push(nn[0]); ny.push(nn[1]);
    lum.push(0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]);
    for (let c = 0; c < 3; c++) { mean[c] += rgb[c]; chan[c].push(rgb[c]); }
    raw.push(L[i]);
  }
  for (let c = 0; c < 3; c++) mean[c] /= nx.length;
  const meanY = 0.2126 * mean[0] + 0.7152 * mean[1] + 0.0722 * mean[2];
  let plane = fitPlane(nx, ny, lum)!;
  if (plane[1] === 0 && plane[2] === 0) {
    // Forehead skin all below the dome's equator (bangs leave only the band over the brows) has one normal
    // y: the plane is not pinned down, but the light's side still is, by the luminance across.
    let mx = 0, my = 0;
    for (let k = 0; k < nx.length; k++) { mx += nx[k]; my += lum[k]; }
    mx /= nx.length; my /= nx.length;
    let sxx = 0, sxy = 0;
    for (let k = 0; k < nx.length; k++) { sxx += (nx[k] - mx) ** 2; sxy += (nx[k] - mx) * (lum[k] - my); }
    if (sxx > 1e-6 * nx.length) plane = [my - (sxy / sxx) * mx, sxy / sxx, 0];
  }
  const light = domeLight(plane[1] / Math.max(1e-3, plane[0]), plane[2] / Math.max(1e-3, plane[0]));
  // Each channel against the light the forehead's normals get (least squares, its slope kept within half
  // and twice the proportional one): the dome's lit front and its turned-away sides as bright, and as
  // saturated, as the forehead's are at the same light.
  const dl = nx.map((x, k) => domeDiffuse([x, ny[k], Math.sqrt(Math.max(0, 1 - x * x - ny[k] * ny[k]))], light));
  const dMean = dl.reduce((p, q) => p + q, 0) / dl.length;
  let dd = 0;
  for (const d of dl) dd += (d - dMean) ** 2;
  const colour = mean.map((m, c) => {
    let dz = 0;
    for (let k = 0; k < dl.length; k++) dz += (dl[k] - dMean) * (chan[c][k] - m);
    const prop = m / dMean, slope = Math.max(0.5 * prop, Math.min(2 * prop, dd > 1e-9 ? dz / dd : prop));
    return [m - slope * dMean, slope];
  });
  const shaded = (d: number, c: number) => colour[c][0] + colour[c][1] * d;
  raw.sort((p, q) => p - q);
  const cap = raw[Math.floor(0.97 * raw.length)];
  // The sheen: as bright over the diffuse light as the forehead's highlights are over its mean, in the
  // light's colour (whiter than the skin).
  lum.sort((p, q) => p - q);
  const sheen = Math.max(0.01, Math.min(0.25, lum[Math.floor(0.97 * lum.length)] - meanY)) * SHEEN_GAIN;
  const texture = scalpTexture(L, sample.m, forehead, win, fw, seed);

  const outL = new Float32Array(n), outA = new Float32Array(n), outB = new Float32Array(n);
  const lab = { l: 0, a: 0, b: 0 };
  // The dome at normal nn, `k` its shade under standing hair; the same model the skin it meets is compared
  // with below, sheen included (else the sheen steps up where the scalp begins).
  const model = (nn: [number, number, number], k: number, out: typeof lab) => {
    const d = domeDiffuse(nn, light), sp = sheen * domeSheen(nn, light);
    linearToLab(shaded(d, 0) * k + sp * (0.5 + 0.5 * mean[0] / meanY), shaded(d, 1) * k + sp * (0.5 + 0.5 * mean[1] / meanY), shaded(d, 2) * k + sp * (0.5 + 0.5 * mean[2] / meanY), out);
  };
  for (let i = 0; i < n; i++) {
    if (lost[i] <= 0 && shadowed[i] <= 0) continue;
    const nn = normalAt(i);
    // Scalp seen between remaining strands lies in their shade; bare scalp does not.
    const k = maps.hair[i] >= 0.25 ? 1 - UNDER_HAIR_SHADE * (1 - lost[i]) : 1;
    model(nn, k, lab);
    outL[i] = lab.l; outA[i] = lab.a; outB[i] = lab.b;
  }
  // The seam: the model's colour is moved to meet the skin it borders (the forehead, temples, the ears),
  // by the difference there carried over the scalp as a membrane (harmonicFill), as a Poisson blend does:
  // the dome keeps the model's light and shape, and meets the skin without a seam.
  const skinWeight = new Float32Array(n);
  // The skin that stays as it is (the scalp meets it where the edit's weight `gone` starts).
  for (let i = 0; i < n; i++) if (maps.skin[i] >= 0.5 && maps.hair[i] < 0.55 && V[i] >= -0.3 && gone[i] < 0.02) skinWeight[i] = 1;
  const skinL = maskedBlur(L, skinWeight, win.w, win.h, sigma), skinA = maskedBlur(A, skinWeight, win.w, win.h, sigma), skinB = maskedBlur(B, skinWeight, win.w, win.h, sigma);
  const dL = new Float32Array(n), dA = new Float32Array(n), dB = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    if (!skinWeight[i]) continue;
    model(normalAt(i), 1, lab);
    dL[i] = skinL[i] - lab.l; dA[i] = skinA[i] - lab.a; dB[i] = skinB[i] - lab.b;
  }
  const [fL, fA, fB] = harmonicFill([dL, dA, dB], skinWeight, win.w, win.h, 40, bangs ? BANGS_MEMBRANE * fw : Infinity);
  for (let i = 0; i < n; i++) {
    if (lost[i] <= 0 && shadowed[i] <= 0) continue;
    // Never lighter than the forehead's own highlights: past them an overexposed forehead's scalp would
    // leave the gamut and come back white. Rolled off into them, so the dome's shading stays.
    outL[i] = softCap(outL[i] + fL[i], cap, CAP_KNEE) + texture[i];
    outA[i] += fA[i]; outB[i] += fB[i];
  }
  // Outside the skull: the background, pushed in from the pixels the parsing calls background, away from
  // the hair's fringe (whose wisps would come back as a halo), with the background's own grain.
  const nearHair = new Float32Array(n);
  for (let i = 0; i < n; i++) if (maps.hair[i] >= 0.25) nearHair[i] = 1;
  const reach = dilatePlane(nearHair, win.w, win.h, Math.max(2, Math.round(FRINGE_REACH * fw)));
  // Hair the parsing missed (dark hair cut by the photo's edge, taken for a dark backdrop) must not be
  // pushed back in: nothing the colour of the hair that goes is a source.
  let hl = 0, ha = 0, hb = 0, hc = 0;
  for (let i = 0; i < n; i++) if (maps.hair[i] >= 0.55 && lost[i] > 0) { hl += L[i]; ha += A[i]; hb += B[i]; hc++; }
  if (hc) { hl /= hc; ha /= hc; hb /= hc; }
  const bgWeight = new Float32Array(n), bgLoose = new Float32Array(n);
  let bgCount = 0, looseCount = 0;
  if (maps.person) {
    // With the person matte: what is not the person, a little away from its edge, whatever its colour
    // (a dark backdrop like the hair is still the backdrop, and the nearest one).
    const onPerson = new Float32Array(n);
    // (The matte and the parsing fade out slowly over a bright backdrop: their halves, not their tails.)
    for (let i = 0; i < n; i++) if (maps.person[i] >= 0.5 || maps.hair[i] >= 0.5) onPerson[i] = 1;
    const nearPerson = dilatePlane(onPerson, win.w, win.h, Math.max(2, Math.round(0.01 * fw)));
    for (let i = 0; i < n; i++) if (!nearPerson[i]) { bgWeight[i] = 1; bgCount++; }
  }
  for (let i = 0; i < n; i++) {
    if (maps.background[i] < 0.6 || maps.hair[i] >= 0.1) continue;
    bgLoose[i] = 1; looseCount++;
    if (maps.person) continue;
    const hairLike = hc > 0 && (L[i] - hl) ** 2 + (A[i] - ha) ** 2 + (B[i] - hb) ** 2 < HAIR_LIKE ** 2;
    if (!reach[i] && !hairLike) { bgWeight[i] = 1; bgCount++; }
  }
  const source = bgCount >= 50 ? bgWeight : bgLoose;
  if (Math.max(bgCount, looseCount) < 50) return [outL, outA, outB];
  const [fl, fa, fb] = pushPull([L, A, B], source, win.w, win.h);
  const grain = backgroundGrain(L, source, win, seed);
  const need = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (head[i] < 1 && (lost[i] > 0 || shadowed[i] > 0)) need[i] = 1;
  const [cx, cy] = fromHead(f, shape.skull.u0, SKULL.v0);
  const [ml, ma, mb] = mirrorFill([L, A, B], source, need, win.w, win.h, cx - win.x0, cy - win.y0, Math.round(0.2 * fw));
  for (let i = 0; i < n; i++) {
    const k = head[i];
    if (k >= 1) continue;
    // The mirrored backdrop where it is like the backdrop's smooth fill there (a stripe of something else
    // reflected in would show as a copy).
    const mirrored = !Number.isNaN(ml[i]) && Math.abs(ml[i] - fl[i]) < 12 && Math.abs(ma[i] - fa[i]) + Math.abs(mb[i] - fb[i]) < 12;
    outL[i] = outL[i] * k + (mirrored ? ml[i] : fl[i] + grain[i]) * (1 - k);
    outA[i] = outA[i] * k + (mirrored ? ma[i] : fa[i]) * (1 - k);
    outB[i] = outB[i] * k + (mirrored ? mb[i] : fb[i]) * (1 - k);
  }
  return [outL, outA, outB];
}

/** `x` rolled off smoothly into `cap` over the `knee` below it (shading above the cap kept as a gentler slope, never past it). */
export function softCap(x: number, cap: number, knee: number): number {
  const k0 = cap - knee;
  return x <= k0 ? x : k0 + knee * Math.tanh((x - k0) / knee);
}

/** Seeded white noise, blurred to `sigma` (about a pixel's grain by default), scaled to unit spread. */
function grainPlane(w: number, h: number, seed: number, sigma = 0.7): Float32Array {
  const g = new Float32Array(w * h);
  for (let y = 0, i = 0; y < h; y++) for (let x = 0; x < w; x++, i++) g[i] = hash2(x, y, seed) - 0.5;
  const b = blurPlane(g, w, h, sigma);
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
function scalpTexture(L: Float32Array, sample: Float32Array, forehead: boolean, win: Rect, fw: number, seed: number): Float32Array {
  const n = win.w * win.h, tsig = Math.max(1, TEXTURE_SIGMA * fw);
  const fine = blurPlane(L, win.w, win.h, tsig);
  const outside = new Float32Array(n);
  for (let i = 0; i < n; i++) outside[i] = sample[i] ? 0 : 1;
  const near = dilatePlane(outside, win.w, win.h, Math.ceil(2.5 * tsig));
  let s = 0, count = 0, bx0 = win.w, by0 = win.h, bx1 = -1, by1 = -1;
  for (let y = 0, i = 0; y < win.h; y++) for (let x = 0; x < win.w; x++, i++) {
    if (near[i]) continue;
    const d = L[i] - fine[i];
    s += d * d; count++;
    if (x < bx0) bx0 = x; if (x > bx1) bx1 = x; if (y < by0) by0 = y; if (y > by1) by1 = y;
  }
  const spread = count ? Math.sqrt(s / count) : 1;
  // The forehead's mottling (the band between a few and a dozen grain widths), as smooth noise of its spread.
  const broad = blurPlane(L, win.w, win.h, 5 * tsig);
  let sm = 0, cm = 0;
  for (let i = 0; i < n; i++) if (!near[i]) { const d = fine[i] - broad[i]; sm += d * d; cm++; }
  const mottle = Math.min(2, cm ? Math.sqrt(sm / cm) : 0);
  const blotch = grainPlane(win.w, win.h, seed + 21, 2 * tsig), bk = MOTTLE_GAIN * mottle;
  const grain = grainPlane(win.w, win.h, seed + 11);
  const out = new Float32Array(n);
  // On a small face the forehead's finest band is its lines (a wrinkle is a pixel or two wide there): tiled,
  // they came back as a lattice of wrinkles over the dome, so it takes grain of the same spread instead.
  const useTile = forehead && count >= 100 && TEXTURE_SIGMA * fw >= 1, tw = bx1 - bx0 + 1, th = by1 - by0 + 1, clip = 2.5 * spread;
  for (let y = 0, i = 0; y < win.h; y++) for (let x = 0; x < win.w; x++, i++) {
    let t = TEXTURE_GAIN * spread * grain[i];
    if (useTile) {
      const j = (by0 + mirror(y, th)) * win.w + bx0 + mirror(x, tw);
      if (!near[j]) t = TEXTURE_GAIN * clip * Math.tanh((L[j] - fine[j]) / clip);
    }
    out[i] = t + bk * blotch[i];
  }
  return out;
}

/** Lightness of the background's fine band round the head, as grain of that spread over the fill. */
function backgroundGrain(L: Float32Array, source: Float32Array, win: Rect, seed: number): Float32Array {
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
