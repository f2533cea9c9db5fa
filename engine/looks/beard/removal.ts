/**
 * Beard removal over a mask: the beard is filled with the person's own skin, then evened and given back
 * its fine texture.
 *   1. fill: exemplar-based inpainting (inpaint.ts, PatchMatch with voting) of the beard from patches of
 *      the bare skin the caller allows (cheeks and neck), on a copy of the window scaled so the face is
 *      about WORK_FACE pixels wide (the fill's structure is that coarse; its grain comes in step 3);
 *   2. even: the fill and the stubble shadow the mask's soft rim leaves are moved, in Lab, toward the
 *      broad tone of the skin around them (a masked blur of that skin), so the shaved area is neither a
 *      darker nor a lighter patch;
 *   3. texture: frequency separation: the low band is the skin seen between the hairs where it shows
 *      (stubble, a sparse beard: the pixels on a lightness closing's envelope, of the skin's hue, which
 *      carry the face's own shading), the fill's elsewhere; the full-resolution high band of the very
 *      source pixels the fill came from is laid over it, so pores and grain are the person's own at the
 *      photo's own resolution, never a blur or smear (the evening moves the seen skin only part way: a full
 *      one toward the skin around flattened the chin's modelling into a waxy patch). A dense beard's low band
 *      is the face's own light fitted on its bare skin by the mesh's normals (shading.ts); the grain laid
 *      over any fill is quilted from the person's own plain skin (quilt.ts) where it can be;
 *   4. blended into the photo through the soft mask, so nothing outside it moves.
 * The mask comes from mask.ts (beardMask), any window and 0..1 planes.
 */
import { expand, shrink } from '../../image/guided-filter.ts';
import type { RasterImage } from '../../image/raster.ts';
import { mapGamut, toByte, toLab } from '../../image/colour.ts';
import { blurPlane } from '../../image/frequency.ts';
import type { Rect } from '../../image/rect.ts';
import { inpaint } from './inpaint.ts';
import { membraneFill } from './membrane.ts';
import { broadLightness, quiltBand } from './quilt.ts';
import { evalShading, fitShading, meshNormals, type NormalField } from './shading.ts';
import type { P3 } from '../../vision/regions/uv-map.ts';
import { type LipPlanes, restoreLips } from './lips.ts';
import { skinBetweenHairs, skinColour } from './skin-seen.ts';
import { removalTuning } from './tuning.ts';

export interface BeardPlanes {
  /** The window of the image the planes cover. */
  win: Rect;
  /** Face width in image pixels (cheek to cheek). */
  faceWidth: number;
  /** 0..1 beard and moustache. */
  beard: Float32Array;
  /** 0..1 bare skin the fill may copy from. */
  skin: Float32Array;
  /** 0..1 where anything may change at all (the beard zone without lips, nostrils, hair): the rim's evening stays inside it. */
  zone: Float32Array;
  /**
   * A dense beard (no skin shows between its hairs): the fill's low band is a membrane of the skin around
   * the hole, shaded by the beard's own broad lightness, rather than the fill's or the skin seen.
   */
  dense?: boolean;
  /** 0..1 inside the face's outline: a dense fill is solved on each side of it apart (the jaw's edge kept). */
  inside?: Float32Array;
  /** 0..1 the face's own surface (not lips, nostrils, background, clothes): what a dense fill's membrane meets around the hole. */
  bare?: Float32Array;
  /**
   * 0..1 the lips (each lip's vermilion and the mouth's opening, from the mesh's contours, lips.ts): beside a
   * dense fill the hair over the upper lip is taken off and the outline meets the shaved skin.
   */
  lips?: LipPlanes;
  /** The fill's fine texture, scaled to the spread of the person's own skin band; the source patches' band without it. */
  grain?: GrainSource;
  /** The face's mesh (image pixels): a dense fill inside the face's outline takes the face's own light by its normals (shading.ts). */
  mesh?: readonly P3[];
}

/**
 * Fine texture for the fill from elsewhere than the person's own source patches (a library of real
 * clean-shaven lower faces carried through the face's mesh, effects/ai-beard-removal/skin-library.ts): over
 * a window, a Lab band (finer than `sigma` face widths) in units of its own robust spread, and how sure
 * it is per pixel (0..1; the person's own band is kept where it is 0).
 */
