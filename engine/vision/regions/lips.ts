/**
 * The lips of one face as a soft mask over a window around the mouth, for the lip effects: the mesh's
 * upper and lower lips (snapped to the photo's redness edge by faceRegions) without the mouth opening
 * (snapped to its luma edge), and without teeth: pixels near the opening that are pale and colourless
 * against the lips themselves. Face parsing would cost 0.9 s a face at its useful input size (0.3 s at 256,
 * where its lips are blocky), beyond the 1 s budget of lips-color-changer; the mesh's take costs ~10 ms.
 */
import { type Mask } from '../../image/mask.ts';
import type { RasterImage } from '../../image/raster.ts';
import { toLab, type LabPlanes } from '../../image/colour.ts';
import type { Rect } from '../../image/rect.ts';
import type { Face } from '../faces/detect.ts';
import { LIPS_LOWER_OUTER, LIPS_UPPER_OUTER } from '../faces/landmarks.ts';
import type { RegionName } from './face-regions.ts';
import { feather, grow } from '../../image/feather.ts';

export interface LipMask {
  /** Coverage 0..1 over `win`. */
  plane: Float32Array;
  /** The lower lip's share of `plane` (0..1 over `win`): the gloss favours it. */
  lower: Float32Array;
  win: Rect;
  /** Cheek to cheek (mesh 234 to 454), pixels: the face's scale. */
  faceWidth: number;
}

/** Window margin around the outer lip points, in face widths (room for the feathering and the snap). */
const MARGIN = 0.06;
/** Edge softness, in face widths: about a pixel on a 250 px face, so the colour has no hard rim. */
const SOFT = 0.004;

/**
 * The lips of a meshed face, or null for a face without mesh (beyond detectFaces' meshFaces). `regionsOf`
 * draws a face's regions over `image` (the job's memo, so a region is drawn once per job).
 */
export function lipMask(face: Face, image: RasterImage,
  regionsOf: (face: Face, names: readonly RegionName[]) => Partial<Record<RegionName, Mask>>, opts: { occluders?: boolean } = {}): LipMask | null {
  const mesh = face.mesh;
  if (!mesh || mesh.length < 478) return null;
  const faceWidth = Math.hypot(mesh[454][0] - mesh[234][0], mesh[454][1] - mesh[234][1]);
  const pts = [...LIPS_UPPER_OUTER, ...LIPS_LOWER_OUTER].map((i) => mesh[i]);
  const m = Math.ceil(MARGIN * faceWidth) + 2;
  const x0 = Math.max(0, Math.floor(Math.min(...pts.map((p) => p[0])) - m)), y0 = Math.max(0, Math.floor(Math.min(...pts.map((p) => p[1])) - m));
  const x1 = Math.min(image.width, Math.ceil(Math.max(...pts.map((p) => p[0])) + m)), y1 = Math.min(image.height, Math.ceil(Math.max(...pts.map((p) => p[1])) + m));
  if (x1 <= x0 || y1 <= y0) return null;
  const win: Rect = { x0, y0, w: x1 - x0, h: y1 - y0 };

  const r = regionsOf(face, ['upperLip', 'lowerLip', 'mouthOpening']);
  const cut = (mask: Mask | undefined) => {
    const p = new Float32Array(win.w * win.h);
    if (!mask) return p;
    for (let y = 0; y < win.h; y++) for (let x = 0; x < win.w; x++) p[y * win.w + x] = mask.data[(y0 + y) * image.width + x0 + x] / 255;
    return p;
  };
  const upper = cut(r.upperLip), lower = cut(r.lowerLip), mouth = cut(r.mouthOpening);
  const plane = new Float32Array(win.w * win.h);
  for (let i = 0; i < plane.length; i++) plane[i] = Math.min(1, upper[i] + lower[i]) * (1 - mouth[i]);

  const lab = toLab(image, win);
  // (occluders: false, for the tests that compare: the lips as the mesh and colour draw them, grey things and all.)
  if (opts.occluders !== false) removeOccluders(plane, win, lab, cheekChroma(image, mesh, faceWidth), faceWidth);
  removeTeeth(plane, mouth, win, lab, faceWidth);
  removeTongue(plane, upper, lower, mouth, win, lab, faceWidth);
  keepLipColoured(plane, mouth, win, lab, faceWidth);
  fadeFarCorner(plane, win, face);
  const soft = feather(plane, win, SOFT * faceWidth);
  const lowerShare = new Float32Array(plane.length);
  for (let i = 0; i < plane.length; i++) {
    // Feathering only softens the edge; it must not reach into the opening the snap drew.
    soft[i] = Math.min(soft[i], 1 - mouth[i]);
    const s = upper[i] + lower[i];
    lowerShare[i] = s > 0 ? lower[i] / s : 0;
  }
  return { plane: soft, lower: lowerShare, win, faceWidth };
}

