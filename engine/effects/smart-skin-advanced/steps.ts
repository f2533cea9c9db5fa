/**
 * Steps of the advanced skin retouch: the flags read into one plan (docs/interface.md#smart-skin-retouch,
 * rules 1 and 2) → the 5 largest faces → each face retouched in its own window, on its skin only
 * (skin-mask.ts: parsing skin without eyes, brows, lips, nostrils, hair or glasses) → the photo (JPEG 97 4:4:4 when opaque, so
 * re-encoding moves nothing outside the faces by more than a few levels).
 *
 * Per face, in Lab: blemishes healed (acne: red bumps; spots: dark ones) and larger patches and lines
 * evened (spots, scars), the under-eyes lifted toward the cheeks, wrinkles filled part way, the pore band
 * and T-zone shine lowered; then, in RGB, edge-aware smoothing with pores restored and Lab brightening.
 */
import type endpoint from '../../../contract/endpoints/smart-skin-advanced.ts';
import type { Params } from '../../../contract/endpoint.ts';
import { encodePhoto } from '../../image/encode.ts';
import { type Mask } from '../../image/mask.ts';
import type { RasterImage } from '../../image/raster.ts';
import { labToRgb, toLab } from '../../image/colour.ts';
import { blurCoarse, blurPlane, maskedBlur } from '../../image/frequency.ts';
import type { Rect } from '../../image/rect.ts';
import { healSpots } from './heal.ts';
import { valleyDepth, valleyness } from './ridges.ts';
import { faceEps, faceShapeBand, sizeRamp, smoothMasked } from '../../looks/smooth.ts';
import { whitenSkin } from '../../looks/tone.ts';
import type { Step } from '../../pipeline/effect.ts';
import { eachFace, keepOccluders, selectFaces, type PortraitState } from '../../pipeline/portrait.ts';
import type { Face } from '../../vision/faces/detect.ts';
import type { FaceParsing } from '../../vision/parsing/face-parsing.ts';
import { faceRegions } from '../../vision/regions/face-regions.ts';
import { feather } from '../../image/feather.ts';
import { retouchMasks, retouchWindow, spareLowerFace } from '../../vision/regions/skin-mask.ts';
import { findBlemishes, pixelsPerMm, type Blemish } from './blemishes.ts';
import { readWindow, writeWindow } from '../../image/window.ts';
import { FULL, SKIN_FACES, SMART, SURE, TUNING, type Plan } from './tuning.ts';

export type P = Params<typeof endpoint>;

export interface Retouched {
  /** The result pixels, a copy of the input edited face by face. */
  result: RasterImage;
}

const FLAGS = ['acne_removal', 'spot_correction', 'skin_brightening', 'skin_smoothing', 'pore_control', 'wrinkle_reduction', 'under_eye_correction', 'scar_reduction'] as const;
const PART: Record<(typeof FLAGS)[number], keyof Plan> = {
  acne_removal: 'acne', spot_correction: 'spots', skin_brightening: 'brighten', skin_smoothing: 'smooth',
  pore_control: 'pores', wrinkle_reduction: 'wrinkles', under_eye_correction: 'underEye', scar_reduction: 'scars',
};

/** Rule 1: smart_skin = 1 overrides the rest. Rule 2: no other flag set → smart_skin. */
export function planOf(p: Partial<P>): Plan {
  const on = FLAGS.filter((f) => Number(p[f] ?? 0) === 1);
  if (Number(p.smart_skin ?? 0) === 1 || on.length === 0) return { ...SMART };
  const plan: Plan = { acne: 0, spots: 0, brighten: 0, smooth: 0, pores: 0, wrinkles: 0, underEye: 0, scars: 0 };
  for (const f of on) plan[PART[f]] = FULL[PART[f]];
  return plan;
}

export const findFaces = selectFaces<P>(() => ({ count: SKIN_FACES, detect: { meshFaces: SKIN_FACES } }));

/** A full-resolution mask's window, 0..1. */
function crop(mask: Mask | undefined, win: Rect): Float32Array {
  const out = new Float32Array(win.w * win.h);
  if (!mask) return out;
  for (let y = 0; y < win.h; y++) for (let x = 0; x < win.w; x++) out[y * win.w + x] = mask.data[(win.y0 + y) * mask.width + win.x0 + x] / 255;
  return out;
}