export type GrainSource = (win: Rect) => { band: Float32Array[]; has: Float32Array; sigma: number };

export interface RemovalStats { hole: number; workScale: number; ms: { fill: number; total: number } }

/**
 * Removes the beard in place. Returns null (and changes nothing) when the mask is empty or no skin patch
 * can be found to fill it from.
 */
export function removeBeard(image: RasterImage, full: BeardPlanes): RemovalStats | null {
  const t0 = performance.now();
  const T = removalTuning;
  const m = aroundBeard(full, T.context * full.faceWidth);
  if (!m) return null;
  const { win } = m;
  const n = win.w * win.h;

  const s = Math.max(1, Math.round(m.faceWidth / T.workFace));
  const gw = Math.ceil(win.w / s), gh = Math.ceil(win.h / s);
  const lab = toLab(image, win);
  const planes = [lab.L, lab.a, lab.b];

  // 1. The fill, on the working copy.
  const small = planes.map((p) => shrink(p, win.w, win.h, s, gw, gh));
  const grownBeard = blurPlane(m.beard, win.w, win.h, Math.max(1, T.holeGrow * m.faceWidth));
  const holeSmall = shrink(grownBeard, win.w, win.h, s, gw, gh), skinSmall = shrink(m.skin, win.w, win.h, s, gw, gh);
  const hole = new Uint8Array(gw * gh), source = new Uint8Array(gw * gh);
  // Sources: sure skin whose lightness is the skin's own (not a hair's edge or a deep shadow the parsing let in).
  const skinL: number[] = [];
  for (let i = 0; i < gw * gh; i++) if (skinSmall[i] > T.sourceSkin) skinL.push(small[0][i]);
  skinL.sort((a, b) => a - b);
  const medL = skinL.length ? skinL[skinL.length >> 1] : 0;
  const spreadL = skinL.length ? Math.max(3, 1.4826 * skinL.map((v) => Math.abs(v - medL)).sort((a, b) => a - b)[skinL.length >> 1]) : 0;
  // A dense beard's wider feather reaches over the lips' edge: what is not the face's surface stays.
  const bareSmall = m.dense && m.bare ? shrink(m.bare, win.w, win.h, s, gw, gh) : null;
  let holeCount = 0;
  for (let i = 0; i < hole.length; i++) {
    if (Math.max(holeSmall[i], 0) > T.holeAt * 0.5 && !(bareSmall && bareSmall[i] < 0.5)) { hole[i] = 1; holeCount++; }
    else if (skinSmall[i] > T.sourceSkin && Math.abs(small[0][i] - medL) < T.sourceSpread * spreadL) source[i] = 1;
  }
  const inter = new Float32Array(gw * gh * 3);
  for (let i = 0; i < gw * gh; i++) for (let c = 0; c < 3; c++) inter[i * 3 + c] = small[c][i];
  const tf = performance.now();
  let fill;
  try { fill = inpaint(inter, gw, gh, 3, hole, source, { patch: T.patch }); } catch { return null; }
  const fillMs = performance.now() - tf;

  // 3. Frequency separation at the texture's scale: the fill's low band (bilinear from the working copy,
  // blurred past the voting's averaging), and the full-resolution texture band of the very source pixels
  // the fill took, copied over it.
  const texSigma = Math.max(1, T.textureSigma * m.faceWidth);
  // Blurred on the working grid (texSigma / s there) and brought back bilinearly: the same smooth band at
  // 1/s^2 of the cost.
  const lowSigma = Math.max(texSigma, T.lowSigma * m.faceWidth);
  const low = [0, 1, 2].map((c) => expand(blurPlane(Float32Array.from({ length: gw * gh }, (_, i) => fill.data[i * 3 + c]), gw, gh, lowSigma / s), gw, gh, win.w, win.h, s));
  if (m.dense) {
    const cut = (p: Float32Array | undefined) => p && shrink(p, win.w, win.h, s, gw, gh);
    const normals = m.mesh && T.lightOrder > 0 ? meshNormals(m.mesh, win, s) : null;
    const membrane = denseLow(small, hole, shrink(m.beard, win.w, win.h, s, gw, gh), bareSmall ?? skinSmall, skinSmall, cut(m.inside), normals, gw, gh, m.faceWidth / s);
    // Its sides meet at the face's outline in a step: softened to the photo's own edge width (a jaw, not a
    // cut), over the hole alone (the hair left outside it, beside the lips, would darken the fill's edge).
    const js = Math.max(1, T.jawEdge * m.faceWidth);
    const holeFull = new Float32Array(n);
    for (let y = 0; y < win.h; y++) for (let x = 0; x < win.w; x++) holeFull[y * win.w + x] = hole[((y / s) | 0) * gw + ((x / s) | 0)];
    const den = blurPlane(holeFull, win.w, win.h, js);
    for (let c = 0; c < 3; c++) {
      const e = expand(membrane[c], gw, gh, win.w, win.h, s);
      const num = blurPlane(Float32Array.from(e, (v, i) => v * holeFull[i]), win.w, win.h, js);
      low[c] = Float32Array.from(e, (v, i) => (holeFull[i] && den[i] > 1e-3 ? num[i] / den[i] : v));
    }
  }
  // The hue of the skin around (beside the hairs, and the quilt's sources below).
  const hue = skinColour(small, source);
  const seen = T.skinLow > 0 && !m.dense ? skinBetweenHairs(planes, low, win.w, win.h, m.faceWidth, hue) : new Float32Array(n);
  const band = planes.map((p) => { const b = blurPlane(p, win.w, win.h, texSigma); const h = new Float32Array(n); for (let i = 0; i < n; i++) h[i] = p[i] - b[i]; return h; });
  // Texture, not edges: a source pixel beside a skin's edge (the jaw, a hair line, a nostril) carries that
  // edge in its band, which copied into the fill draws a line. The band is clipped to textureClip robust
  // spreads of the source skin's own.
  const spreads = band.map((h) => {
    const v: number[] = [];
    for (let i = 0; i < n; i += 3) if (m.skin[i] > T.textureSkin) v.push(Math.abs(h[i]));
    v.sort((a, b) => a - b);
    const spread = v.length ? 1.4826 * v[v.length >> 1] : 0, lim = T.textureClip * spread;
    for (let i = 0; i < n; i++) h[i] = Math.max(-lim, Math.min(lim, h[i]));
    return spread;
  });
  const out = planes.map((p) => Float32Array.from(p));
  const filled = new Float32Array(n); // 1 where the fill replaced the pixel
  const inHole = new Uint8Array(n);
  for (let y = 0; y < win.h; y++) for (let x = 0; x < win.w; x++) if (hole[((y / s) | 0) * gw + ((x / s) | 0)]) inHole[y * win.w + x] = 1;
  // The grain quilted from the person's own plain skin (quilt.ts), where it can be.
  const P = Math.round(T.quiltPatch * m.faceWidth);
  // Its sources: the face's bare surface clear of the beard (the cheeks inside the beard's zone too: the
  // fill's own sources, kept clear of the zone, can be a nose and a strip of cheek), of the skin's
  // lightness and hue (a knitted scarf or a collar the parser let into the skin is no skin's grain).
  const plain = new Uint8Array(n), clear = m.bare ?? m.skin;
  for (let i = 0; i < n; i++) {
    if (inHole[i] || grownBeard[i] > T.quiltClear || clear[i] < T.sourceSkin) continue;
    if (Math.abs(planes[0][i] - medL) < T.sourceSpread * spreadL && Math.hypot(planes[1][i] - hue.a, planes[2][i] - hue.b) < T.sourceSpread * hue.spreadAB) plain[i] = 1;
  }
  const quilted = T.quiltPatch > 0 ? quiltBand(band, win.w, win.h, plain, inHole, low[0], broadLightness(planes[0], win.w, win.h, P),
    { patch: P, tries: T.quiltTries, energyLo: T.quiltEnergy[0], energyHi: T.quiltEnergy[1] }) : null;
  // Real bare skin's grain at the person's own contrast, where the grain source has it: the source's unit
  // band is scaled to the robust spread of the person's own skin band at the source's scale.
  const grain = quilted ? undefined : m.grain?.(win);
  const grainSpread = grain ? planes.map((p, c) => {
    if (Math.abs(grain.sigma * m.faceWidth - texSigma) < 0.5) return spreads[c];
    const b = blurPlane(p, win.w, win.h, Math.max(1, grain.sigma * m.faceWidth));
    const v: number[] = [];
    for (let i = 0; i < n; i += 3) if (m.skin[i] > T.textureSkin) v.push(Math.abs(p[i] - b[i]));
    return v.length ? 1.4826 * v.sort((x, y) => x - y)[v.length >> 1] : 0;
  }) : spreads;
  for (let y = 0; y < win.h; y++) {
    for (let x = 0; x < win.w; x++) {
      const g = ((y / s) | 0) * gw + ((x / s) | 0);
      if (!hole[g]) continue;
      const i = y * win.w + x;
      filled[i] = 1;
      const q = fill.from[g];
      let o = -1;
      if (q >= 0) {
        const ox = (q % gw) * s + (x % s), oy = ((q / gw) | 0) * s + (y % s);
        if (ox < win.w && oy < win.h) o = oy * win.w + ox;
      }
      if (quilted) { for (let c = 0; c < 3; c++) out[c][i] = low[c][i] + (c ? T.quiltChroma : 1) * quilted[c][i]; continue; }
      const k = grain ? grain.has[i] : 0;
      for (let c = 0; c < 3; c++) {
        const own = o >= 0 ? band[c][o] : 0;
        out[c][i] = low[c][i] + (k > 0 ? k * grain!.band[c][i] * grainSpread[c] + (1 - k) * own : own);
      }
    }
  }

  // 2. Evening. The fill's broad tone is matched to the skin just around the hole (so the fill keeps the
  // face's shading and shows no seam); the mask's soft rim (stubble shadow) moves toward that tone too.
  const rim = blurPlane(m.beard, win.w, win.h, Math.max(1, T.rim * m.faceWidth));
  const reach = new Float32Array(n);
  for (let i = 0; i < n; i++) reach[i] = Math.max(filled[i], Math.min(1, rim[i] * 2) * m.zone[i]);
  // The skin around: outside the reach, and inside it the skin seen between the hairs (pixels lighter than
  // their surroundings), which carries the chin's own shading where a beard is sparse.
  const localL = blurPlane(planes[0], win.w, win.h, Math.max(1, T.between * m.faceWidth));
  const ringW = new Float32Array(n), areaW = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const between = reach[i] * Math.min(1, Math.max(0, (planes[0][i] - localL[i] - 1) / 3));
    ringW[i] = Math.max(Math.max(m.skin[i], m.zone[i]) * (1 - reach[i]), between);
    areaW[i] = reach[i];
  }
  // The two spreads are smooth by construction, so they are taken on a grid of sigma/3 blocks and only
  // their difference is brought back to full resolution (one bilinear pass per channel).
  const sigma = T.evenSigma * m.faceWidth;
  const ring = spreadOn(ringW, win.w, win.h, sigma), area = spreadOn(areaW, win.w, win.h, sigma);
  for (let c = 0; c < 3; c++) {
    const around = ring.spread(planes[c]), here = area.spread(out[c]);
    for (let j = 0; j < around.length; j++) around[j] -= here[j];
    const delta = expand(around, ring.gw, ring.gh, win.w, win.h, ring.f);
    // Where the low band is the skin seen between the hairs it already carries the face's shading, which a
    // full evening (a masked blur of the skin around) would flatten: there it moves only part way.
    // A dense fill's membrane meets the skin around already: only the rim outside the hole is evened.
    for (let i = 0; i < n; i++) if (reach[i] > 0 && !(m.dense && filled[i])) out[c][i] += T.even * (1 - T.evenSeen * seen[i]) * reach[i] * delta[i];
  }

  // 4. Into the photo through the soft mask (the hole's own pixels fully, the rim by its weight).
  const alpha = new Float32Array(n);
  for (let i = 0; i < n; i++) alpha[i] = Math.max(filled[i] * Math.min(1, grownBeard[i] / T.holeAt), Math.min(1, rim[i] * 2) * m.zone[i]);
  if (m.dense && m.lips) restoreLips(planes, out, alpha, filled, m.lips, win, m.faceWidth, hue.a);
  // Only pixels the blend touches are converted back and written; the rest keep their exact bytes (a Lab
  // round trip may move a byte by one).
  const ch = image.channels, rgb: [number, number, number] = [0, 0, 0];
  for (let y = 0; y < win.h; y++) {
    for (let x = 0; x < win.w; x++) {
      const i = y * win.w + x, k = alpha[i];
      if (k <= 1 / 512) continue;
      mapGamut(planes[0][i] + k * (out[0][i] - planes[0][i]), planes[1][i] + k * (out[1][i] - planes[1][i]), planes[2][i] + k * (out[2][i] - planes[2][i]), rgb);
      const j = ((win.y0 + y) * image.width + win.x0 + x) * ch;
      image.data[j] = toByte(rgb[0]); image.data[j + 1] = toByte(rgb[1]); image.data[j + 2] = toByte(rgb[2]);
    }
  }
  return { hole: holeCount, workScale: s, ms: { fill: fillMs, total: performance.now() - t0 } };
}