/** Mesh points at the middle of each cheek, where the skin's colour is read. */
const CHEEK_POINTS = [50, 280] as const;
/**
 * A grey thing over the lips (a microphone, a pen, a phone): lips are at least as coloured as the skin in any
 * light, so a pixel of the mesh's lips with under OCCLUDER_CHROMA of the cheeks' chroma, and under
 * OCCLUDER_GREY in CIELAB chroma whatever the skin, is in front of them. Read against the cheeks, not the lips'
 * own median: a microphone covering half the mouth drags that median grey (docs/experiments/occlusion.md).
 * Only islands of at least OCCLUDER_ISLAND face widths squared count (a lip's own specular highlight is
 * small), grown by OCCLUDER_GROW to cover the object's soft edge.
 */
export const OCCLUDER_CHROMA = 0.35, OCCLUDER_GREY = 8, OCCLUDER_ISLAND = 0.004;
const OCCLUDER_GROW = 0.012;
export function removeOccluders(plane: Float32Array, win: Rect, lab: LabPlanes, skinChroma: number, faceWidth: number): void {
  if (!(skinChroma > 0)) return;
  const limit = Math.min(OCCLUDER_GREY, OCCLUDER_CHROMA * skinChroma);
  const n = plane.length, grey = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (plane[i] > 0.5 && Math.hypot(lab.a[i], lab.b[i]) < limit) grey[i] = 1;
  const kept = bigIslands(grey, win.w, win.h, OCCLUDER_ISLAND * faceWidth * faceWidth);
  if (!kept) return;
  const cut = grow(kept, win, OCCLUDER_GROW * faceWidth);
  for (let i = 0; i < n; i++) plane[i] *= 1 - cut[i];
}

/**
 * The skin's chroma (CIELAB): the median over a patch 4 % of the face wide at the middle of each cheek, the
 * lower of the two (a cheek turned away can put its patch on a coloured scarf or background, never on
 * something greyer than skin that matters: a lower figure only cuts less).
 */
export function cheekChroma(image: RasterImage, mesh: readonly (readonly number[])[], faceWidth: number): number {
  const r = Math.max(1, Math.round(0.01 * faceWidth));
  return Math.min(...CHEEK_POINTS.map((k) => {
    const p = mesh[k];
    const x0 = Math.min(image.width - 1, Math.max(0, Math.round(p[0]) - 2 * r)), y0 = Math.min(image.height - 1, Math.max(0, Math.round(p[1]) - 2 * r));
    const area: Rect = { x0, y0, w: Math.max(1, Math.min(image.width, Math.round(p[0]) + 2 * r + 1) - x0), h: Math.max(1, Math.min(image.height, Math.round(p[1]) + 2 * r + 1) - y0) };
    const skin = toLab(image, area), cs: number[] = [];
    for (let i = 0; i < skin.L.length; i++) cs.push(Math.hypot(skin.a[i], skin.b[i]));
    return cs.sort((a, b) => a - b)[cs.length >> 1];
  }));
}

/** The 4-connected islands of `on` with at least `min` pixels, as a 0/1 plane; null when there are none. */
export function bigIslands(on: Uint8Array, w: number, h: number, min: number): Float32Array | null {
  const seen = new Uint8Array(on.length), out = new Float32Array(on.length), stack: number[] = [];
  let any = false;
  for (let s = 0; s < on.length; s++) {
    if (!on[s] || seen[s]) continue;
    const members: number[] = [];
    seen[s] = 1; stack.push(s);
    while (stack.length) {
      const i = stack.pop()!, x = i % w;
      members.push(i);
      for (const j of [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, i - w, i + w]) if (j >= 0 && j < on.length && on[j] && !seen[j]) { seen[j] = 1; stack.push(j); }
    }
    if (members.length >= min) { any = true; for (const i of members) out[i] = 1; }
  }
  return any ? out : null;
}