/** Soft capsule (distance to segment a-b below r) added into out with max(). */
function capsule(out: Float32Array, win: Rect, a: readonly number[], b: readonly number[], r: number): void {
  const x0 = Math.max(0, Math.floor(Math.min(a[0], b[0]) - r - win.x0)), x1 = Math.min(win.w - 1, Math.ceil(Math.max(a[0], b[0]) + r - win.x0));
  const y0 = Math.max(0, Math.floor(Math.min(a[1], b[1]) - r - win.y0)), y1 = Math.min(win.h - 1, Math.ceil(Math.max(a[1], b[1]) + r - win.y0));
  const vx = b[0] - a[0], vy = b[1] - a[1], len2 = vx * vx + vy * vy || 1;
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) {
    const px = win.x0 + x - a[0], py = win.y0 + y - a[1];
    const t = Math.max(0, Math.min(1, (px * vx + py * vy) / len2));
    const d = Math.hypot(px - t * vx, py - t * vy);
    if (d < r) out[y * win.w + x] = Math.max(out[y * win.w + x], 1);
  }
}

/**
 * Where wrinkles are softened: the forehead, the glabella between the brows, crow's feet beyond the outer
 * eye corners, and the nasolabial folds from the nose wings past the mouth corners (mesh points).
 */
function wrinkleZones(mesh: readonly (readonly number[])[], forehead: Float32Array, win: Rect, fw: number): Float32Array {
  const z = Float32Array.from(forehead);
  const at = (i: number) => mesh[i];
  const lerp = (p: readonly number[], q: readonly number[], t: number) => [p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t];
  // Glabella: the mid-forehead point between the brows (9), down toward the nose bridge (168).
  capsule(z, win, at(9), lerp(at(9), at(168), 0.6), 0.08 * fw);
  // Crow's feet: outward from the outer corner (33 right, 263 left), along inner → outer corner.
  for (const [outer, inner] of [[33, 133], [263, 362]]) {
    const o = at(outer), i = at(inner), d = Math.hypot(o[0] - i[0], o[1] - i[1]) || 1;
    const u = [(o[0] - i[0]) / d, (o[1] - i[1]) / d];
    capsule(z, win, [o[0] + u[0] * 0.05 * fw, o[1] + u[1] * 0.05 * fw], [o[0] + u[0] * 0.12 * fw, o[1] + u[1] * 0.12 * fw], 0.07 * fw);
  }
  // Nasolabial folds: nose wing (129 right, 358 left) to beside the mouth corner (61, 291), pushed outward.
  for (const [wing, corner] of [[129, 61], [358, 291]]) {
    const c = at(corner), wpt = at(wing), mid = at(1);
    const side = Math.sign(c[0] - mid[0]) || 1;
    capsule(z, win, [wpt[0] + side * 0.02 * fw, wpt[1]], [c[0] + side * 0.04 * fw, c[1] + 0.03 * fw], 0.05 * fw);
  }
  return feather(z, win, 0.02 * fw);
}

/** Mean of a plane over the pixels where `w` ≥ 0.5. */
function meanOver(p: Float32Array, w: Float32Array): number {
  let s = 0, n = 0;
  for (let i = 0; i < p.length; i++) if (w[i] >= 0.5) { s += p[i]; n++; }
  return n ? s / n : NaN;
}

/**
 * Pulls blemish components toward the skin around them (their own grain, finer than grainMm, kept):
 * plane += k x mask x (skinAround - broad(plane)), for L, a and b.
 */
function evenOut(planes: Float32Array[], comps: Blemish[], skin: Float32Array, w: number, h: number, mm: number, k: number): void {
  if (k <= 0 || comps.length === 0) return;
  const e = TUNING.even;
  const hard = new Float32Array(w * h);
  for (const c of comps) for (const i of c.pixels) hard[i] = 1;
  const grown = blurPlane(hard, w, h, e.growMm * mm);
  const mask = new Float32Array(w * h), around = new Float32Array(w * h);
  for (let i = 0; i < mask.length; i++) { mask[i] = Math.min(1, 2 * grown[i]) * skin[i]; around[i] = skin[i] * (1 - Math.min(1, 4 * grown[i])); }
  for (const p of planes) {
    const ref = maskedBlur(p, around, w, h, e.skinMm * mm), broad = blurPlane(p, w, h, e.grainMm * mm);
    for (let i = 0; i < p.length; i++) if (mask[i] > 0) p[i] += k * e.amount * mask[i] * (ref[i] - broad[i]);
  }
}

export interface FaceReport { healed: number; spots: number; patches: number; lines: number }