/**
 * A dense beard's low band on the working grid (L*, a*, b*): the membrane of the face's surface around the
 * hole (skin, the neck's shadow under the jaw; lips and background are walls), solved inside and outside the
 * face's outline apart, its lightness shaded by the beard's own broad relief in log(L* + 16) (shading
 * multiplies luminance, so the relief is the same over hair and skin).
 */
function denseLow(small: Float32Array[], hole: Uint8Array, beard: Float32Array, bare: Float32Array, skin: Float32Array, inside: Float32Array | undefined, normals: NormalField | null, gw: number, gh: number, faceWidth: number): Float32Array[] {
  const T = removalTuning, n = gw * gh;
  const known = new Uint8Array(n), rim = new Uint8Array(n), interior = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (hole[i]) {
      const x = i % gw;
      const edge = (x > 0 && !hole[i - 1]) || (x < gw - 1 && !hole[i + 1]) || (i >= gw && !hole[i - gw]) || (i + gw < n && !hole[i + gw]);
      if (edge) rim[i] = 1; else interior[i] = 1;
    } else if (bare[i] > 0.5) known[i] = 1;
  }
  const side = inside && Uint8Array.from(inside, (v) => (v > 0.5 ? 1 : 0));
  const logL = Float32Array.from(small[0], (v) => Math.log(Math.max(1, v + 16)));
  const [mL, ma, mb] = membraneFill([logL, small[1], small[2]], gw, gh, hole, known, { side });
  // Inside the face's outline: the face's own light fitted on its bare skin (shading.ts) where the mesh's
  // normals are known, the fit's miss at the rim carried across by a membrane; hue as chroma over (L* + 16)
  // from the rim (shading scales both).
  const lit = normals && side ? faceLight(logL, small, hole, known, skin, side, normals, gw, gh) : null;
  // The beard's relief: its broad log lightness less that surface's own membrane from the hole's rim. Read on
  // the beard's core alone (the hole's rim is skin the mask's feather took in, which would read as relief)
  // and carried over the rest of the hole by a membrane.
  const sg = Math.max(1, T.shadeSigma * faceWidth);
  const broad = new Float32Array(n), core = new Uint8Array(n), around = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (hole[i]) { if (beard[i] > 0.5) core[i] = 1; else around[i] = 1; }
  for (const k of side ? [0, 1] : [0]) {
    const wgt = Float32Array.from(core, (v, i) => (v && (!side || side[i] === k) ? 1 : 0));
    const num = blurPlane(Float32Array.from(logL, (v, i) => v * wgt[i]), gw, gh, sg), den = blurPlane(wgt, gw, gh, sg);
    for (let i = 0; i < n; i++) if (wgt[i]) broad[i] = num[i] / Math.max(1e-6, den[i]);
  }
  let relief: Float32Array = new Float32Array(n);
  if (T.shade > 0) {
    [relief] = membraneFill([broad], gw, gh, around, core, { side });
    const [flat] = membraneFill([relief], gw, gh, interior, rim, { side });
    for (let i = 0; i < n; i++) relief[i] -= flat[i];
  }
  const L = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    if (!hole[i]) { L[i] = small[0][i]; continue; }
    const base = lit && lit.L[i] === lit.L[i] ? lit.L[i] : mL[i];
    L[i] = Math.exp(base + T.shade * relief[i]) - 16;
    if (lit && lit.L[i] === lit.L[i]) { ma[i] = lit.a[i] * (L[i] + 16); mb[i] = lit.b[i] * (L[i] + 16); }
  }
  if (side && T.belowHue > 0) {
    // Under the jaw the known surface is what lies past the beard's edge (a lit neck, often paler and
    // yellower than the face, or a collar's reflection): the membrane's colour there is grey-olive in the
    // shadow. Skin in shadow keeps its chroma over (L* + 16); the face's, read on the skin around the hole
    // inside the outline, is taken there.
    const ra: number[] = [], rb: number[] = [];
    for (let i = 0; i < n; i++) if (known[i] && side[i] === 1) { const d = small[0][i] + 16; ra.push(small[1][i] / d); rb.push(small[2][i] / d); }
    if (ra.length >= 8) {
      const med = (v: number[]) => v.sort((x, y) => x - y)[v.length >> 1];
      const sa = med(ra), sb = med(rb);
      for (let i = 0; i < n; i++) if (hole[i] && !side[i]) {
        const d = L[i] + 16;
        ma[i] += T.belowHue * (sa * d - ma[i]); mb[i] += T.belowHue * (sb * d - mb[i]);
      }
    }
  }
  return [L, ma, mb];
}

