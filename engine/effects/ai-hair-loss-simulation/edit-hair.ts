/**
 * The edit of one face's hair: the stage's loss field over the window, turned into lost strands (the
 * hair's own light gaps first), carried over the fringe's wisps and the band of skin in the old hairline's
 * shade, and what shows where hair goes (scalp-layer.ts) blended in by how much of it is gone.
 */
import type { RasterImage } from '../../image/raster.ts';
import { fromLab, toLab } from '../../image/colour.ts';
import { blurPlane } from '../../image/frequency.ts';
import type { Rect } from '../../image/rect.ts';
import { dilatePlane } from '../../image/morphology.ts';
import { FLOOR, FLOOR_FADE, fromHead, hairlineLift, lossAt, OUTSIDE_BAND, skullInside, skullSpan, smooth, SKULL, templeSide, toHead, type HeadFrame, type Level } from './hairline.ts';
import { fringeCover, hangsBeside, ownHairline, type HairMaps } from './hair-maps.ts';
import { headOutline, headShape, skullTop } from './head-shape.ts';
import { scalpLayer } from './scalp-layer.ts';
import { alongFlow, equalise, fibreScale, flowField, flowNoise, smoothLoss, strandGone, strandKeep, strandNoise, strandScale, valueNoise } from './strands.ts';
import {
  BACKDROP_GOES, BACKDROP_SOFT, FLOW, HAIRLINE_BAND, BANGS_COVER, BANGS_WIDTH, FIBRE_TEXTURE, FRINGE_REACH, FRINGE_ROOT, HAIR_FIRM, HAIR_RAMP, HAIR_SOME, HANG_FADE, HANG_WIDTH, JITTER, KEEP_SOFT,
  LOSS_SMOOTH, MIN_STRAND, NO_HAIR, NOT_SKIN, PERSON_BAND, PERSON_FRINGE, PERSON_SEEN, SHADOW_BAND, SHADOW_FROM, SHADOW_FULL, SHADOW_RISE, SKULL_SOFT, SMOOTH_FADE, SMOOTH_FROM,
  STRAND_FOCUS, STRAND_WIDTH, THINNER, TOP_ABOVE, TOUCHED, WANDER, WISP_FADE,
} from './tuning.ts';