/**
 * Teeth the mesh's inner lip line put on the lips (an open smile): near the opening, pixels much paler and
 * less coloured than the lips' own median. Lips' own highlights are pale too but keep some of the lips' hue.
 */
function removeTeeth(plane: Float32Array, mouth: Float32Array, win: Rect, lab: LabPlanes, faceWidth: number): void {
  const ls: number[] = [], cs: number[] = [];
  for (let i = 0; i < plane.length; i++) if (plane[i] > 0.9) { ls.push(lab.L[i]); cs.push(Math.hypot(lab.a[i], lab.b[i])); }
  if (ls.length < 20) return;
  const median = (v: number[]) => v.sort((a, b) => a - b)[v.length >> 1];
  const lMed = median(ls), cMed = median(cs);
  const near = grow(mouth, win, 0.04 * faceWidth);
  const ramp = (v: number, lo: number, hi: number) => Math.min(1, Math.max(0, (v - lo) / (hi - lo)));
  for (let i = 0; i < plane.length; i++) {
    if (plane[i] === 0 || near[i] === 0) continue;
    const c = Math.hypot(lab.a[i], lab.b[i]);
    const teeth = ramp(lab.L[i], lMed + 6, lMed + 18) * ramp(cMed * 0.6 - c, 0, cMed * 0.3);
    plane[i] *= 1 - near[i] * teeth;
  }
}

/**
 * A tongue the mesh took for lower lip: with the mouth open and the tongue out, the mesh's lower lip lies
 * across the tongue (helen_3251963224: its inner line crossed the middle of the tongue, the outer one the
 * tongue's tip). The tongue shows in the mouth opening too, so its colour is known there: the coloured
 * pixels of the opening (teeth and the dark inside are pale or dark and left to removeTeeth), against the
 * upper lip's core, which a tongue rarely covers. Where the two colours part (a linear discriminant in Lab,
 * as keepLipColoured), the lower lip keeps only what is the upper lip's colour; where they do not (a
 * tongue as red as the lips), the opening's colour decides nothing and the mesh stands.
 */
