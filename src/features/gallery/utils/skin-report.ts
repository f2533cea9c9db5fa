/**
 * The skin analysis answer read for people: every code in words (the Face++ meanings,
 * docs/interface.md#skin-analysis), the lesion rectangles per kind with their colours for the photo and the legend, and a zone guide drawn from the face
 * rectangle. The answer carries no zone outlines (the engine measures zones on the mesh), so the guide places
 * them by the usual proportions of a frontal face: it tells where to look, not what was measured. Pure, so it
 * is tested without a DOM.
 */
import type { Rect } from './crop-overlay.ts';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export interface Measure {
  key: string;
  label: string;
  /** In words: "combination skin", "pigmented dark circles", "present", "34 years". */
  words: string;
  /** 0..1 where the answer gives one. */
  confidence?: number;
  /** Whether the finding is something to look at (a wrinkle present, a dark circle), for emphasis. */
  notable: boolean;
}

export interface LesionKind {
  key: 'acne' | 'closed_comedones' | 'mole' | 'skin_spot';
  label: string;
  /** The word each rectangle is labelled with on the photo. */
  short: string;
  colour: string;
  rects: Rect[];
  /** Per rectangle, when return_rect_confidence=1 was sent. */
  confidences?: number[];
}

export interface SkinReport {
  face: Rect | undefined;
  warnings: string[];
  measures: Measure[];
  lesions: LesionKind[];
}

const present = () => (v: number) => (v >= 1 ? 'visible' : 'not seen');
const CODES: { key: string; label: string; words: (v: number) => string; notable: (v: number) => boolean }[] = [
  { key: 'skin_color', label: 'Skin colour', words: (v) => ['transparent white', 'white', 'natural', 'wheat', 'dark'][v] ?? `code ${v}`, notable: () => false },
  { key: 'left_eyelids', label: 'Left eyelid', words: (v) => ['single eyelid', 'parallel double eyelid', 'scalloped double eyelid'][v] ?? `code ${v}`, notable: () => false },
  { key: 'right_eyelids', label: 'Right eyelid', words: (v) => ['single eyelid', 'parallel double eyelid', 'scalloped double eyelid'][v] ?? `code ${v}`, notable: () => false },
  { key: 'eye_pouch', label: 'Eye bags', words: present(), notable: (v) => v >= 1 },
  { key: 'dark_circle', label: 'Dark circles', words: (v) => ['not seen', 'brownish (pigment)', 'bluish (blood vessels)', 'shadowed (hollows)'][v] ?? `code ${v}`, notable: (v) => v >= 1 },
  { key: 'forehead_wrinkle', label: 'Forehead lines', words: present(), notable: (v) => v >= 1 },
  { key: 'crows_feet', label: 'Crow\'s feet', words: present(), notable: (v) => v >= 1 },
  { key: 'eye_finelines', label: 'Fine lines under the eyes', words: present(), notable: (v) => v >= 1 },
  { key: 'glabella_wrinkle', label: 'Frown lines', words: present(), notable: (v) => v >= 1 },
  { key: 'nasolabial_fold', label: 'Smile lines', words: present(), notable: (v) => v >= 1 },
  { key: 'pores_forehead', label: 'Pores, forehead', words: (v) => (v >= 1 ? 'enlarged' : 'fine'), notable: (v) => v >= 1 },
  { key: 'pores_left_cheek', label: 'Pores, left cheek', words: (v) => (v >= 1 ? 'enlarged' : 'fine'), notable: (v) => v >= 1 },
  { key: 'pores_right_cheek', label: 'Pores, right cheek', words: (v) => (v >= 1 ? 'enlarged' : 'fine'), notable: (v) => v >= 1 },
  { key: 'pores_jaw', label: 'Pores, jaw', words: (v) => (v >= 1 ? 'enlarged' : 'fine'), notable: (v) => v >= 1 },
  { key: 'blackhead', label: 'Blackheads', words: (v) => ['not seen', 'a few', 'some', 'many'][v] ?? `code ${v}`, notable: (v) => v >= 1 },
];
const SKIN_TYPES = ['oily skin', 'dry skin', 'neutral skin', 'combination skin'];

export const LESION_KINDS: Omit<LesionKind, 'rects'>[] = [
  { key: 'acne', label: 'Acne', short: 'acne', colour: '#e11d48' },
  { key: 'closed_comedones', label: 'Whiteheads', short: 'whitehead', colour: '#f59e0b' },
  { key: 'mole', label: 'Moles', short: 'mole', colour: '#7c3aed' },
  { key: 'skin_spot', label: 'Spots', short: 'spot', colour: '#0891b2' },
];

const rectOf = (r: unknown): Rect | undefined =>
  isObj(r) && finite(r.left) && finite(r.top) && finite(r.width) && finite(r.height) ? { x: r.left, y: r.top, width: r.width, height: r.height } : undefined;

/** How sure the analysis is, in words, for a confidence of 0..1. */
export const confidenceWords = (c: number): string => (c >= 0.85 ? 'sure' : c >= 0.6 ? 'fairly sure' : 'unsure');