/**
 * The low band inside the face's outline from the face's own light: log(L* + 16) fitted on the sure bare
 * skin inside the outline (not the hole) as a function of the mesh's normal, plus the membrane of the fit's
 * residual from the hole's rim; a* and b* over (L* + 16) by a membrane from the rim. NaN in L where no fit
 * holds (no normal, the outline's other side, too little skin).
 */
function faceLight(logL: Float32Array, small: Float32Array[], hole: Uint8Array, known: Uint8Array, skin: Float32Array, side: Uint8Array, normals: NormalField, gw: number, gh: number): { L: Float32Array; a: Float32Array; b: Float32Array } | null {
  const T = removalTuning, n = logL.length;
  // Fitted on the face's bare surface inside the outline, lit or in shadow (sure skin alone can be a patch of
  // sunlit cheek on a side-lit face), where its hue is skin's: chroma over (L* + 16), which shading keeps,
  // near the sure skin's (the beard's edge left outside the hole is greyer).
  const ra = Float32Array.from(small[1], (v, i) => v / (small[0][i] + 16)), rb = Float32Array.from(small[2], (v, i) => v / (small[0][i] + 16));
  const ref: number[][] = [[], []];
  for (let i = 0; i < n; i++) if (skin[i] > T.sourceSkin && !hole[i]) { ref[0].push(ra[i]); ref[1].push(rb[i]); }
  if (ref[0].length < 16) return null;
  const mid = ref.map((v) => v.sort((x, y) => x - y)[v.length >> 1]);
  const dev = ref[0].map((v, k) => Math.hypot(v - mid[0], ref[1][k] - mid[1])).sort((x, y) => x - y);
  const tol = T.sourceSpread * Math.max(0.01, 1.4826 * dev[dev.length >> 1]);
  const skinHue = (i: number) => Math.hypot(ra[i] - mid[0], rb[i] - mid[1]) < tol;
  const w = Float32Array.from(skin, (_, i) => (known[i] && side[i] === 1 && skinHue(i) ? 1 : 0));
  const coef = fitShading(logL, w, normals, T.lightOrder, { huber: T.lightHuber, ridge: T.lightRidge });
  if (!coef) return null;
  const S = evalShading(coef, normals, T.lightOrder);
  // No brighter or darker than the skin it was fitted on: past the normals it saw (a chin turned to the
  // light further than any cheek) a fit extrapolates.
  const seen: number[] = [];
  for (let i = 0; i < n; i++) if (w[i] > 0) seen.push(logL[i]);
  seen.sort((x, y) => x - y);
  const lo = seen[Math.floor(T.lightRange * seen.length)], hi = seen[Math.floor((1 - T.lightRange) * (seen.length - 1))];
  for (let i = 0; i < n; i++) if (S[i] === S[i]) S[i] = Math.min(hi, Math.max(lo, S[i]));
  const unknown = new Uint8Array(n), rim = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (side[i] !== 1 || S[i] !== S[i]) continue;
    if (hole[i]) unknown[i] = 1; else if (known[i]) rim[i] = 1;
  }
  const miss = Float32Array.from(logL, (v, i) => (rim[i] ? v - S[i] : 0));
  const [m] = membraneFill([miss], gw, gh, unknown, rim);
  // The hue from the rim's skin-coloured pixels alone (the beard's edge left outside the hole is grey and
  // would carry a grey sheen in); the rest of the rim is a wall.
  const skinRim = Uint8Array.from(rim, (r, i) => (r && skinHue(i) ? 1 : 0));
  const [a, b] = membraneFill([ra, rb], gw, gh, unknown, skinRim);
  const L = new Float32Array(n).fill(NaN);
  for (let i = 0; i < n; i++) if (unknown[i]) L[i] = S[i] + m[i];
  return { L, a, b };
}

