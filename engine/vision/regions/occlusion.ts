/**
 * What covers a face: hands, phones, microphones, cups, hair across the eyes or lips, glasses frames on the
 * skin; every face effect leaves these pixels as they are (looks/occlusion.ts blends up to their edge).
 *
 * The face parser (CelebAMask-HQ's classes) has no class for a hand or an object and mostly calls one in
 * front of the face "skin", so the parse alone misses them; neither did human's hand detector find hands
 * held over faces (docs/experiments/occlusion.md). Three cues, each where the face's parts should be:
 *   1. parts: the parser sees something that is not a face there: background, cloth, neck, a hat over the
 *      inner face; hair over the eyes or lips; glasses away from the eyes (the frames on the skin);
 *   2. the mesh says eye or lips and the parser, sure of it, says skin (a finger across the lips);
 *   3. colour: the face's own skin (the parser's skin on the mesh cheeks, forehead and nose, robust
 *      statistics in Lab) does not explain the pixel, no face part the parser sees there explains it, and
 *      in the beard area it does not look like beard (darker than the skin, no more chroma, textured).
 * The union is opened (specks out), small islands are dropped, and it is grown a little to cover the
 * occluder's own soft edge. A 0..255 Mask at full resolution, 255 = in front of the face.
 */
import { planeInto, toMask, type Mask, type MaskPlane } from '../../image/mask.ts';
import { LINEAR, linearToLab, type Lab } from '../../image/colour.ts';
import { boxMean } from '../../image/guided-filter.ts';
import type { RasterImage } from '../../image/raster.ts';
import type { Rect } from '../../image/rect.ts';
import type { Face } from '../faces/detect.ts';
import type { FaceParsing, ParseOptions, ParsingClass } from '../parsing/face-parsing.ts';
import { faceRegionPlanes, type RegionName } from './face-regions.ts';
import { OCCLUSION as T } from './occlusion-tuning.ts';

/** What occlusionMask reads of the parse: a tight square around the face at a small input, the classes summed in groups. */
export const OCCLUSION_PARSING: ParseOptions = {
  input: T.parseInput,
  frame: { scale: 1.05, down: 0.15 },
  classes: ['skin', 'nose', 'upperLip', 'lowerLip', 'mouth', 'rightEye', 'leftEye', 'rightBrow', 'leftBrow', 'hair', 'glasses', 'background', 'cloth', 'neck', 'hat', 'necklace'],
  merge: [['skin', 'nose'], ['upperLip', 'lowerLip', 'mouth'], ['rightEye', 'leftEye'], ['rightBrow', 'leftBrow'], ['background', 'cloth', 'hat', 'necklace']],
};

const MESH: readonly RegionName[] = ['faceOval', 'upperLip', 'lowerLip', 'mouthOpening', 'leftEye', 'rightEye', 'leftBrow', 'rightBrow', 'beard', 'moustache', 'leftCheek', 'rightCheek', 'forehead', 'nose'];

export const median = (v: number[]) => { const s = Float32Array.from(v).sort(); return s.length ? s[s.length >> 1] : 0; };

/** The skin's colour: median and spread (1.4826 x median absolute deviation, floored) of L, a, b. */
function skinModel(L: Float32Array, A: Float32Array, B: Float32Array, where: (i: number) => boolean, n: number) {
  const ls: number[] = [], as: number[] = [], bs: number[] = [];
  // Every 2nd pixel is plenty for a median.
  for (let i = 0; i < n; i += 2) if (where(i)) { ls.push(L[i]); as.push(A[i]); bs.push(B[i]); }
  if (ls.length < 50) return undefined;
  const m = { l: median(ls), a: median(as), b: median(bs) };
  const spread = (v: number[], c: number, floor: number) => Math.max(floor, 1.4826 * median(v.map((x) => Math.abs(x - c))));
  return { m, s: { l: spread(ls, m.l, T.skin.floorL), a: spread(as, m.a, T.skin.floorAB), b: spread(bs, m.b, T.skin.floorAB) } };
}