/** What each map shows, in the colour the engine paints it with (engine/effects/skin-analysis-advanced/skin/maps.ts). */
export const MAP_LEGEND: Record<string, { label: string; colour: string; meaning: string }> = {
  red_area: { label: 'Redness', colour: 'rgb(225,25,45)', meaning: 'The stronger the red, the redder the skin is there than across the rest of the face.' },
  brown_area: { label: 'Brown spots', colour: 'rgb(125,70,15)', meaning: 'The stronger the brown, the more pigment (spots, uneven tone) than across the rest of the face.' },
  texture_enhanced_pores: { label: 'Pores', colour: 'rgb(0,140,255)', meaning: 'Blue marks the pores found, over the photo in grey.' },
  texture_enhanced_blackheads: { label: 'Blackheads', colour: 'rgb(200,0,200)', meaning: 'Magenta marks the blackheads found on the nose.' },
  texture_enhanced_oily_area: { label: 'Oily areas', colour: 'rgb(255,190,0)', meaning: 'Yellow marks shine: the stronger, the oilier the skin looks.' },
  texture_enhanced_lines: { label: 'Lines', colour: 'rgb(0,210,110)', meaning: 'Green marks lines and wrinkles: the stronger, the deeper.' },
};

/** The legend entry of a stored map image, by its label ("red area", "texture enhanced pores"). */
export const mapLegend = (label: string) => MAP_LEGEND[label.trim().replace(/\s+/g, '_')];

/** Reads the answer leniently: members that are absent or malformed are left out, never guessed. */
export function readSkinReport(body: unknown): SkinReport {
  if (!isObj(body)) return { face: undefined, warnings: [], measures: [], lesions: [] };
  const result = isObj(body.result) ? body.result : {};
  const measures: Measure[] = [];
  const age = isObj(result.skin_age) ? result.skin_age.value : undefined;
  if (finite(age)) measures.push({ key: 'skin_age', label: 'Skin age', words: `${Math.round(age)} years`, notable: false });
  const type = result.skin_type;
  if (isObj(type) && finite(type.skin_type)) {
    const details = isObj(type.details) ? type.details[String(type.skin_type)] : undefined;
    measures.push({ key: 'skin_type', label: 'Skin type', words: SKIN_TYPES[type.skin_type] ?? `code ${type.skin_type}`, confidence: isObj(details) && finite(details.confidence) ? details.confidence : undefined, notable: false });
  }
  for (const c of CODES) {
    const m = result[c.key];
    if (!isObj(m) || !finite(m.value)) continue;
    measures.push({ key: c.key, label: c.label, words: c.words(m.value), confidence: finite(m.confidence) ? m.confidence : undefined, notable: c.notable(m.value) });
  }
  const lesions = LESION_KINDS.map((k) => {
    const m = result[k.key];
    const rects = isObj(m) && Array.isArray(m.rectangle) ? m.rectangle.map(rectOf).filter((r): r is Rect => !!r) : [];
    const conf = isObj(m) && Array.isArray(m.confidence) && m.confidence.every(finite) ? (m.confidence as number[]) : undefined;
    return { ...k, rects, confidences: conf && conf.length === rects.length ? conf : undefined };
  });
  const warnings = (Array.isArray(body.warning) ? body.warning : []).filter((w): w is string => typeof w === 'string')
    .map((w) => (w === 'imporper_headpose' ? 'The head is turned or tilted more than 45°: measurements are less reliable.' : w));
  return { face: rectOf(body.face_rectangle), warnings, measures, lesions };
}

/** Zone guide: name and place as fractions of the face rectangle (x, y, width, height). */
const ZONES: [string, number, number, number, number][] = [
  ['Forehead', 0.22, 0.02, 0.56, 0.2],
  ['Glabella', 0.42, 0.24, 0.16, 0.12],
  ['Crow\'s feet', 0.02, 0.3, 0.13, 0.16],
  ['Crow\'s feet', 0.85, 0.3, 0.13, 0.16],
  ['Under-eye', 0.18, 0.44, 0.22, 0.09],
  ['Under-eye', 0.6, 0.44, 0.22, 0.09],
  ['Nose', 0.41, 0.38, 0.18, 0.28],
  ['Cheek', 0.08, 0.55, 0.24, 0.18],
  ['Cheek', 0.68, 0.55, 0.24, 0.18],
  ['Nasolabial', 0.3, 0.62, 0.1, 0.16],
  ['Nasolabial', 0.6, 0.62, 0.1, 0.16],
  ['Chin', 0.36, 0.86, 0.28, 0.13],
  ['Jaw', 0.06, 0.76, 0.2, 0.16],
  ['Jaw', 0.74, 0.76, 0.2, 0.16],
];

export function zoneGuide(face: Rect): { name: string; rect: Rect }[] {
  return ZONES.map(([name, x, y, w, h]) => ({ name, rect: { x: face.x + x * face.width, y: face.y + y * face.height, width: w * face.width, height: h * face.height } }));
}
