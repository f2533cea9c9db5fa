/**
 * Face parsing combined with the mesh regions (regions/face-regions.ts): the mesh places the parts of the
 * face exactly but cannot see what covers them or where skin really ends; the parser sees hair, glasses,
 * hats and skin but knows nothing of which face a pixel belongs to. So:
 *
 * - skin: the parser's skin near this face's outline (the mesh's oval, grown), not a neighbour's face;
 * - forehead, cheeks, chin, jaw, nose: the mesh region where the parser sees skin (the nose: skin or
 *   nose), so hair over the forehead, glasses and hands are taken out; the forehead also reaches up to
 *   the hairline where the mesh stops short of it;
 * - foreheadCover: what covers the mesh forehead (hair, hat);
 * - beardArea: the mesh's beard and moustache regions where skin or hair shows (CelebAMask-HQ labels a
 *   beard as skin, or as hair when it is long): where a beard is or could be drawn;
 * - hair, hat, glasses, ears, earrings, neck, necklace: the parser's classes around this head only.
 *
 * All as full-resolution 0..255 masks like faceRegions(), the parser's probabilities stretched to decisions
 * (DECIDE).
 */
import { toMask, type Mask } from '../../image/mask.ts';
import type { RasterImage } from '../../image/raster.ts';
import type { Face } from '../faces/detect.ts';
import { BETWEEN_EYES, CHIN, FOREHEAD_TOP } from '../faces/landmarks.ts';
import { faceRegions, type RegionName } from './face-regions.ts';
import type { FaceParsing, ParsingClass } from '../parsing/face-parsing.ts';

export type PartName = 'skin' | 'forehead' | 'foreheadCover' | 'leftCheek' | 'rightCheek' | 'chin' | 'jaw' | 'nose' | 'beardArea'
  | 'hair' | 'hat' | 'glasses' | 'ears' | 'earrings' | 'neck' | 'necklace';

export const PART_NAMES: readonly PartName[] = ['skin', 'forehead', 'foreheadCover', 'leftCheek', 'rightCheek', 'chin', 'jaw', 'nose', 'beardArea',
  'hair', 'hat', 'glasses', 'ears', 'earrings', 'neck', 'necklace'];

/** The face's own frame: origin between the eyes, unit axes across (subject's right to left) and down, its width and height. */
interface Frame { ox: number; oy: number; ax: number; ay: number; w: number; h: number }

function frameOf(face: Face, parsing: FaceParsing): Frame {
  const c = Math.cos(parsing.roi.angle), s = Math.sin(parsing.roi.angle);
  const m = face.mesh;
  if (m) {
    return {
      ox: m[BETWEEN_EYES][0], oy: m[BETWEEN_EYES][1], ax: c, ay: s,
      w: Math.hypot(m[454][0] - m[234][0], m[454][1] - m[234][1]), h: Math.hypot(m[CHIN][0] - m[FOREHEAD_TOP][0], m[CHIN][1] - m[FOREHEAD_TOP][1]),
    };
  }
  const b = face.box;
  return { ox: b.x0 + b.w / 2, oy: b.y0 + 0.4 * b.h, ax: c, ay: s, w: b.w, h: b.h };
}

/** Face-frame coordinates of an image point: across in face widths, down in face heights. */
const local = (f: Frame, x: number, y: number): [number, number] => {
  const dx = x - f.ox, dy = y - f.oy;
  return [(dx * f.ax + dy * f.ay) / f.w, (-dx * f.ay + dy * f.ax) / f.h];
};

/** 1 inside [a, b], falling linearly to 0 over `soft` beyond each end. */
const ramp = (v: number, a: number, b: number, soft: number) => Math.max(0, Math.min(1, (v - a) / soft + 1, (b - v) / soft + 1));

/**
 * From probability to coverage: where the model hesitates (a dark background is 30% hair to it) a part
 * should be absent, not faint, so the probability is stretched around the decision: nothing below
 * DECIDE[0], full above DECIDE[1], smooth between. Edges stay where the guided filter put them.
 */
export const DECIDE = [0.3, 0.7] as const;
const decided = (p: number) => {
  const t = Math.max(0, Math.min(1, (p - DECIDE[0]) / (DECIDE[1] - DECIDE[0])));
  return t * t * (3 - 2 * t);
};

export interface CombineOptions {
  /** The other faces in the photo: pixels nearer one of them (in face widths) are not this face's. */
  others?: Face[];
  /** Only these parts (all by default). */
  names?: readonly PartName[];
}

