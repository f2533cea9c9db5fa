/**
 * Garment parsing by rules, without a parsing model: the person matte, the face, body keypoints and detected
 * bags place the body; superpixels carry colour; head.ts takes away face, skin, hair and hat, body-garments.ts
 * sorts the rest into upper, lower, shoes and bag, and layers.ts names the upper and lower garments.
 * A photo without a person is a garment alone (alone.ts). The learned parse (learned.ts) starts from this one.
 */
import { labDistance } from '../../../image/colour.ts';
import type { Face } from '../../../vision/faces/detect.ts';
import type { HeadParsing } from './head-parsing.ts';
import { bodyFrame, type BodyFrame } from './body-frame.ts';
import { assignParts, geometry } from './body-garments.ts';
import { components } from './geometry.ts';
import { faceMask, labelHead, skinModel } from './head.ts';
import type { BodyPoint, DetectedObject } from './human-run.ts';
import { extendUpper, splitLower, splitUpper } from './layers.ts';
import { buildScene, L, medianLab, type PhotoScene, regionMask, regionShare, type Scene } from './scene.ts';
import { flood, groups } from './regions.ts';
import { segmentDistance } from './body-frame.ts';
import { garmentAlone } from './alone.ts';
import { bagBoxes, detectedBags, looseBags } from './bags.ts';
import { RULE_PARSE } from './tuning.ts';

export interface ParseInput {
  /** RGB or RGBA at work size. */
  rgb: Uint8Array; channels: number; width: number; height: number;
  /** Person / salient-object matte at work size, 0..255. */
  matte: Uint8Array;
  faces: Face[]; points: BodyPoint[]; objects: DetectedObject[];
  /** Hair of the people at work size, 0..255 (the vision core's hair mask), when known. */
  hair?: Uint8Array;
  /** The face parser's classes around the largest faces at work size (head-parsing.ts), when any face was found. */
  heads?: HeadParsing;
  /** The photo's superpixels (scene.ts photoScene of `rgb`), when made ahead; else the parse makes them. */
  photo?: PhotoScene;
}

/** The rules' parse with what they found on the way, for the learned parse to start from. */
export interface RuleParse {
  /** The scene, its region labels set by the rules. */
  s: Scene;
  /** Regions of the main subject (people pieces kept). */
  fg: Uint8Array;
  person: boolean;
  frame: BodyFrame | null;
  /** The main person's face, when seen. */
  face?: Face;
  offMatte?: Uint8Array;
}

export function parseByRules(input: ParseInput): RuleParse {
  const { width, height } = input;
  const s = buildScene(input.rgb, input.channels, width, height, input.matte, input.photo);
  const fg = mainForeground(s);
  const face = input.faces.find((f) => fgShare(s, fg, f) > 0.5);
  const frame = bodyFrame(input.points, face?.box);
  const person = !!face || (frame !== null && personKeypoints(input.points, s, fg));
  if (!person && personBox(input.objects, s, fg)) {
    // People the detector sees but whose face and shoulders were not found (backs, profiles, crowds):
    // their clothing is taken as tops, the one garment such photos nearly always show.
    for (let r = 0; r < fg.length; r++) if (fg[r]) s.label[r] = L.tops;
    return { s, fg, person: true, frame: null };
  }
  if (!person || !frame) {
    // A foreground the detector names as a thing nobody wears (a cup, a car, an animal) holds no garment.
    // Its box holds a third of the foreground or more (the shared cup's holds 0.48: the saucer is beside it).
    if (!objectBox(input.objects, s, fg, (o) => o.score >= RULE_PARSE.notWornScore && !WORN.has(o.label), RULE_PARSE.notWornShare)) garmentAlone(s, fg);
    return { s, fg, person: false, frame: null };
  }
  keepPeople(s, fg, input, frame);
  const own = face ? faceMask(face, width, height) : null;
  labelHead(s, fg, face ? [face, ...input.faces.filter((f) => f !== face)] : input.faces, own, own ? skinModel(s, own) : null, input.hair && hairShare(s, input.hair));
  if (input.hair) labelHair(s, fg, input.hair);
  clothedIslands(s, fg, frame);
  const clothing = new Uint8Array(s.regions.length);
  for (let r = 0; r < clothing.length; r++) clothing[r] = fg[r] && s.label[r] === L.background ? 1 : 0;
  const { part } = assignParts(s, clothing, frame, input.objects);
  const g = geometry(frame);
  const split = extendUpper(s, indices(part, 0), indices(part, 1), g);
  const { skirt, pants, legs } = splitLower(s, split.lower, g, split.bib);
  const { coat, tops } = splitUpper(s, split.upper, g);
  for (const [rs, l] of [[coat, L.coat], [tops, L.tops], [skirt, L.skirt], [pants, L.pants]] as const) for (const r of rs) s.label[r] = l;
  for (let r = 0; r < part.length; r++) {
    if (part[r] === 2) s.label[r] = L.shoes;
    if (part[r] === 3) s.label[r] = L.bag;
  }
  for (const r of bootLegs(s, legs, indices(part, 2), g)) s.label[r] = L.shoes;
  const garments = new Set([...part.keys()].filter((r) => part[r] >= 0));
  for (const r of detectedBags(s, garments, input.objects, g)) s.label[r] = L.bag;
  const loose = looseBags(s, fg, bagBoxes(input.objects, g));
  for (const r of loose) s.label[r] = L.bag;
  return { s, fg, person: true, frame, face, offMatte: loose.length ? regionMask(s, loose) : undefined };
}