/** Binary erosion (all of the (2r+1)-square set) and dilation (any of it) of a 0..1 plane, through box means: O(pixels) at any r. */
function morph(v: Float32Array | Uint8Array, w: number, h: number, r: number, erosion: boolean): Float32Array {
  const b = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) b[i] = v[i] > 0.5 ? 1 : 0;
  const m = boxMean(b, w, h, Math.max(1, Math.round(r)));
  for (let i = 0; i < m.length; i++) m[i] = erosion ? (m[i] > 0.999 ? 1 : 0) : (m[i] > 0.001 ? 1 : 0);
  return m;
}
export const erode = (v: Float32Array | Uint8Array, w: number, h: number, r: number) => morph(v, w, h, r, true);
export const dilate = (v: Float32Array | Uint8Array, w: number, h: number, r: number) => morph(v, w, h, r, false);

/** Fills what an occluder encloses (a hand's highlights): every clear pixel the window's border cannot reach through clear pixels. */
export function fillHoles(on: Uint8Array, w: number, h: number): Uint8Array {
  const reached = new Uint8Array(w * h), stack: number[] = [];
  const seed = (i: number) => { if (!on[i] && !reached[i]) { reached[i] = 1; stack.push(i); } };
  for (let x = 0; x < w; x++) { seed(x); seed((h - 1) * w + x); }
  for (let y = 0; y < h; y++) { seed(y * w); seed(y * w + w - 1); }
  while (stack.length) {
    const i = stack.pop()!, x = i % w;
    if (x > 0) seed(i - 1);
    if (x < w - 1) seed(i + 1);
    if (i >= w) seed(i - w);
    if (i < (h - 1) * w) seed(i + w);
  }
  const out = new Uint8Array(w * h);
  for (let i = 0; i < out.length; i++) out[i] = on[i] || !reached[i] ? 1 : 0;
  return out;
}

/** Keeps the 4-connected islands of `on` (0/1) with at least `min` pixels. */
export function dropSmall(on: Float32Array, w: number, h: number, min: number): Uint8Array {
  const label = new Int32Array(w * h), out = new Uint8Array(w * h), stack: number[] = [];
  let next = 1;
  for (let s = 0; s < on.length; s++) {
    if (on[s] < 0.5 || label[s]) continue;
    const members: number[] = [];
    label[s] = next; stack.push(s);
    while (stack.length) {
      const i = stack.pop()!; members.push(i);
      const x = i % w, y = (i - x) / w;
      if (x > 0 && on[i - 1] > 0.5 && !label[i - 1]) { label[i - 1] = next; stack.push(i - 1); }
      if (x < w - 1 && on[i + 1] > 0.5 && !label[i + 1]) { label[i + 1] = next; stack.push(i + 1); }
      if (y > 0 && on[i - w] > 0.5 && !label[i - w]) { label[i - w] = next; stack.push(i - w); }
      if (y < h - 1 && on[i + w] > 0.5 && !label[i + w]) { label[i + w] = next; stack.push(i + w); }
    }
    if (members.length >= min) for (const i of members) out[i] = 1;
    next++;
  }
  return out;
}

/** Which cue marked a pixel before the mask's cleaning (occlusionPlane's `cues`, for the quality script): 0 = none. */
export const OCCLUSION_CUES = ['', 'parts', 'hair', 'glasses', 'finger', 'grey', 'dark'] as const;

/**
 * The occlusion plane over the parsing's window (0..1). A face without mesh has none (all 0). `cues`, when
 * given (the window's size), receives each raw pixel's cue as an index into OCCLUSION_CUES.
 */