export function removeTongue(plane: Float32Array, upper: Float32Array, lower: Float32Array, mouth: Float32Array, win: Rect, lab: LabPlanes, faceWidth: number): void {
  const n = plane.length;
  const lip = new Stats();
  const cs: number[] = [];
  let lips = 0;
  for (let i = 0; i < n; i++) {
    if (plane[i] > 0.95) lips++;
    if (plane[i] > 0.95 && upper[i] > 0.95) { lip.add([lab.L[i], lab.a[i], lab.b[i]]); cs.push(Math.hypot(lab.a[i], lab.b[i])); }
  }
  if (lip.n < 30) return;
  const cMed = cs.sort((a, b) => a - b)[cs.length >> 1];
  // The opening's coloured core: a tongue, not teeth (pale and colourless) nor the dark inside.
  const core = 1 - 1e-3;
  const tongue = new Stats();
  const seed = new Uint8Array(n);
  let opening = 0;
  for (let i = 0; i < n; i++) {
    if (mouth[i] < core) continue;
    opening++;
    if (lab.L[i] > 20 && Math.hypot(lab.a[i], lab.b[i]) > 0.6 * cMed) { tongue.add([lab.L[i], lab.a[i], lab.b[i]]); seed[i] = 1; }
  }
  // A tongue out over the lip is big and fills the opening: a few coloured pixels in a slit or beside
  // the teeth of a smile are lip edge, gum or a tongue kept inside (woman_speaker_rania: 47 of 86).
  if (tongue.n < 40 || tongue.n < 0.5 * opening || tongue.n < 0.25 * lips) return;
  const lipMean = lip.mean(), tMean = tongue.mean();
  const inv = invert3(add3(lip.cov(), tongue.cov()));
  if (!inv) return;
  const d = [lipMean[0] - tMean[0], lipMean[1] - tMean[1], lipMean[2] - tMean[2]];
  const w = mul3(inv, d);
  // Separation in pooled standard deviations (d'): below 1.5 the colours do not tell lip from tongue.
  if (Math.sqrt(Math.max(0, dot(w, d)) * 2) < 1.5) return;
  const mid = dot(w, [(lipMean[0] + tMean[0]) / 2, (lipMean[1] + tMean[1]) / 2, (lipMean[2] + tMean[2]) / 2]);
  const half = dot(w, d) / 2;
  const tongueInv = invert3(tongue.cov());
  if (!tongueInv) return;
  const onLower = (i: number) => plane[i] > 0 && lower[i] > upper[i];
  const tongueLike = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    if (!onLower(i)) continue;
    const x = [lab.L[i], lab.a[i], lab.b[i]];
    // 0 at the tongue's mean, 1 at the lip's; the tongue's side of the middle goes...
    const t = (dot(w, x) - mid) / (2 * half) + 0.5;
    // ...if it is the tongue's colour too: a lower lip paler or pinker than the upper one is still lip.
    const v = [x[0] - tMean[0], x[1] - tMean[1], x[2] - tMean[2]];
    const m = Math.sqrt(Math.max(0, dot(v, mul3(tongueInv, v))));
    tongueLike[i] = (1 - Math.min(1, Math.max(0, (t - 0.35) / 0.3))) * Math.min(1, Math.max(0, 3.5 - m));
  }
  // Only what the tongue in the opening reaches without a break: a tongue kept behind the lower teeth of a
  // laugh is cut off from a lower lip of its colour by the teeth.
  const reached = new Uint8Array(n), stack: number[] = [];
  for (let i = 0; i < n; i++) if (seed[i]) { reached[i] = 1; stack.push(i); }
  while (stack.length) {
    const i = stack.pop()!, x = i % win.w;
    for (const j of [x > 0 ? i - 1 : -1, x < win.w - 1 ? i + 1 : -1, i - win.w, i + win.w]) {
      if (j < 0 || j >= n || reached[j] || !(seed[j] || tongueLike[j] > 0.5)) continue;
      reached[j] = 1; stack.push(j);
    }
  }
  for (let i = 0; i < n; i++) if (!reached[i]) tongueLike[i] = 0;
  // Regions, not pixels: grown by about 1.5 % of the face, so the tongue's shaded rim (darker, nearer the
  // lip's colour) goes with it and its papillae leave no speckle; only the lower lip is cut.
  const cut = grow(tongueLike, win, 0.03 * faceWidth);
  for (let i = 0; i < n; i++) if (onLower(i)) plane[i] *= 1 - cut[i];
}

/**
 * On a turned head the mesh's far mouth corner overshoots onto cheek or background (measured on the laughing
 * profiles of biden_obama_laughing_whitehouse). So the mesh's lips are kept only where the photo's colour is
 * the lips' and not the skin's around them: a linear discriminant (Fisher) between the lips' core and a
 * ring of skin just outside them, in Lab, plus a distance test that drops colours far from both (background).
 * When lips and skin hardly differ in colour (pale lips), the mesh is trusted as it is.
 */