/** Share of each region inside the hair mask (>= 128). */
function hairShare(s: Scene, hair: Uint8Array): Float32Array {
  const on = new Uint8Array(hair.length);
  for (let i = 0; i < on.length; i++) on[i] = hair[i] >= 128 ? 1 : 0;
  return regionShare(s, on);
}

/** Regions mostly inside the hair mask and not yet decided (hats and faces stay) are hair. */
export function labelHair(s: Scene, fg: Uint8Array, hair: Uint8Array) {
  const share = hairShare(s, hair);
  for (let r = 0; r < s.regions.length; r++) if (fg[r] && s.label[r] === L.background && share[r] >= 0.5) s.label[r] = L.hair;
}

/**
 * Skin-coloured islands inside clothing are the clothing (beige, camel, khaki, blush fabric in the face's
 * colour range): skin shows where the body leaves the clothing, so a piece of skin meets the face, the
 * hair, the background or other skin. A piece whose every neighbour is undecided foreground (clothing)
 * goes back to the clothing, unless it lies on a forearm (a bare arm crossing in front of the body).
 */
export function clothedIslands(s: Scene, fg: Uint8Array, frame: BodyFrame) {
  const skin = [...s.label.keys()].filter((r) => fg[r] && s.label[r] === L.skin);
  const forearms = [0, 1].map((i) => [frame.elbows[i], frame.wrists[i]] as const);
  const reach = frame.torso * RULE_PARSE.forearmReach;
  for (const piece of groups(s, skin)) {
    const inPiece = new Set(piece);
    const enclosed = piece.every((r) => s.neighbours[r].every((q) => inPiece.has(q) || (fg[q] === 1 && s.label[q] === L.background)));
    if (!enclosed) continue;
    if (piece.some((r) => forearms.some(([a, b]) => segmentDistance(s.regions[r], a, b).d < reach))) continue;
    for (const r of piece) s.label[r] = L.background;
  }
}

/** Foreground regions of the main subject: the largest matte component and any at least a fifth its size. */
function mainForeground(s: Scene): Uint8Array {
  const n = s.width * s.height;
  const mask = new Uint8Array(n);
  for (let i = 0; i < n; i++) mask[i] = s.alpha[s.sp[i]] >= 0.5 ? 1 : 0;
  const { labels, sizes } = components(mask, s.width, s.height);
  const largest = Math.max(0, ...sizes);
  const fg = new Uint8Array(s.regions.length);
  for (let i = 0; i < n; i++) if (labels[i] && sizes[labels[i]] >= largest * RULE_PARSE.pieceShare) fg[s.sp[i]] = 1;
  return fg;
}

/**
 * With a person found, foreground pieces with nothing of a person in them (a tablet on the table, a
 * sign) are dropped: a piece stays when it holds a face, a seen keypoint or a detected bag, or lies
 * within reach of a hand.
 */
