/** The lips beside a dense beard, after its removal: hair taken off them, their outline met by skin. */
import { grow } from '../../image/feather.ts';
import { blurPlane } from '../../image/frequency.ts';
import { fillPolygon, type Pt } from '../../image/polygon.ts';
import type { Rect } from '../../image/rect.ts';
import { LIPS_LOWER_INNER, LIPS_LOWER_OUTER, LIPS_UPPER_INNER, LIPS_UPPER_OUTER } from '../../vision/faces/landmarks.ts';
import { inpaint } from './inpaint.ts';
import { removalTuning } from './tuning.ts';

/** 0..1 coverage planes over a window: each lip's vermilion and the mouth's opening between them. */
export interface LipPlanes { upper: Float32Array; lower: Float32Array; opening: Float32Array }

/** The lips from the mesh's contours. */
export function lipPlanes(mesh: readonly Pt[], win: Rect): LipPlanes {
  const pts = (idx: readonly number[]) => idx.map((i) => mesh[i]);
  return {
    upper: fillPolygon(pts([...LIPS_UPPER_OUTER, ...[...LIPS_UPPER_INNER].reverse()]), win),
    lower: fillPolygon(pts([...LIPS_LOWER_OUTER, ...[...LIPS_LOWER_INNER].reverse()]), win),
    opening: fillPolygon(pts([...LIPS_UPPER_INNER, ...[...LIPS_LOWER_INNER].reverse()]), win)
  };
}

/**
 * Each lip is read against itself, never against the other: an upper lip darker and browner than the lower
 * one is the person's own (on dark skin it often is, and the parse cannot see a lip under hair; painting it
 * in the lower lip's pink drew a pasted band). On each lip (the mesh's contour, the mouth's opening out),
 * hair is what is darker and greyer than that lip's own lit pixels (its `lipRef` quantile, of its pixels
 * redder than the skin where a quarter of them are); those pixels are filled by PatchMatch from the same
 * lip's clean pixels, so the restored part keeps the lip's own lines, grain and shading. A band along the
 * mouth's opening is left as it is (the darker line where the lips meet is no hair). Around the outline,
 * the thin wall the fill stopped at (hair and the fill's stair-stepped edge) takes the skin fill carried out
 * to the lip's edge, so the lip meets shaved skin through the photo's own edge width, with no rim and no
 * halo of lip colour on the skin. In place on `out` and `alpha`.
 */
export function restoreLips(planes: Float32Array[], out: Float32Array[], alpha: Float32Array, filled: Float32Array, lips: LipPlanes, win: Rect, faceWidth: number, skinA: number): void {
  const T = removalTuning, w = win.w, h = win.h, n = w * h;
  const [L, a] = planes;
  const { upper, lower, opening } = lips;
  const outer = Float32Array.from(upper, (v, i) => Math.min(1, v + lower[i] + opening[i]));
  const meeting = grow(opening, win, T.lipMeeting * faceWidth);
  const fe = Math.max(1, T.lipEdge * faceWidth);
  const nearFill = blurPlane(filled, w, h, fe), besideFill = blurPlane(filled, w, h, 3 * fe);

  // 1. Hair on the upper lip (a moustache's overhang; the lower lip's darker rim and the shadow under it
  // are the lip's own, and no beard grows over it), against that lip's own colour.
  const cover = new Float32Array(n);
  const lip = upper;
  // Read on its sure pixels, tested on all it touches (the outline's soft pixels are hair or lip too).
  const px: number[] = [], all: number[] = [];
  for (let i = 0; i < n; i++) if (lip[i] > 0 && !filled[i]) { all.push(i); if (lip[i] > 0.5) px.push(i); }
  if (px.length >= 8) {
    const redder = px.filter((i) => a[i] >= skinA + T.lipRed + 1);
    const shown = redder.length >= T.lipShown * px.length, ref = shown ? redder : px;
    const quantile = (p: Float32Array, q: number) => ref.map((i) => p[i]).sort((x, y) => x - y)[Math.min(ref.length - 1, Math.floor(q * ref.length))];
    const refL = quantile(L, T.lipRef), refA = quantile(a, 0.5);
    for (const i of all) {
      const dark = Math.min(1, Math.max(0, (refL - L[i] - T.lipDark) / T.lipSpan));
      // Hair as red as the lip (a brown moustache) still counts where it is far darker than the lip: over
      // a lip that shows its colour anywhere, over a dark lip only on the outline beside the fill.
      const deep = (shown ? 1 : Math.min(1, 4 * besideFill[i])) * (refL - L[i] - T.lipDeep) / T.lipSpan;
      const grey = Math.min(1, Math.max(0, (refA - a[i] - T.lipRed) / T.lipSpan, deep));
      cover[i] = dark * grey * (1 - meeting[i]);
    }
    fillFromLip(planes, out, alpha, cover, lip, filled, w, h, faceWidth);
  }

  // 2. The outline's wall beside the fill: the skin fill carried out to the lip's edge (a masked blur of the
  // fill, wider where the fill is further), blended by how far outside the mesh's outline a pixel lies.
  const ring = grow(outer, win, T.lipRing * faceWidth);
  const edge = blurPlane(outer, w, h, Math.max(0.7, T.lipSoft * faceWidth));
  const near = blurPlane(filled, w, h, 2 * fe), far = blurPlane(filled, w, h, 6 * fe);
  const fillOnly = out.map((p) => Float32Array.from(p, (v, i) => v * filled[i]));
  const skinNear = fillOnly.map((p) => blurPlane(p, w, h, 2 * fe)), skinFar = fillOnly.map((p) => blurPlane(p, w, h, 6 * fe));
  for (let i = 0; i < n; i++) {
    if (ring[i] <= 0 || far[i] < 1e-3) continue;
    // The fill's own pixels there are skin in full (its soft edge let hair through in steps).
    if (filled[i]) { alpha[i] = Math.max(alpha[i], Math.min(1, ring[i] * (1 - outer[i]) * 2)); continue; }
    const useNear = near[i] >= 0.05;
    const skin = [0, 1, 2].map((c) => (useNear ? skinNear[c][i] / near[i] : skinFar[c][i] / far[i]));
    // The lip meets the skin over the outline's blur; past the outline whatever is darker than the skin
    // (hair, the stubble's shadow) is skin in full, and what is not (a lip the mesh's outline cut short) blends.
    const darker = outer[i] > 0 ? 0 : Math.min(1, Math.max(0, (skin[0] - planes[0][i] - T.lipDark) / T.lipSpan));
    const k = Math.min(Math.max(1 - edge[i], darker), 4 * nearFill[i]);
    if (k <= 0) continue;
    for (let c = 0; c < 3; c++) {
      const lip = alpha[i] > 0 ? planes[c][i] + alpha[i] * (out[c][i] - planes[c][i]) : planes[c][i];
      out[c][i] = lip + k * (skin[c] - lip);
    }
    alpha[i] = 1;
  }
}