function keepLipColoured(plane: Float32Array, mouth: Float32Array, win: Rect, lab: LabPlanes, faceWidth: number): void {
  const n = plane.length;
  const ring = grow(plane, win, 0.05 * faceWidth), near = grow(plane, win, 0.015 * faceWidth), open = grow(mouth, win, 0.01 * faceWidth);
  const lip = new Stats(), skin = new Stats();
  for (let i = 0; i < n; i++) {
    const x = [lab.L[i], lab.a[i], lab.b[i]];
    if (plane[i] > 0.95) lip.add(x);
    else if (ring[i] > 0.5 && near[i] < 0.05 && open[i] < 0.05) skin.add(x);
  }
  if (lip.n < 30 || skin.n < 30) return;
  const lipMean = lip.mean(), skinMean = skin.mean();
  const inv = invert3(add3(lip.cov(), skin.cov()));
  if (!inv) return;
  const d = [lipMean[0] - skinMean[0], lipMean[1] - skinMean[1], lipMean[2] - skinMean[2]];
  const w = mul3(inv, d);
  // Separation in pooled standard deviations (d'); below 1.2 the colours do not tell lips from skin.
  const sep = Math.sqrt(Math.max(0, dot(w, d)) * 2);
  if (sep < 1.2) return;
  const mid = dot(w, [(lipMean[0] + skinMean[0]) / 2, (lipMean[1] + skinMean[1]) / 2, (lipMean[2] + skinMean[2]) / 2]);
  const half = dot(w, d) / 2;
  const lipInv = invert3(lip.cov());
  const gate = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    if (plane[i] === 0) continue;
    const x = [lab.L[i], lab.a[i], lab.b[i]];
    // Projection: 0 at the skin's mean, 1 at the lips'; kept from a third of the way, fully by two thirds.
    const t = (dot(w, x) - mid) / (2 * half) + 0.5;
    let g = Math.min(1, Math.max(0, (t - 0.3) / 0.35));
    if (lipInv) {
      const v = [x[0] - lipMean[0], x[1] - lipMean[1], x[2] - lipMean[2]];
      const m = Math.sqrt(Math.max(0, dot(v, mul3(lipInv, v))));
      g *= Math.min(1, Math.max(0, (5 - m) / 2));
    }
    gate[i] = g;
  }
  // The gate decides regions, not pixels: smoothed so the lips' own texture (a pale fleck) never makes holes.
  const soft = grow(gate, win, 0.012 * faceWidth);
  for (let i = 0; i < n; i++) plane[i] *= Math.min(1, soft[i]);
}

class Stats {
  n = 0; s = [0, 0, 0]; q = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  add(x: number[]) { this.n++; for (let i = 0; i < 3; i++) { this.s[i] += x[i]; for (let j = 0; j < 3; j++) this.q[3 * i + j] += x[i] * x[j]; } }
  mean() { return this.s.map((v) => v / this.n); }
  cov() { const m = this.mean(); return this.q.map((v, k) => v / this.n - m[Math.floor(k / 3)] * m[k % 3] + (k % 4 === 0 ? 1 : 0)); }
}
const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const add3 = (a: number[], b: number[]) => a.map((v, i) => v + b[i]);
const mul3 = (m: number[], v: number[]) => [dot(m.slice(0, 3), v), dot(m.slice(3, 6), v), dot(m.slice(6, 9), v)];
function invert3(m: number[]): number[] | null {
  const [a, b, c, d, e, f, g, h, i] = m;
  const A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (Math.abs(det) < 1e-9) return null;
  return [A, -(b * i - c * h), b * f - c * e, B, a * i - c * g, -(a * f - c * d), C, -(a * h - b * g), a * e - b * d].map((v) => v / det);
}

/**
 * On a head turned past ~20 degrees the mesh's far mouth corner is a guess (on the laughing profiles of
 * biden_obama_laughing_whitehouse it lay on cheek and background, and lips and skin there were too alike for
 * keepLipColoured to tell): the far half of the lips fades out, more the more the head is turned.
 */
function fadeFarCorner(plane: Float32Array, win: Rect, face: Face): void {
  const yaw = face.pose?.yaw ?? 0, mesh = face.mesh!;
  const strength = Math.min(1, Math.max(0, (Math.abs(yaw) - 20) / 20));
  if (strength === 0) return;
  // yaw > 0: the face turns toward the image's right, so its far side (the subject's left, mesh 291) is there.
  const far = yaw > 0 ? mesh[291] : mesh[61];
  const cx = (mesh[61][0] + mesh[291][0]) / 2, cy = (mesh[61][1] + mesh[291][1]) / 2;
  const dx = far[0] - cx, dy = far[1] - cy, len2 = dx * dx + dy * dy;
  if (len2 < 1) return;
  for (let y = 0; y < win.h; y++) for (let x = 0; x < win.w; x++) {
    const i = y * win.w + x;
    if (plane[i] === 0) continue;
    const u = ((win.x0 + x + 0.5 - cx) * dx + (win.y0 + y + 0.5 - cy) * dy) / len2;
    plane[i] *= 1 - strength * Math.min(1, Math.max(0, (u - 0.3) / 0.6));
  }
}