function keepPeople(s: Scene, fg: Uint8Array, input: ParseInput, frame: BodyFrame) {
  const mask = new Uint8Array(s.width * s.height);
  for (let i = 0; i < mask.length; i++) mask[i] = fg[s.sp[i]];
  const { labels } = components(mask, s.width, s.height);
  const keep = new Set<number>();
  const at = (x: number, y: number) => {
    const xi = Math.round(x), yi = Math.round(y);
    if (xi >= 0 && yi >= 0 && xi < s.width && yi < s.height && labels[yi * s.width + xi]) keep.add(labels[yi * s.width + xi]);
  };
  for (const f of input.faces) at(f.box.x0 + f.box.w / 2, f.box.y0 + f.box.h / 2);
  for (const p of input.points) if (p.score >= RULE_PARSE.seenScore) at(p.x, p.y);
  for (const o of bagBoxes(input.objects, geometry(frame))) at(o.box.x0 + o.box.w / 2, o.box.y0 + o.box.h / 2);
  const reach = frame.torso * RULE_PARSE.handReach;
  for (let i = 0; i < labels.length; i++) {
    if (!labels[i] || keep.has(labels[i])) continue;
    const x = i % s.width, y = (i / s.width) | 0;
    if (frame.wrists.some((w) => Math.hypot(w.x - x, w.y - y) < reach)) keep.add(labels[i]);
  }
  if (keep.size === 0) return;
  const drop = new Uint8Array(s.regions.length);
  for (let i = 0; i < labels.length; i++) if (labels[i] && !keep.has(labels[i])) drop[s.sp[i]] = 1;
  for (let r = 0; r < fg.length; r++) if (drop[r]) fg[r] = 0;
}

function fgShare(s: Scene, fg: Uint8Array, f: Face): number {
  let on = 0, all = 0;
  const { x0: x, y0: y, w, h } = f.box;
  for (let yy = Math.max(0, Math.floor(y)); yy < Math.min(s.height, y + h); yy++) for (let xx = Math.max(0, Math.floor(x)); xx < Math.min(s.width, x + w); xx++) {
    all++; if (fg[s.sp[yy * s.width + xx]]) on++;
  }
  return all ? on / all : 0;
}

/** COCO objects that are garments or carried like them (the rest are things nobody wears). */
const WORN = new Set(['person', 'handbag', 'backpack', 'suitcase', 'tie']);

/** A confident person box over most of the foreground. */
const personBox = (objects: DetectedObject[], s: Scene, fg: Uint8Array) => objectBox(objects, s, fg, (o) => o.label === 'person' && o.score >= RULE_PARSE.personScore, RULE_PARSE.personShare);

/** Whether a box passing `ok` holds more than `share` of the foreground. */
function objectBox(objects: DetectedObject[], s: Scene, fg: Uint8Array, ok: (o: DetectedObject) => boolean, share: number): boolean {
  let total = 0;
  for (let r = 0; r < fg.length; r++) if (fg[r]) total += s.regions[r].n;
  return objects.some((o) => {
    if (!ok(o)) return false;
    let inside = 0;
    for (let r = 0; r < fg.length; r++) {
      const g = s.regions[r];
      if (fg[r] && g.x >= o.box.x0 && g.x <= o.box.x0 + o.box.w && g.y >= o.box.y0 && g.y <= o.box.y0 + o.box.h) inside += g.n;
    }
    return inside > total * share;
  });
}

/** Both shoulders seen, on the foreground: a person even without a visible face (a back, a blurred face). */
function personKeypoints(points: BodyPoint[], s: Scene, fg: Uint8Array): boolean {
  const seen = points.filter((p) => (p.name === 'leftShoulder' || p.name === 'rightShoulder') && p.score >= RULE_PARSE.seenScore);
  if (seen.length < 2) return false;
  return seen.every((p) => {
    const x = Math.round(p.x), y = Math.round(p.y);
    return x >= 0 && y >= 0 && x < s.width && y < s.height && fg[s.sp[y * s.width + x]] === 1;
  });
}

/**
 * Boots: leg coverings below the knee that are not the garment at the hips and carry on from the shoes
 * in the shoes' colour.
 */
function bootLegs(s: Scene, legs: number[], shoes: number[], g: ReturnType<typeof geometry>): number[] {
  const c = medianLab(s, shoes);
  if (!c) return [];
  const low = new Set(legs.filter((r) => s.regions[r].y > g.yk - RULE_PARSE.bootAbove * g.shin));
  const boots = [...flood(s, shoes, (r) => shoes.includes(r) || (low.has(r) && labDistance(s.regions[r].lab, c) < RULE_PARSE.bootDE))].filter((r) => low.has(r));
  if (boots.length === 0) return [];
  // A boot's top meets bare leg; trousers of the shoes' colour carry on upwards instead.
  const top = Math.min(...boots.map((r) => s.regions[r].y0)), span = Math.max(...boots.map((r) => s.regions[r].y1)) - top;
  const rim = boots.filter((r) => s.regions[r].y0 < top + span * RULE_PARSE.bootRim);
  return rim.some((r) => s.neighbours[r].some((q) => s.label[q] === L.skin)) ? boots : [];
}

const indices = (part: Int8Array, k: number) => [...part.keys()].filter((r) => part[r] === k);

export { regionShare };