/** One face's retouch over the pixels of `win` (interleaved, `ch` channels), in place. */
export function retouchFace(px: Uint8Array | Buffer, ch: number, face: Face, parsing: FaceParsing, win: Rect, image: { width: number; height: number }, plan: Plan): FaceReport {
  const masks = retouchMasks(face, parsing, win);
  spareLowerFace(masks, face, sizeRamp(masks.faceWidth, TUNING.lowerFace.fromWidth, TUNING.lowerFace.toWidth));
  // The skin work runs over the skin's bounding box only (a third to a half of the window); brightening
  // also takes the neck and ears, so it runs over the window.
  const box = boundingBox(masks.skin, win);
  let report: FaceReport = { healed: 0, spots: 0, patches: 0, lines: 0 };
  if (box) {
    const sub = readBox(px, ch, win, box);
    const soft = cropPlane(masks.skin, win, box);
    report = retouchSkin(sub, ch, face, box, firm(soft), soft, masks.faceWidth, image, plan);
    writeBox(px, ch, win, box, sub);
  }
  if (plan.brighten > 0) {
    const b = TUNING.brighten;
    whitenSkin(px, ch, win.w, win.h, masks.tone, { strength: plan.brighten, lift: b.lift, even: b.even, toneSigma: b.toneSigma * masks.faceWidth });
  }
  return report;
}

export const firm = (p: Float32Array): Float32Array => p.map((v) => Math.min(1, v / SURE));