/**
 * The pixels of one lip that `cover` calls hair, filled by PatchMatch from the same lip's clean pixels
 * (at full resolution: a lip's lines are a pixel or two wide), blended by the cover.
 */
function fillFromLip(planes: Float32Array[], out: Float32Array[], alpha: Float32Array, cover: Float32Array, lip: Float32Array, filled: Float32Array, w: number, h: number, faceWidth: number): void {
  const T = removalTuning;
  let x0 = w, y0 = h, x1 = -1, y1 = -1, holes = 0, clean = 0;
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const i = y * w + x;
    if (lip[i] <= 0 || filled[i]) continue;
    if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
    if (cover[i] > T.lipHole) holes++; else if (cover[i] === 0) clean++;
  }
  const patch = Math.max(3, Math.min(9, 2 * Math.round(T.lipPatch * faceWidth / 2) + 1));
  if (!holes || clean < 18) return;
  const g = patch;
  x0 = Math.max(0, x0 - g); y0 = Math.max(0, y0 - g); x1 = Math.min(w - 1, x1 + g); y1 = Math.min(h - 1, y1 + g);
  const cw = x1 - x0 + 1, ch = y1 - y0 + 1, cn = cw * ch;
  const data = new Float32Array(cn * 3), hole = new Uint8Array(cn), source = new Uint8Array(cn);
  for (let y = 0; y < ch; y++) for (let x = 0; x < cw; x++) {
    const j = y * cw + x, i = (y0 + y) * w + x0 + x;
    for (let c = 0; c < 3; c++) data[j * 3 + c] = planes[c][i];
    if (lip[i] <= 0 || filled[i]) continue;
    if (cover[i] > T.lipHole) hole[j] = 1;
  }
  // The hole grown by a pixel (a hair's soft edge), the sources kept clear of it.
  const grown = Uint8Array.from(hole);
  for (let y = 0; y < ch; y++) for (let x = 0; x < cw; x++) {
    const j = y * cw + x;
    if (hole[j]) continue;
    const i = (y0 + y) * w + x0 + x;
    const by = (x > 0 && hole[j - 1]) || (x < cw - 1 && hole[j + 1]) || (y > 0 && hole[j - cw]) || (y < ch - 1 && hole[j + cw]);
    if (by && lip[i] > 0 && !filled[i]) grown[j] = 1;
    else if (lip[i] > 0.5 && !filled[i] && cover[i] === 0) source[j] = 1;
  }
  // A lip that shows only a strip thinner than the patch: 3 px patches; none fits either: the hair stays.
  let result: { data: Float32Array; from: Int32Array } | null = null;
  for (const p of patch > 3 ? [patch, 3] : [3]) {
    try { result = inpaint(data, cw, ch, 3, grown, source, { patch: p }); break; } catch { /* next size */ }
  }
  if (!result) return;
  const filledIn = result;
  // The vote's broad tone with the fine band of each pixel's own best source laid over it (the vote
  // averages the lip's lines away).
  const sg = Math.max(1, T.lipGrain * faceWidth);
  const voted = [0, 1, 2].map((c) => blurPlane(Float32Array.from({ length: cn }, (_, j) => filledIn.data[j * 3 + c]), cw, ch, sg));
  const base = [0, 1, 2].map((c) => blurPlane(Float32Array.from({ length: cn }, (_, j) => data[j * 3 + c]), cw, ch, sg));
  for (let y = 0; y < ch; y++) for (let x = 0; x < cw; x++) {
    const j = y * cw + x;
    if (!grown[j]) continue;
    const i = (y0 + y) * w + x0 + x, o = filledIn.from[j];
    for (let c = 0; c < 3; c++) out[c][i] = voted[c][j] + (o >= 0 ? data[o * 3 + c] - base[c][o] : filledIn.data[j * 3 + c] - voted[c][j]);
    alpha[i] = Math.max(alpha[i], Math.min(1, 2 * cover[i]), hole[j] ? 0 : 0.5);
  }
}