/** This face's parts from its parsing and its mesh (a face without mesh gets the parser-only parts). */
export function combineWithMesh(parsing: FaceParsing, face: Face, image: RasterImage, opts: CombineOptions = {}): Partial<Record<PartName, Mask>> {
  const names = opts.names ?? PART_NAMES;
  const { win } = parsing;
  const n = win.w * win.h;
  const f = frameOf(face, parsing);
  // Ownership: 1 where this face is the nearest (in its own widths), fading over 0.1 widths at the border.
  const own = new Float32Array(n).fill(1);
  const others = (opts.others ?? []).filter((o) => o !== face).map((o) => ({ cx: o.box.x0 + o.box.w / 2, cy: o.box.y0 + o.box.h / 2, w: Math.max(1, o.box.w) }));
  const head = new Float32Array(n);
  for (let y = 0; y < win.h; y++) for (let x = 0; x < win.w; x++) {
    const px = win.x0 + x + 0.5, py = win.y0 + y + 0.5, i = y * win.w + x;
    const [u, v] = local(f, px, py);
    // The head and what hangs from it: hair to the shoulders, a hat above; never the far side of the crop.
    head[i] = ramp(u, -1.0, 1.0, 0.25) * ramp(v, -1.1, 1.6, 0.3);
    if (others.length) {
      let theirs = Infinity;
      for (const o of others) theirs = Math.min(theirs, Math.hypot(px - o.cx, py - o.cy) / o.w);
      own[i] = Math.max(0, Math.min(1, 0.5 + (theirs - Math.hypot(px - f.ox, py - f.oy) / f.w) / 0.2));
    }
  }
  const cls = (...c: ParsingClass[]) => {
    const out = new Float32Array(n);
    for (const name of c) {
      const p = parsing.classes[name];
      if (p) for (let i = 0; i < n; i++) out[i] += p[i] / 255;
    }
    for (let i = 0; i < n; i++) out[i] = decided(out[i]);
    return out;
  };
  const meshNames: RegionName[] = ['faceOval', 'forehead', 'leftCheek', 'rightCheek', 'chin', 'jaw', 'nose', 'beard', 'moustache'];
  const regions = face.mesh ? faceRegions(face, image, image, meshNames) : {};
  const region = (name: RegionName) => {
    const m = regions[name];
    const out = new Float32Array(n);
    if (m) for (let y = 0; y < win.h; y++) for (let x = 0, o = (win.y0 + y) * image.width + win.x0; x < win.w; x++) out[y * win.w + x] = m.data[o + x] / 255;
    return out;
  };
  const skin = cls('skin');
  // Near the outline: the parser's skin beyond the mesh oval (a high forehead, the sides of the face) by
  // up to a quarter of the face width, then nothing.
  const nearFace = (() => {
    const oval = region('faceOval');
    if (!face.mesh) return head;
    const near = new Float32Array(n);
    for (let y = 0; y < win.h; y++) for (let x = 0; x < win.w; x++) {
      const [u, v] = local(f, win.x0 + x + 0.5, win.y0 + y + 0.5);
      const i = y * win.w + x;
      // An ellipse a little larger than the face (u across its half widths, v from above the hairline to the chin).
      const e = Math.hypot(u / 0.62, (v - 0.25) / 0.85);
      near[i] = Math.max(oval[i], Math.max(0, Math.min(1, (1.05 - e) / 0.1)));
    }
    return near;
  })();
  const mul = (...planes: Float32Array[]) => {
    const out = Float32Array.from(planes[0]);
    for (const p of planes.slice(1)) for (let i = 0; i < n; i++) out[i] *= p[i];
    return out;
  };
  const out: Partial<Record<PartName, Mask>> = {};
  const put = (name: PartName, plane: () => Float32Array) => { if (names.includes(name)) out[name] = toMask(mul(plane(), own), win, image); };
  put('skin', () => mul(skin, nearFace));
  if (face.mesh) {
    put('forehead', () => {
      // The mesh forehead, and above it up to where the skin ends (the mesh stops near the hairline).
      const fh = region('forehead');
      const v10 = local(f, face.mesh![FOREHEAD_TOP][0], face.mesh![FOREHEAD_TOP][1])[1];
      for (let y = 0; y < win.h; y++) for (let x = 0; x < win.w; x++) {
        const [u, v] = local(f, win.x0 + x + 0.5, win.y0 + y + 0.5);
        const cap = ramp(u, -0.3, 0.3, 0.1) * ramp(v, v10 - 0.6, v10 + 0.05, 0.05);
        const i = y * win.w + x;
        if (cap > fh[i]) fh[i] = cap;
      }
      return mul(fh, skin);
    });
    put('foreheadCover', () => mul(region('forehead'), cls('hair', 'hat')));
    for (const name of ['leftCheek', 'rightCheek', 'chin', 'jaw'] as const) put(name, () => mul(region(name), skin));
    put('nose', () => mul(region('nose'), cls('skin', 'nose')));
    put('beardArea', () => {
      const b = region('beard'), m = region('moustache');
      for (let i = 0; i < n; i++) if (m[i] > b[i]) b[i] = m[i];
      return mul(b, cls('skin', 'hair'));
    });
  }
  put('hair', () => mul(cls('hair'), head));
  put('hat', () => mul(cls('hat'), head));
  put('glasses', () => mul(cls('glasses'), nearFace));
  put('ears', () => mul(cls('rightEar', 'leftEar'), head));
  put('earrings', () => mul(cls('earring'), head));
  put('neck', () => mul(cls('neck'), head));
  put('necklace', () => mul(cls('necklace'), head));
  return out;
}
