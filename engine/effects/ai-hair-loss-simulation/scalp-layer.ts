/**
 * What shows where hair goes, as Lab planes over the window: inside the bald head's outline the scalp
 * (scalp.ts's dome, lit and coloured as the forehead is, meeting the skin without a seam), outside it the
 * backdrop, mirrored in from beyond the person's outline or pushed in smooth with its own grain.
 */
import { labToLinear, linearToLab } from '../../image/colour.ts';
import { blurPlane, maskedBlur } from '../../image/frequency.ts';
import { dilatePlane } from '../../image/morphology.ts';
import { fitPlane } from '../../image/plane-fit.ts';
import type { Rect } from '../../image/rect.ts';
import { fromHead, SKULL, type HeadFrame } from './hairline.ts';
import type { HairMaps } from './hair-maps.ts';
import { headReach, type HeadShape } from './head-shape.ts';
import { backgroundGrain, scalpTexture } from './grain.ts';
import { domeDiffuse, domeLight, domeNormal, domeShade, domeSheen, fitDomeShade, harmonicFill, mirrorFill, pushPull } from './scalp.ts';
import {
  ANY_SKIN_SAMPLE, BACKDROP_LEAST, BACKGROUND_SURE, BANGS_MEMBRANE, CAP_KNEE, COLOUR_SLOPE, FOREHEAD_SAMPLE, FRINGE_REACH, HAIR_FIRM, HAIR_LIKE, HAIR_SOME, HIGHLIGHT, MEMBRANE_SWEEPS,
  MIRROR_MATCH, MIRROR_REACH, NO_HAIR, PERSON_MARGIN, RIM, SAMPLE_HAIR, SEAM_FROM, SEAM_SIGMA, SEAM_UNTOUCHED, SHADE_WIDEN, SHEEN_GAIN, SHEEN_RANGE, SHEEN_SKIN, SKIN, UNDER_HAIR_SHADE, UPPER_FOREHEAD,
} from './tuning.ts';

/**
 * What shows where hair goes, as Lab planes over the window: inside the skull the scalp (forehead colour
 * and light, the light the hair itself was in, dome shading, sheen, forehead texture), outside it the
 * background filled in. Null when no forehead or other skin is visible to make a scalp from.
 */