/** The parsing's hair probability as the weight of the edit: none up to HAIR_SOME, firm from HAIR_FIRM. */
const hairWeight = (p: number) => (p <= HAIR_SOME ? 0 : p >= HAIR_FIRM ? 1 : (p - HAIR_SOME) / HAIR_RAMP);

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
  const focus = STRAND_FOCUS, reach = (SKULL.top + focus) * f.forehead;
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
  const wander = WANDER * f.halfWidth;
  // Bangs (hair over the middle of the forehead well below a hairline) hide the person's hairline: the
  // stages keep the usual one, and the fringe hangs from roots behind it.
  const h0 = ownHairline(f, maps, win), bangs = fringeCover(f, maps, win) >= BANGS_COVER;
  const lift = bangs ? 0 : hairlineLift(h0), hairline = 1 + lift;
  const fw = 2 * f.halfWidth, skull = skullSpan(f.mid, f.down);
  const firm = new Float32Array(n), lost = new Float32Array(n);
  const beside = hangsBeside(f, skull, maps, win);
  let anyLoss = false;
  for (let i = 0; i < n; i++) {
    if (maps.hair[i] <= HAIR_SOME) continue;
    const hangs = beside[U[i] < skull.u0 ? 0 : 1];
    const jitter = JITTER * (valueNoise(along[i] / wander, across[i] / wander, seed + 7) - 0.5);
    // A fringe hanging over the forehead grows from the hairline above it: it goes as that does.
    // Bangs reach over the temples too, and go as their roots behind the hairline do: they thin and
    // recede stage by stage instead of leaving the forehead bare where the temples recede.
    const over = 1 - smooth((Math.abs(U[i] - f.mid) - (bangs ? BANGS_WIDTH : HANG_WIDTH)) / HANG_FADE);
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
    for (let i = 0; i < n; i++) if (maps.hair[i] > HAIR_SOME) onHair[i] = 1;
    const smoothed = smoothLoss(lost, onHair, win.w, win.h, LOSS_SMOOTH * fw);
    // Not over the forehead: bangs hanging there keep their own edge
    // (docs/experiments/ai-hair-loss-simulation.md#bangs-keep-their-own-edge).
    for (let i = 0; i < n; i++) lost[i] += (smoothed[i] - lost[i]) * smooth((V[i] - SMOOTH_FROM) / SMOOTH_FADE);
  }
  const top = skullTop(f, skull, maps, win);
  const shape = headShape(f, top, skull, maps, win);
  const head = headOutline(shape, U, V);
  if (man) {
    // Hair over the backdrop beside the temples (outside the bald head's outline) is the silhouette of the
    // hair on the sides and top standing over the receding temples: it goes when hair standing over the top
    // of the head goes (with the crown, from man_5), not with the temples' recession, which showed the backdrop
    // in wedges beside the forehead. Over the top itself it still goes with the crown, else a cap of hair
    // floats over the dome.
    const topGone = lossAt(level, skull.u0, skull.top + TOP_ABOVE, f.mid, 0, lift, PERSON_BAND, skull);
    for (let i = 0; i < n; i++) {
      if (head[i] >= 1 || lost[i] <= topGone) continue;
      lost[i] += (topGone - lost[i]) * templeSide(U[i], V[i], skull) * (1 - head[i]);
    }
  }
  const lab = toLab(img, win);
  {
    // Strands go along the hair's own flow (flowNoise), the frame's fan where it shows none: a man's single
    // hairs, and the gaps a woman's thinning top opens between her strands (across the combing they read
    // as rows of slits cut into the hair).
    const tx = new Float32Array(n), ty = new Float32Array(n);
    const [fx, fy] = fromHead(f, f.mid, -focus);
    for (let y = 0, i = 0; y < win.h; y++) for (let x = 0; x < win.w; x++, i++) {
      const ex = win.x0 + x + 0.5 - fx, ey = win.y0 + y + 0.5 - fy, d = Math.hypot(ex, ey) || 1;
      tx[i] = ex / d; ty[i] = ey / d;
    }
    const scale = (man ? fibreScale : strandScale)(fw), field = flowField(lab.L, tx, ty, win.w, win.h, scale);
    const flow = flowNoise(lab.L, tx, ty, win.w, win.h, scale, seed + 3, field);
    if (man) {
      // The hairline as a density along the strands: the loss averaged along the hair's flow over
      // HAIRLINE_BAND of the face width either way, so where the stage's line crosses the strands each
      // strand ends at its own place over that band (a few strands stand in front of the line, fewer
      // behind it go) instead of all of them on one line across the hair: a cut.
      const onHair = new Float32Array(n);
      for (let i = 0; i < n; i++) if (maps.hair[i] > HAIR_SOME) onHair[i] = 1;
      lost.set(alongFlow(lost, onHair, field.dx, field.dy, win.w, win.h, Math.max(2, Math.round(HAIRLINE_BAND * fw))));
    }
    for (let i = 0; i < n; i++) noise[i] = FLOW.share * flow[i] + (1 - FLOW.share) * noise[i];
    equalise(noise);
  }
  // Which strands go first: the hair's own light gaps, kept dark strands (strandKeep).
  const keep = strandKeep(lab.L, firm, noise, win.w, win.h, Math.max(MIN_STRAND, STRAND_WIDTH * fw), man ? FIBRE_TEXTURE : undefined);
  // The fringe: wisps the parsing half-sees (under 0.55 hair, not skin) go as the firm hair beside them does.
  const firmLoss = new Float32Array(n);
  for (let i = 0; i < n; i++) if (firm[i] >= 1) firmLoss[i] = lost[i];
  const fringe = dilatePlane(firmLoss, win.w, win.h, Math.max(2, Math.round(FRINGE_REACH * fw)));
  // The parsing's hair stops short of the hair's soft outline against the backdrop; where the person matte
  // still sees the person there, the wisps reach twice as far.
  const fringeWide = maps.person ? dilatePlane(firmLoss, win.w, win.h, Math.max(3, Math.round(PERSON_FRINGE * FRINGE_REACH * fw))) : fringe;
  const gone = new Float32Array(n);
  const thinner = Math.max(THINNER.least, Math.min(THINNER.most, THINNER.px / strandScale(fw).strand));
  let any = 0;
  for (let i = 0; i < n; i++) {
    const loss = lost[i];
    // Whole strands gone, and every strand a little thinner, the more so the finer they are (thinner).
    let g = loss > 0 ? (thinner * loss + (1 - thinner) * strandGone(loss, keep[i], KEEP_SOFT)) * firm[i] : 0;
    if (loss > 0 && head[i] < 1) g += (smooth((loss - BACKDROP_GOES) / BACKDROP_SOFT + 0.5) * firm[i] - g) * (1 - head[i]);
    const fr = maps.person && maps.person[i] > PERSON_SEEN && maps.skin[i] < NOT_SKIN ? fringeWide[i] : fringe[i];
    if (fr > 0 && maps.hair[i] < HAIR_FIRM && maps.skin[i] < 0.5 && maps.hair[i] + maps.background[i] > 0.5) {
      const wisp = fr * (1 - maps.skin[i]) * smooth((V[i] - FLOOR) / WISP_FADE);
      if (wisp > g) { g = wisp; lost[i] = Math.max(loss, fr); }
    }
    gone[i] = g;
    if (g > TOUCHED) any++;
  }
  if (!any) return 0;
  // The skin just under hair that went lay in its shade (and its finest wisps): the scalp's membrane meets
  // the forehead a little lower, and that band of skin goes over to it, so no dark ghost of the old
  // hairline stays.
  const bare = new Float32Array(n);
  for (let i = 0; i < n; i++) if (gone[i] > 0.5 && maps.hair[i] >= HAIR_SOME) bare[i] = 1;
  const nearBare = blurPlane(bare, win.w, win.h, Math.max(1.5, SHADOW_BAND * fw));
  const shadowed = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    if (maps.hair[i] >= HAIR_FIRM || maps.background[i] >= 0.5 || nearBare[i] <= SHADOW_FROM) continue;
    // Only this head's own forehead and hair's edge: never a neighbour's face or clothes beside it.
    if ((maps.skin[i] < NOT_SKIN && maps.hair[i] < NO_HAIR) || skullInside(U[i], V[i], top, SKULL_SOFT, skull) <= 0) continue;
    const k = smooth(nearBare[i] / SHADOW_FULL) * smooth((V[i] - FLOOR) / SHADOW_RISE);
    shadowed[i] = k;
    if (k > gone[i]) { gone[i] = k; if (k > TOUCHED) any++; lost[i] = Math.max(lost[i], k); }
  }

  const reveal = scalpLayer(lab.L, lab.a, lab.b, U, V, win, f, shape, head, maps, lost, shadowed, gone, seed, bangs, level.series);
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
      if (gone[i] > TOUCHED) continue;
      const j = ((win.y0 + y) * img.width + win.x0 + x) * ch;
      img.data[j] = before[j]; img.data[j + 1] = before[j + 1]; img.data[j + 2] = before[j + 2];
    }
  }
  return any;
}