/**
 * The planes cut to the beard's box grown by `margin` pixels (the skin a fill copies from and the evening
 * reads lies within a few tenths of a face of it); null when the mask holds no beard.
 */
function aroundBeard(m: BeardPlanes, margin: number): BeardPlanes | null {
  const { win } = m;
  let x0 = win.w, y0 = win.h, x1 = -1, y1 = -1;
  for (let y = 0; y < win.h; y++) for (let x = 0; x < win.w; x++) {
    if (m.beard[y * win.w + x] <= removalTuning.holeAt) continue;
    if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
  }
  if (x1 < 0) return null;
  const g = Math.round(margin);
  x0 = Math.max(0, x0 - g); y0 = Math.max(0, y0 - g); x1 = Math.min(win.w - 1, x1 + g); y1 = Math.min(win.h - 1, y1 + g);
  const w = x1 - x0 + 1, h = y1 - y0 + 1;
  const cut = (p: Float32Array) => { const o = new Float32Array(w * h); for (let y = 0; y < h; y++) o.set(p.subarray((y0 + y) * win.w + x0, (y0 + y) * win.w + x0 + w), y * w); return o; };
  return { win: { x0: win.x0 + x0, y0: win.y0 + y0, w, h }, faceWidth: m.faceWidth, beard: cut(m.beard), skin: cut(m.skin), zone: cut(m.zone), dense: m.dense, inside: m.inside && cut(m.inside), bare: m.bare && cut(m.bare), lips: m.lips && { upper: cut(m.lips.upper), lower: cut(m.lips.lower), opening: cut(m.lips.opening) }, grain: m.grain, mesh: m.mesh };
}