export function occlusionPlane(face: Face, parsing: FaceParsing, image: RasterImage, cues?: Uint8Array): MaskPlane {
  const win = parsing.win, { w, h } = win, n = w * h;
  const plane = new Float32Array(n);
  const m = face.mesh;
  if (!m || m.length < 478) return { plane, win };
  const fw = Math.hypot(m[454][0] - m[234][0], m[454][1] - m[234][1]);
  const regions = faceRegionPlanes(face, image, undefined, MESH);
  const r = (name: RegionName) => planeInto(regions[name], win);
  const p = (c: ParsingClass) => { const v = parsing.classes[c]; return (i: number) => (v ? v[i] / 255 : 0); };
  const skinP = p('skin'), lipsP = p('upperLip'), eyesP = p('rightEye'), leftEyeP = p('leftEye'), browsP = p('rightBrow'), leftBrowP = p('leftBrow');
  const hairP = p('hair'), glassesP = p('glasses'), otherP = p('background'), neckP = p('neck');
  const eyeP = (i: number) => eyesP(i) + leftEyeP(i), browP = (i: number) => browsP(i) + leftBrowP(i);

  const oval = r('faceOval'), beard = r('beard'), moustache = r('moustache');
  const lips = r('upperLip'), lower = r('lowerLip'), mouth = r('mouthOpening'), eyeR = r('rightEye'), eyeL = r('leftEye'), browR = r('rightBrow'), browL = r('leftBrow');
  const cheeks = [r('leftCheek'), r('rightCheek'), r('forehead'), r('nose')];
  for (let i = 0; i < n; i++) { lips[i] = Math.max(lips[i], lower[i], mouth[i]); eyeR[i] = Math.max(eyeR[i], eyeL[i]); browR[i] = Math.max(browR[i], browL[i]); beard[i] = Math.max(beard[i], moustache[i]); }
  // Where face effects edit: the oval and, below it, where a beard may be drawn (the beard area, grown).
  const area = dilate(beard, w, h, T.beardReach * fw);
  for (let i = 0; i < n; i++) if (oval[i] > 0.5) area[i] = 1;
  // The inner face, away from its outline (where the background behind the face is no occluder).
  const inner = erode(oval, w, h, T.innerMargin * fw), edge = erode(oval, w, h, T.colourMargin * fw);
  const lipsCore = erode(lips, w, h, T.coreMargin * fw), eyesCore = erode(eyeR, w, h, T.coreMargin * fw);
  const lipsNear = dilate(lips, w, h, T.partSlack * fw), eyesNear = dilate(eyeR, w, h, T.partSlack * fw);
  const beardNear = dilate(beard, w, h, T.partSlack * fw);
  // Eyes and brows, grown: their colours are their own (the parser and the mesh decide there, not colour).
  for (let i = 0; i < n; i++) browR[i] = Math.max(browR[i], eyeR[i]);
  const eyeZone = dilate(browR, w, h, T.eyeZone * fw);

  const L = new Float32Array(n), A = new Float32Array(n), B = new Float32Array(n), lab: Lab = { l: 0, a: 0, b: 0 };
  const ch = image.channels;
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const i = y * w + x, j = ((win.y0 + y) * image.width + win.x0 + x) * ch;
    linearToLab(LINEAR[image.data[j]], LINEAR[image.data[j + 1]], LINEAR[image.data[j + 2]], lab);
    L[i] = lab.l; A[i] = lab.a; B[i] = lab.b;
  }
  const model = skinModel(L, A, B, (i) => skinP(i) > T.skin.sure && (cheeks[0][i] > 0.5 || cheeks[1][i] > 0.5 || cheeks[2][i] > 0.5 || cheeks[3][i] > 0.5), n);

  const skinChroma = model ? Math.hypot(model.m.a, model.m.b) : 0;
  const on = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (area[i] < 0.5) continue;
    const hair = hairP(i), other = otherP(i), glasses = glassesP(i);
    // 1. Parts that are no face where the face is.
    // (The neck only inside the face: below the jaw it is where a beard is drawn.)
    let occluded = (inner[i] > 0.5 && other + neckP(i) > T.sure) || (oval[i] < 0.5 && other > T.sure);
    if (occluded && cues) cues[i] = 1;
    if (hair > T.sure && (lipsCore[i] > 0.5 || eyesCore[i] > 0.5)) { occluded = true; if (cues) cues[i] = 2; }
    if (glasses > T.sure && eyesNear[i] < 0.5 && inner[i] > 0.5) { occluded = true; if (cues) cues[i] = 3; }
    // 2. The mesh's lips or eyes where the parser is sure of skin and the colour is the skin's (a finger).
    const zl = model ? (L[i] - model.m.l) / model.s.l : 0, zc = model ? Math.hypot((A[i] - model.m.a) / model.s.a, (B[i] - model.m.b) / model.s.b) : 0;
    if (model && (lipsCore[i] > 0.5 || eyesCore[i] > 0.5) && skinP(i) > T.skinOverPart && zc < T.finger.chromaZ && Math.abs(zl) < T.finger.lightZ) { occluded = true; if (cues) cues[i] = 4; }
    // 3. Colour the face does not explain: much less chroma than the skin (grey and black things), or the
    // skin's hue much darker than shade makes it (another person's hand); in the beard area a beard is
    // darker and greyer than skin, so only what is greyer still, or skin-hued and darker, counts.
    if (!occluded && model && (edge[i] > 0.5 || oval[i] < 0.5) && eyeZone[i] < 0.5) {
      const part = (lipsNear[i] > 0.5 && lipsP(i) > T.partSure && A[i] > model.m.a - model.s.a) || (eyesNear[i] > 0.5 && eyeP(i) > T.partSure)
        || browP(i) > T.partSure || glasses > T.partSure || hair > T.partSure;
      const ratio = Math.hypot(A[i], B[i]) / Math.max(1, skinChroma);
      const inBeard = beardNear[i] > 0.5;
      const grey = ratio < (inBeard ? T.colour.greyInBeard : T.colour.grey);
      const darkHand = zl < -(inBeard ? T.colour.darkerInBeardZ : T.colour.darkerZ) && ratio > T.colour.handChroma;
      if (!part && (grey || darkHand)) { occluded = true; if (cues) cues[i] = grey ? 5 : 6; }
    }
    if (occluded) on[i] = 1;
  }
  // Open (specks out), drop islands, then grow over the occluder's own soft edge.
  const open = Math.max(1, Math.round(T.open * fw));
  const close = Math.max(1, Math.round(T.close * fw));
  const opened = erode(dilate(dilate(erode(on, w, h, open), w, h, open), w, h, close), w, h, close);
  let kept = fillHoles(dropSmall(opened, w, h, Math.max(16, Math.round(T.minIsland * fw * fw))), w, h);
  // Grown by colour: near what was found, a pixel that the occluder's own colour (the median of what was
  // found) explains better than the skin's joins it (a hand's lighter knuckles, the far side of a phone).
  if (model) {
    const found = skinModel(L, A, B, (i) => kept[i] === 1 && oval[i] > 0.5 && otherP(i) < T.sure, n);
    if (found) {
      const near = dilate(kept, w, h, T.reach * fw), s2 = model.s;
      const dist = (i: number, m: Lab) => Math.hypot((L[i] - m.l) / s2.l, (A[i] - m.a) / s2.a, (B[i] - m.b) / s2.b);
      const more = Float32Array.from(kept);
      for (let i = 0; i < n; i++) {
        if (kept[i] || near[i] < 0.5 || area[i] < 0.5 || eyeZone[i] > 0.5) continue;
        const part = lipsP(i) > T.partSure || eyeP(i) > T.partSure || browP(i) > T.partSure || glassesP(i) > T.partSure || hairP(i) > T.partSure;
        if (!part && dist(i, found.m) < (beardNear[i] > 0.5 ? T.beardGrowth : 1) * dist(i, model.m)) more[i] = 1;
      }
      kept = fillHoles(dropSmall(erode(dilate(more, w, h, close), w, h, close), w, h, Math.max(16, Math.round(T.minIsland * fw * fw))), w, h);
    }
  }
  const grown = dilate(kept, w, h, Math.max(1, Math.round(T.grow * fw)));
  for (let i = 0; i < n; i++) plane[i] = grown[i] > 0.5 ? 1 : 0;
  return { plane, win };
}

/** occlusionPlane as a full-resolution Mask. */
export function occlusionMask(face: Face, parsing: FaceParsing, image: RasterImage): Mask {
  const { plane, win } = occlusionPlane(face, parsing, image);
  return toMask(plane, win, image);
}