/** The box (image coordinates) around the pixels of `win` where `p` > 0, or null when there are none. */
function boundingBox(p: Float32Array, win: Rect): Rect | null {
  let x0 = win.w, y0 = win.h, x1 = -1, y1 = -1;
  for (let y = 0; y < win.h; y++) for (let x = 0, i = y * win.w; x < win.w; x++, i++) {
    if (p[i] <= 0) continue;
    if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
  }
  return x1 < 0 ? null : { x0: win.x0 + x0, y0: win.y0 + y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
}
function cropPlane(p: Float32Array, win: Rect, box: Rect): Float32Array {
  const out = new Float32Array(box.w * box.h);
  for (let y = 0; y < box.h; y++) { const s = (box.y0 - win.y0 + y) * win.w + box.x0 - win.x0; out.set(p.subarray(s, s + box.w), y * box.w); }
  return out;
}
function readBox(px: Uint8Array, ch: number, win: Rect, box: Rect): Buffer {
  const out = Buffer.alloc(box.w * box.h * ch);
  for (let y = 0; y < box.h; y++) { const s = ((box.y0 - win.y0 + y) * win.w + box.x0 - win.x0) * ch; out.set(px.subarray(s, s + box.w * ch), y * box.w * ch); }
  return out;
}
function writeBox(px: Uint8Array, ch: number, win: Rect, box: Rect, sub: Uint8Array): void {
  for (let y = 0; y < box.h; y++) px.set(sub.subarray(y * box.w * ch, (y + 1) * box.w * ch), ((box.y0 - win.y0 + y) * win.w + box.x0 - win.x0) * ch);
}

/** The skin part of the retouch over `win` (the skin's box): everything but brightening. */
function retouchSkin(px: Uint8Array | Buffer, ch: number, face: Face, win: Rect, skin: Float32Array, softSkin: Float32Array, fw: number, image: { width: number; height: number }, plan: Plan): FaceReport {
  const t = TUNING, { w, h } = win, n = w * h;
  const mesh = face.mesh!;
  const mm = pixelsPerMm(mesh, fw);
  const report: FaceReport = { healed: 0, spots: 0, patches: 0, lines: 0 };
  const lab = toLab({ data: px, width: w, height: h, channels: ch });
  const { L, a: A, b: B } = lab;
  const planes = [L, A, B];
  let labChanged = false;

  if (plan.acne > 0 || plan.spots > 0 || plan.scars > 0) {
    const found = findBlemishes(L, A, skin, w, h, mm);
    const heal = found.spots.filter((s) => (s.kind === 'red' ? plan.acne : plan.spots) > 0);
    report.spots = heal.length;
    const allowed = Float32Array.from(skin, (v) => (v >= 0.95 ? 1 : 0));
    report.healed = healSpots(planes, w, h, heal.map((s) => ({ x: s.x, y: s.y, r: Math.max(t.spotReach * s.r, t.spotMinRadiusMm * mm) })), { allowed, weight: skin });
    // Spots too large to heal, and lines: evened by spot correction (patches) and scar reduction (both).
    const patches = found.patches.filter((p) => plan.spots > 0 || plan.scars > 0);
    evenOut(planes, patches, skin, w, h, mm, Math.max(plan.spots, plan.scars));
    evenOut(planes, found.lines, skin, w, h, mm, plan.scars);
    report.patches = patches.length; report.lines = plan.scars > 0 ? found.lines.length : 0;
    labChanged = true;
  }

  const needRegions = plan.underEye > 0 || plan.wrinkles > 0 || plan.pores > 0;
  const regions = needRegions ? faceRegions(face, image, undefined, ['leftUnderEye', 'rightUnderEye', 'leftCheek', 'rightCheek', 'forehead', 'tZone']) : {};

  if (plan.underEye > 0) {
    const u = t.underEye, tone = [L, A, B].map((p) => blurCoarse(p, w, h, u.toneMm * mm));
    for (const [eye, cheek] of [['leftUnderEye', 'leftCheek'], ['rightUnderEye', 'rightCheek']] as const) {
      const under = crop(regions[eye], win), ch2 = crop(regions[cheek], win);
      const ref = ch2.map((v, i) => v * (skin[i] >= 0.9 ? 1 : 0));
      const target = [meanOver(L, ref), meanOver(A, ref), meanOver(B, ref)];
      if (target.some((v) => !Number.isFinite(v))) continue;
      const fade = Math.min(1, (u.toneMm * mm) / u.fullPx);
      for (let i = 0; i < n; i++) {
        const k = under[i] * skin[i] * plan.underEye * fade;
        if (k <= 0) continue;
        // Only lifted: an under-eye already as light as the cheek stays as it is.
        L[i] += k * u.light * Math.max(0, target[0] - tone[0][i]);
        A[i] += k * u.colour * (target[1] - tone[1][i]);
        B[i] += k * u.colour * (target[2] - tone[2][i]);
      }
    }
    labChanged = true;
  }

  if (plan.wrinkles > 0) {
    const z = t.wrinkles, zones = wrinkleZones(mesh, crop(regions.forehead, win), win, fw);
    const lift = new Float32Array(n);
    for (const s of z.scalesMm) {
      const sigma = Math.max(0.7, s * mm), v = valleyness(L, w, h, sigma, z.contrast), d = valleyDepth(L, w, h, sigma);
      for (let i = 0; i < n; i++) { const l = v[i] * d[i]; if (l > lift[i]) lift[i] = l; }
    }
    // The lift itself blurred a little, so a filled line has no edge of its own.
    const soft = blurPlane(lift, w, h, Math.max(0.7, 0.3 * mm));
    for (let i = 0; i < n; i++) L[i] += plan.wrinkles * z.fill * zones[i] * skin[i] * soft[i];
    labChanged = true;
  }

  if (plan.pores > 0) {
    const q = t.pores;
    const fine = blurPlane(L, w, h, Math.max(0.6, q.poreMm * mm));
    const tz = crop(regions.tZone, win);
    const broad = maskedBlur(L, skin, w, h, q.broadMm * mm), hl = blurCoarse(L, w, h, q.shineMm * mm);
    for (let i = 0; i < n; i++) {
      const k = skin[i] * plan.pores;
      if (k <= 0) continue;
      const shine = tz[i] * Math.max(0, hl[i] - broad[i] - q.shineFloor);
      L[i] -= k * (q.band * (L[i] - fine[i]) + q.shine * shine);
    }
    labChanged = true;
  }

  if (labChanged) for (let i = 0; i < n; i++) if (skin[i] > 0) labToRgb(L[i], A[i], B[i], px, i * ch);

  if (plan.smooth > 0) {
    const s = t.smooth;
    // Smoothing by the soft mask, as face-beauty: made firm, it crept into the lash line (eye-band energy 0.72 → 0.62 on one photo).
    smoothMasked(px, ch, w, h, softSkin, { radius: s.radius * fw, eps: faceEps(s.eps, fw, s.epsWidth, s.epsPower), poreSigma: Math.max(0.7, s.poreSigma * fw), texture: s.texture, ...faceShapeBand(fw, s.shape) }, plan.smooth * Math.min(1, fw / s.fullWidth));
  }
  return report;
}

export const retouch: Step<P, PortraitState, Retouched> = async (c, kit) => {
  const result: RasterImage = { ...c.image, data: Buffer.from(c.image.data) };
  const plan = planOf(c.params);
  await eachFace(c.state.faces, kit, async (face) => {
    // Faces past the mesh limit have no mesh, hence no masks: they are left as they are.
    const win = retouchWindow(face, result);
    if (!win) return;
    const parsing = await c.facts.parsing(face);
    const px = readWindow(result, win);
    retouchFace(px, result.channels, face, parsing, win, result, plan);
    writeWindow(result, win, px);
  });
  // Hands and things held to the face stay as they are (the parser calls them skin, so the retouch took them for skin).
  await keepOccluders(c, result, c.state.faces, 'held');
  return { result };
};

export const encodeResult: Step<P, Retouched> = async (c) => {
  const r = c.state.result;
  c.output.images.result = await encodePhoto({ data: r.data, width: r.width, height: r.height, channels: r.channels as 3 | 4 });
};