/**
 * The plane's mean over `weight`, locally (a masked blur at sigma), carried into places no weight is near
 * by the same at 3 and 9 times sigma: a push-pull spread, so a wide hole's middle takes the tone of the
 * skin around it rather than its own. Taken on a grid of blocks about sigma/3 wide (`f` pixels, shrink's
 * grid: expand brings a grid plane back); the weight's blurs are shared by every plane spread over it.
 */
function spreadOn(weight: Float32Array, w: number, h: number, sigma: number) {
  const f = Math.max(1, Math.floor(sigma / 3));
  const gw = Math.ceil(w / f), gh = Math.ceil(h / f);
  // The blocks' own averaging adds a variance of f^2 / 12 per axis.
  const sigmas = [9, 3, 1].map((k) => Math.sqrt(Math.max(0, (k * sigma) ** 2 - (f * f) / 12)) / f);
  const dens = sigmas.map((sg) => blurPlane(shrink(weight, w, h, f, gw, gh), gw, gh, sg));
  const spread = (plane: Float32Array): Float32Array => {
    const pw = new Float32Array(plane.length);
    for (let i = 0; i < pw.length; i++) pw[i] = plane[i] * weight[i];
    const pwSmall = shrink(pw, w, h, f, gw, gh), out = shrink(plane, w, h, f, gw, gh);
    const nums = sigmas.map((sg) => blurPlane(pwSmall, gw, gh, sg));
    for (let j = 0; j < out.length; j++) {
      // From the widest to the narrowest: each narrower level takes over as the weight within its reach grows.
      let v = out[j], seen = false;
      for (let k = 0; k < 3; k++) {
        const den = dens[k][j];
        if (den <= 1e-4) continue;
        const m = nums[k][j] / den;
        if (!seen) { v = m; seen = true; continue; }
        v += Math.min(1, den / 0.15) * (m - v);
      }
      out[j] = v;
    }
    return out;
  };
  return { f, gw, gh, spread };
}