export function scalpLayer(L: Float32Array, A: Float32Array, B: Float32Array, U: Float32Array, V: Float32Array, win: Rect, f: HeadFrame, shape: HeadShape, head: Float32Array, maps: HairMaps, lost: Float32Array, shadowed: Float32Array, gone: Float32Array, seed: number, bangs = false, series: 'man' | 'woman' = 'man'): Float32Array[] | null {
  const n = win.w * win.h, fw = 2 * f.halfWidth, top = shape.top;
  const normalAt = (i: number) => domeNormal(U[i], V[i], top, SHADE_WIDEN * headReach(shape, U[i], V[i])[0], shape.skull);
  // The terminator: the dome darkens toward the head's own outline (its radius against the outline, not the
  // widened ellipsoid the forehead's fit is read on), as a bald head turning from the camera does; without
  // it the dome was lit evenly to its silhouette and read as a flat sticker.
  // How deep: as much darker as this face's own skin is near its outline (cheeks and temples) than on its
  // forehead, the same light turning the same way, within RIM's bounds.
  const band = [0, 0, 0, 0];
  for (let i = 0; i < n; i++) {
    if (maps.skin[i] < SKIN || maps.hair[i] >= SAMPLE_HAIR) continue;
    const du = Math.abs(U[i] - f.mid), y = ((L[i] + 16) / 116) ** 3;
    if (du >= RIM.edge[0] && du <= RIM.edge[1] && V[i] >= RIM.edgeV[0] && V[i] <= RIM.edgeV[1]) { band[0] += y; band[1]++; }
    else if (du <= FOREHEAD_SAMPLE.u && V[i] >= FOREHEAD_SAMPLE.v0 && V[i] <= FOREHEAD_SAMPLE.v1) { band[2] += y; band[3]++; }
  }
  const depth = band[1] >= RIM.least && band[3] >= RIM.least ? Math.max(RIM.depth[0], Math.min(RIM.depth[1], 1 - (band[0] / band[1]) / (band[2] / band[3]))) : RIM.depth[0];
  const rimAt = (i: number) => {
    const nn = domeNormal(U[i], V[i], top, headReach(shape, U[i], V[i])[0], shape.skull), r = Math.hypot(nn[0], nn[1]);
    const t = Math.max(0, Math.min(1, (r - RIM.from) / (1 - RIM.from)));
    return 1 - depth * t * t * (3 - 2 * t);
  };
  // Forehead skin, else any skin of this face.
  const pick = (vMin: number, vMax: number, uMax: number) => {
    const m = new Float32Array(n);
    let count = 0;
    for (let i = 0; i < n; i++) {
      if (maps.skin[i] >= SKIN && maps.hair[i] < SAMPLE_HAIR && V[i] >= vMin && V[i] <= vMax && Math.abs(U[i] - f.mid) <= uMax) { m[i] = 1; count++; }
    }
    return { m, count };
  };
  let sample = pick(FOREHEAD_SAMPLE.v0, FOREHEAD_SAMPLE.v1, FOREHEAD_SAMPLE.u);
  const forehead = sample.count >= FOREHEAD_SAMPLE.least;
  if (!forehead) sample = pick(ANY_SKIN_SAMPLE.v0, ANY_SKIN_SAMPLE.v1, ANY_SKIN_SAMPLE.u);
  if (sample.count < ANY_SKIN_SAMPLE.least) return null;
  const sigma = Math.max(2, SEAM_SIGMA * fw);
  // The forehead in linear light: its mean colour, and its luminance against the dome's normals, whose
  // plane gives the light's direction across the face.
  const nx: number[] = [], ny: number[] = [], lum: number[] = [], raw: number[] = [];
  const rgb: [number, number, number] = [0, 0, 0], mean = [0, 0, 0], chan: number[][] = [[], [], []], upper = [0, 0, 0];
  let upperCount = 0;
  for (let i = 0; i < n; i++) {
    if (!sample.m[i]) continue;
    labToLinear(L[i], A[i], B[i], rgb);
    const nn = normalAt(i);
    nx.push(nn[0]); ny.push(nn[1]);
    lum.push(0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]);
    for (let c = 0; c < 3; c++) { mean[c] += rgb[c]; chan[c].push(rgb[c]); }
    raw.push(L[i]);
    if (V[i] >= UPPER_FOREHEAD.v) { for (let c = 0; c < 3; c++) upper[c] += rgb[c]; upperCount++; }
  }
  for (let c = 0; c < 3; c++) mean[c] /= nx.length;
  // The dome's hue is the upper forehead's, the skin nearest the scalp (the lower forehead, between the
  // brows and round the glasses, is redder), at the whole forehead's level: the dome's chromaticity is that,
  // its light the forehead's, each channel in proportion (COLOUR_SLOPE 1: the regression of the channels
  // on the light carried the shade's redness over a dome darker than the forehead, an orange cast).
  if (upperCount >= UPPER_FOREHEAD.least) {
    const y0 = 0.2126 * mean[0] + 0.7152 * mean[1] + 0.0722 * mean[2], y1 = 0.2126 * upper[0] + 0.7152 * upper[1] + 0.0722 * upper[2];
    if (y1 > 0) for (let c = 0; c < 3; c++) mean[c] = (upper[c] * y0) / y1;
  }
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
  // The dome's diffuse light: the forehead's own shading fitted over the normals and carried round the dome,
  // else (too few samples to pin it down) the Lambertian sphere under the fitted light.
  const fitted = fitDomeShade(nx, ny, lum.map((y) => y / Math.max(1e-6, meanY)));
  const diffuse = (nn: readonly number[]) => (fitted ? domeShade(nn, fitted) : domeDiffuse(nn, light));
  // Each channel against the light the forehead's normals get (least squares, its slope kept within half
  // and twice the proportional one): the dome's lit front and its turned-away sides as bright, and as
  // saturated, as the forehead's are at the same light.
  const dl = nx.map((x, k) => diffuse([x, ny[k], Math.sqrt(Math.max(0, 1 - x * x - ny[k] * ny[k]))]));
  const dMean = dl.reduce((p, q) => p + q, 0) / dl.length;
  let dd = 0;
  for (const d of dl) dd += (d - dMean) ** 2;
  const colour = mean.map((m, c) => {
    let dz = 0;
    for (let k = 0; k < dl.length; k++) dz += (dl[k] - dMean) * (chan[c][k] - m);
    const prop = m / dMean, slope = Math.max(COLOUR_SLOPE.least * prop, Math.min(COLOUR_SLOPE.most * prop, dd > 1e-9 ? dz / dd : prop));
    return [m - slope * dMean, slope];
  });
  // Never under half the proportional colour: a slope steeper than proportional would take a dark rim's
  // channels below zero (black, with a coloured fringe where one channel clips first).
  // Past the light the forehead itself spans, the colour goes on in proportion (its chroma kept): the
  // regression's slope carried into the dome's deeper shade drew a saturated orange rim.
  let dLo = Infinity, dHi = -Infinity;
  for (const d of dl) { dLo = Math.min(dLo, d); dHi = Math.max(dHi, d); }
  const shaded = (d: number, c: number) => {
    const e = Math.max(dLo, Math.min(dHi, d));
    return (Math.max(colour[c][0] + colour[c][1] * e, (0.5 * mean[c] * e) / dMean) * d) / Math.max(1e-6, e);
  };
  raw.sort((p, q) => p - q);
  const cap = raw[Math.floor(HIGHLIGHT * raw.length)];
  // The sheen: as bright over the diffuse light as the forehead's highlights are over its mean, in the
  // colour the forehead's own highlights have over its mean (the light's colour as the photo shows it: a
  // white sheen over skin under warm light took its yellow away and read pink).
  const sorted = [...lum].sort((p, q) => p - q), hiY = sorted[Math.floor(HIGHLIGHT * sorted.length)];
  const sheen = Math.max(SHEEN_RANGE.least, Math.min(SHEEN_RANGE.most, hiY - meanY)) * SHEEN_GAIN;
  const hi = [0, 0, 0];
  let hiCount = 0;
  for (let k = 0; k < lum.length; k++) if (lum[k] >= hiY) { for (let c = 0; c < 3; c++) hi[c] += chan[c][k]; hiCount++; }
  const hiSum = 0.2126 * hi[0] + 0.7152 * hi[1] + 0.0722 * hi[2];
  // Its tint: the highlights' colour less the mean's share of it (what the gloss adds), unit luminance;
  // white where that is not measurable.
  const tint = [1, 1, 1];
  if (hiCount && hiSum > 0) {
    const excess = hi.map((h, c) => Math.max(0, h / hiCount - mean[c])), ey = 0.2126 * excess[0] + 0.7152 * excess[1] + 0.0722 * excess[2];
    if (ey > 1e-4) for (let c = 0; c < 3; c++) tint[c] = (1 - SHEEN_SKIN) * (excess[c] / ey) + SHEEN_SKIN * (mean[c] / meanY);
  }
  const texture = scalpTexture(L, sample.m, forehead, win, fw, seed);

  const outL = new Float32Array(n), outA = new Float32Array(n), outB = new Float32Array(n);
  const lab = { l: 0, a: 0, b: 0 };
  // The dome at normal nn, `k` its shade under standing hair; the same model the skin it meets is compared
  // with below, sheen included (else the sheen steps up where the scalp begins).
  const model = (nn: [number, number, number], k: number, out: typeof lab) => {
    const d = diffuse(nn), sp = sheen * domeSheen(nn, light);
    linearToLab(shaded(d, 0) * k + sp * tint[0], shaded(d, 1) * k + sp * tint[1], shaded(d, 2) * k + sp * tint[2], out);
  };
  // A woman's scalp shows between strands on top of the head, which faces the light: lit as the forehead
  // is (its mean normal), not as the bald dome's side turned from the camera, whose shade on blonde hair is
  // the hair's own tone and showed nothing.
  let fx = 0, fy = 0;
  for (let k = 0; k < nx.length; k++) { fx += nx[k]; fy += ny[k]; }
  fx /= nx.length; fy /= nx.length;
  const lit: [number, number, number] = [fx, fy, Math.sqrt(Math.max(0, 1 - fx * fx - fy * fy))];
  for (let i = 0; i < n; i++) {
    if (lost[i] <= 0 && shadowed[i] <= 0) continue;
    const nn = series === 'woman' && maps.hair[i] >= HAIR_SOME ? lit : normalAt(i);
    // Scalp seen between remaining strands lies in their shade; bare scalp does not.
    const k = maps.hair[i] >= HAIR_SOME ? 1 - UNDER_HAIR_SHADE[series] * (1 - lost[i]) : 1;
    model(nn, k, lab);
    outL[i] = lab.l; outA[i] = lab.a; outB[i] = lab.b;
  }
  // The seam: the model's colour is moved to meet the skin it borders (the forehead, temples, the ears),
  // by the difference there carried over the scalp as a membrane (harmonicFill), as a Poisson blend does:
  // the dome keeps the model's light and shape, and meets the skin without a seam.
  const skinWeight = new Float32Array(n);
  // The skin that stays as it is (the scalp meets it where the edit's weight `gone` starts).
  for (let i = 0; i < n; i++) if (maps.skin[i] >= 0.5 && maps.hair[i] < HAIR_FIRM && V[i] >= SEAM_FROM && gone[i] < SEAM_UNTOUCHED) skinWeight[i] = 1;
  const skinL = maskedBlur(L, skinWeight, win.w, win.h, sigma), skinA = maskedBlur(A, skinWeight, win.w, win.h, sigma), skinB = maskedBlur(B, skinWeight, win.w, win.h, sigma);
  const dL = new Float32Array(n), dA = new Float32Array(n), dB = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    if (!skinWeight[i]) continue;
    model(normalAt(i), 1, lab);
    dL[i] = skinL[i] - lab.l; dA[i] = skinA[i] - lab.a; dB[i] = skinB[i] - lab.b;
  }
  const [fL, fA, fB] = harmonicFill([dL, dA, dB], skinWeight, win.w, win.h, MEMBRANE_SWEEPS, bangs ? BANGS_MEMBRANE * fw : Infinity);
  // The terminator goes on after the seam's membrane (which would carry the temples' skin over it and undo
  // it), faded in away from the skin the scalp meets, as a scale of the light (Lab's L + 16, a* and b* by
  // its cube root: the dome's chromaticity kept).
  const nearSkin = blurPlane(skinWeight, win.w, win.h, Math.max(2, RIM.seam * fw));
  for (let i = 0; i < n; i++) {
    if (lost[i] <= 0 && shadowed[i] <= 0) continue;
    const rim = series === 'woman' && maps.hair[i] >= HAIR_SOME ? 1 : 1 - (1 - rimAt(i)) * Math.max(0, 1 - RIM.seamFull * nearSkin[i]);
    const c = Math.cbrt(rim);
    // Never lighter than the forehead's own highlights: past them an overexposed forehead's scalp would
    // leave the gamut and come back white. Rolled off into them, so the dome's shading stays.
    outL[i] = (softCap(outL[i] + fL[i], cap, CAP_KNEE) + 16) * c - 16 + texture[i];
    outA[i] = (outA[i] + fA[i]) * c; outB[i] = (outB[i] + fB[i]) * c;
  }
  // Outside the skull: the background, pushed in from the pixels the parsing calls background, away from
  // the hair's fringe (whose wisps would come back as a halo), with the background's own grain.
  const nearHair = new Float32Array(n);
  for (let i = 0; i < n; i++) if (maps.hair[i] >= HAIR_SOME) nearHair[i] = 1;
  const reach = dilatePlane(nearHair, win.w, win.h, Math.max(2, Math.round(FRINGE_REACH * fw)));
  // Hair the parsing missed (dark hair cut by the photo's edge, taken for a dark backdrop) must not be
  // pushed back in: nothing the colour of the hair that goes is a source.
  let hl = 0, ha = 0, hb = 0, hc = 0;
  for (let i = 0; i < n; i++) if (maps.hair[i] >= HAIR_FIRM && lost[i] > 0) { hl += L[i]; ha += A[i]; hb += B[i]; hc++; }
  if (hc) { hl /= hc; ha /= hc; hb /= hc; }
  const bgWeight = new Float32Array(n), bgLoose = new Float32Array(n);
  let bgCount = 0, looseCount = 0;
  if (maps.person) {
    // With the person matte: what is not the person, a little away from its edge, whatever its colour
    // (a dark backdrop like the hair is still the backdrop, and the nearest one).
    const onPerson = new Float32Array(n);
    // (The matte and the parsing fade out slowly over a bright backdrop: their halves, not their tails.)
    for (let i = 0; i < n; i++) if (maps.person[i] >= 0.5 || maps.hair[i] >= 0.5) onPerson[i] = 1;
    const nearPerson = dilatePlane(onPerson, win.w, win.h, Math.max(2, Math.round(PERSON_MARGIN * fw)));
    for (let i = 0; i < n; i++) if (!nearPerson[i]) { bgWeight[i] = 1; bgCount++; }
  }
  for (let i = 0; i < n; i++) {
    if (maps.background[i] < BACKGROUND_SURE || maps.hair[i] >= NO_HAIR) continue;
    bgLoose[i] = 1; looseCount++;
    if (maps.person) continue;
    const hairLike = hc > 0 && (L[i] - hl) ** 2 + (A[i] - ha) ** 2 + (B[i] - hb) ** 2 < HAIR_LIKE ** 2;
    if (!reach[i] && !hairLike) { bgWeight[i] = 1; bgCount++; }
  }
  const source = bgCount >= BACKDROP_LEAST ? bgWeight : bgLoose;
  if (Math.max(bgCount, looseCount) < BACKDROP_LEAST) return [outL, outA, outB];
  const [fl, fa, fb] = pushPull([L, A, B], source, win.w, win.h);
  const grain = backgroundGrain(L, source, win, seed);
  const need = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (head[i] < 1 && (lost[i] > 0 || shadowed[i] > 0)) need[i] = 1;
  const [cx, cy] = fromHead(f, shape.skull.u0, SKULL.v0);
  const [ml, ma, mb] = mirrorFill([L, A, B], source, need, win.w, win.h, cx - win.x0, cy - win.y0, Math.round(MIRROR_REACH * fw));
  for (let i = 0; i < n; i++) {
    const k = head[i];
    if (k >= 1) continue;
    // The mirrored backdrop where it is like the backdrop's smooth fill there (a stripe of something else
    // reflected in would show as a copy).
    const mirrored = !Number.isNaN(ml[i]) && Math.abs(ml[i] - fl[i]) < MIRROR_MATCH && Math.abs(ma[i] - fa[i]) + Math.abs(mb[i] - fb[i]) < MIRROR_MATCH;
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
