/**
 * Garment parsing without a parsing model: the person matte, the face, body keypoints and detected bags
 * place the body; superpixels carry colour; head.ts takes away face, skin, hair and hat, body-garments.ts
 * sorts the rest into upper, lower, shoes and bag, and layers.ts names the upper and lower garments.
 * A photo without a person is a garment alone (alone.ts).
 */
import type { Face } from '../faces/detect.ts';
import { bodyFrame, type BodyFrame } from './body-frame.ts';
import { assignParts, geometry } from './body-garments.ts';
import { components } from './geometry.ts';
import { faceMask, labelHead, skinModel } from './head.ts';
import type { BodyPoint, DetectedObject } from './human-run.ts';
import { lowerKind, splitUpper } from './layers.ts';
import { buildScene, L, labelMap, regionShare, type Scene } from './scene.ts';
import { garmentAlone } from './alone.ts';

export interface ParseInput {
  /** RGB or RGBA at work size. */
  rgb: Uint8Array; channels: number; width: number; height: number;
  /** Person / salient-object matte at work size, 0..255. */
  matte: Uint8Array;
  faces: Face[]; points: BodyPoint[]; objects: DetectedObject[];
}

export interface GarmentParse {
  /** L.* per pixel at work size. */
  labels: Uint8Array; width: number; height: number;
  /** false: no person was found and the foreground was taken as one garment. */
  person: boolean;
  frame: BodyFrame | null;
}

export function parseGarments(input: ParseInput): GarmentParse {
  const { width, height } = input;
  const s = buildScene(input.rgb, input.channels, width, height, input.matte);
  const fg = mainForeground(s);
  const face = input.faces.find((f) => fgShare(s, fg, f) > 0.5);
  const frame = bodyFrame(input.points, face?.box);
  const person = !!face || (frame !== null && personKeypoints(input.points, s, fg));
  if (!person || !frame) {
    garmentAlone(s, fg);
    return { labels: labelMap(s), width, height, person: false, frame: null };
  }
  const own = face ? faceMask(face, width, height) : null;
  labelHead(s, fg, face ? [face, ...input.faces.filter((f) => f !== face)] : input.faces, own, own ? skinModel(s, own) : null);
  const clothing = new Uint8Array(s.regions.length);
  for (let r = 0; r < clothing.length; r++) clothing[r] = fg[r] && s.label[r] === L.background ? 1 : 0;
  const { part } = assignParts(s, clothing, frame, input.objects);
  const g = geometry(frame);
  const upper = [...part.keys()].filter((r) => part[r] === 0);
  const { coat, tops } = splitUpper(s, upper, g);
  for (const r of coat) s.label[r] = L.coat;
  for (const r of tops) s.label[r] = L.tops;
  const lower = [...part.keys()].filter((r) => part[r] === 1);
  const lowerMask = new Uint8Array(width * height);
  const isLower = new Uint8Array(s.regions.length);
  for (const r of lower) isLower[r] = 1;
  for (let i = 0; i < lowerMask.length; i++) lowerMask[i] = isLower[s.sp[i]];
  const kind = lowerKind(lowerMask, width, height, g);
  for (const r of lower) s.label[r] = kind === 'pants' ? L.pants : L.skirt;
  for (let r = 0; r < part.length; r++) {
    if (part[r] === 2) s.label[r] = L.shoes;
    if (part[r] === 3) s.label[r] = L.bag;
  }
  return { labels: labelMap(s), width, height, person: true, frame };
}

/** Foreground regions of the main subject: the largest matte component and any at least a fifth its size. */
function mainForeground(s: Scene): Uint8Array {
  const n = s.width * s.height;
  const mask = new Uint8Array(n);
  for (let i = 0; i < n; i++) mask[i] = s.alpha[s.sp[i]] >= 0.5 ? 1 : 0;
  const { labels, sizes } = components(mask, s.width, s.height);
  const largest = Math.max(0, ...sizes);
  const fg = new Uint8Array(s.regions.length);
  for (let i = 0; i < n; i++) if (labels[i] && sizes[labels[i]] >= largest * 0.2) fg[s.sp[i]] = 1;
  return fg;
}

function fgShare(s: Scene, fg: Uint8Array, f: Face): number {
  let on = 0, all = 0;
  const { x, y, width: w, height: h } = f.box;
  for (let yy = Math.max(0, Math.floor(y)); yy < Math.min(s.height, y + h); yy++) for (let xx = Math.max(0, Math.floor(x)); xx < Math.min(s.width, x + w); xx++) {
    all++; if (fg[s.sp[yy * s.width + xx]]) on++;
  }
  return all ? on / all : 0;
}

/** Shoulders and hips seen with confidence, on the foreground: a person even without a visible face. */
function personKeypoints(points: BodyPoint[], s: Scene, fg: Uint8Array): boolean {
  const names = ['leftShoulder', 'rightShoulder', 'leftHip', 'rightHip'];
  const seen = points.filter((p) => names.includes(p.name) && p.score >= 0.4);
  if (seen.length < 4) return false;
  const onFg = seen.filter((p) => {
    const x = Math.round(p.x), y = Math.round(p.y);
    return x >= 0 && y >= 0 && x < s.width && y < s.height && fg[s.sp[y * s.width + x]];
  });
  return onFg.length >= 3;
}

export { regionShare };
