/**
 * The face analyzer's answer read for people: the faces (largest first) with their boxes, and each face's
 * attributes in words from contract/face-attributes.ts. Families that were not asked for, and faces past the
 * 5th, are said to be so instead of being read as code 0 ("neutral", "male", ...). Pure, so it is tested
 * without a DOM.
 */
import { FACE_ATTRIBUTE_FACES, faceAttributeFamilies } from '../../../../contract/face-attributes.ts';
import type { FaceAttributeFamily, FaceAttributeMember, FaceAttributeType } from '../../../../contract/face-attributes.ts';
import { containRect } from './crop-overlay.ts';
import type { Rect, Size } from './crop-overlay.ts';

export interface Face {
  /** 1 = the largest. */
  number: number;
  rect: Rect;
  /** face_detail_attributes_info as answered (undefined if absent). */
  attributes: Record<string, unknown> | undefined;
}

export interface FaceAnswer {
  /** The coordinate space of the boxes (input pixels, orientation applied); undefined if not answered. */
  image: Size | undefined;
  faces: Face[];
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Reads the answer leniently: boxes without four finite numbers are dropped, the numbering follows the answer. */
export function readFaceAnswer(body: unknown): FaceAnswer {
  if (!isObj(body)) return { image: undefined, faces: [] };
  const { image_width: w, image_height: h, face_detail_infos: infos } = body;
  const image = finite(w) && finite(h) && w > 0 && h > 0 ? { width: w, height: h } : undefined;
  const faces: Face[] = [];
  (Array.isArray(infos) ? infos : []).forEach((info: unknown, i) => {
    if (!isObj(info) || !isObj(info.face_rect)) return;
    const { x, y, width, height } = info.face_rect;
    if (!finite(x) || !finite(y) || !finite(width) || !finite(height)) return;
    faces.push({ number: i + 1, rect: { x, y, width, height }, attributes: isObj(info.face_detail_attributes_info) ? info.face_detail_attributes_info : undefined });
  });
  return { image, faces };
}

/** face_attributes_type as sent → the families asked for; undefined when the request is not known. */
export function requestedFamilies(sent: string | undefined): Set<FaceAttributeType> | undefined {
  if (sent === undefined) return undefined;
  const known = new Set<string>(faceAttributeFamilies.map((f) => f.type));
  return new Set(sent.split(',').map((s) => s.trim()).filter((s): s is FaceAttributeType => known.has(s)));
}

export interface AttributeRow {
  label: string;
  /** In words: "happy · 93%", "41", "yaw 12°, pitch −3°, roll 1°". */
  value: string;
}

export type FamilyReading =
  | { family: FaceAttributeFamily; requested: true; rows: AttributeRow[] }
  | { family: FaceAttributeFamily; requested: false };

export type FaceReading = { attributes: false } | { attributes: true; families: FamilyReading[] };

const at = (attrs: Record<string, unknown>, path: readonly string[]): unknown =>
  path.reduce<unknown>((v, k) => (isObj(v) ? v[k] : undefined), attrs);

/** Probabilities are answered as 0..1; a value above 1 is taken as a percentage already. */
export const percent = (p: number): string => `${Math.round(p <= 1 ? p * 100 : p)}%`;

/** Degrees with a true minus sign, at most one decimal. */
export const degrees = (v: number): string => `${v < 0 ? '−' : ''}${Math.abs(Math.round(v * 10) / 10)}°`;

const round1 = (v: number) => String(Math.round(v * 10) / 10);

function isEmpty(member: FaceAttributeMember, v: unknown): boolean {
  if (member.kind === 'coded') return !isObj(v) || (v.type === 0 && v.probability === 0);
  if (member.kind === 'number') return v === 0 || v === undefined;
  return !isObj(v) || member.angles.every((a) => v[a] === 0 || v[a] === undefined);
}

function describe(member: FaceAttributeMember, v: unknown): string {
  if (member.kind === 'coded') {
    if (!isObj(v) || !finite(v.type)) return 'not answered';
    const word = Number.isInteger(v.type) ? member.codes[v.type] : undefined;
    // An unknown code is shown as such rather than guessed.
    const text = word ?? `code ${v.type}`;
    return finite(v.probability) ? `${text} · ${percent(v.probability)}` : text;
  }
  if (member.kind === 'number') {
    if (!finite(v)) return 'not answered';
    if (member.capped) return v >= member.max ? `${member.max}+` : round1(v);
    return `${round1(v)} / ${member.max}`;
  }
  if (!isObj(v)) return 'not answered';
  return member.angles.map((a) => `${a} ${finite(v[a]) ? degrees(v[a]) : '?'}`).join(', ');
}

/**
 * One face's attributes in words. `requested` (from the request) says which families were asked for; without
 * it a family counts as not requested when all its members carry the "not requested" zeros.
 */
export function readFace(face: Face, requested?: ReadonlySet<FaceAttributeType>): FaceReading {
  if (face.number > FACE_ATTRIBUTE_FACES || !face.attributes) return { attributes: false };
  const attrs = face.attributes;
  const families = faceAttributeFamilies.map((family): FamilyReading => {
    const asked = requested ? requested.has(family.type) : !family.members.every((m) => isEmpty(m, at(attrs, m.path)));
    if (!asked) return { family, requested: false };
    return { family, requested: true, rows: family.members.map((m) => ({ label: m.label, value: describe(m, at(attrs, m.path)) })) };
  });
  return { attributes: true, families };
}

/** A few words for the face list: age, gender and emotion where they were asked for. */
export function faceSummary(reading: FaceReading): string {
  if (!reading.attributes) return '';
  const words = reading.families
    .filter((f): f is Extract<FamilyReading, { requested: true }> => f.requested && ['Age', 'Gender', 'Emotion'].includes(f.family.type))
    .map((f) => (f.family.type === 'Age' ? `age ${f.rows[0].value}` : f.rows[0].value.split(' · ')[0]));
  return words.join(' · ');
}

/** Whether a box reaches past the image (the analyzer answers such boxes for faces cut by the edge). */
export const outsideImage = (r: Rect, image: Size): boolean => r.x < 0 || r.y < 0 || r.x + r.width > image.width || r.y + r.height > image.height;

/**
 * A box in image pixels mapped onto the object-contained photo, relative to the photo's displayed rectangle
 * (not clipped: the caller clips to that rectangle). `space` is the boxes' coordinate space (image_width ×
 * image_height); `natural` the decoded photo, which is what is displayed.
 */
export function boxToDisplay(r: Rect, space: Size, natural: Size, frame: Size): Rect {
  const img = containRect(natural, frame);
  const sx = space.width > 0 ? img.width / space.width : 0;
  const sy = space.height > 0 ? img.height / space.height : 0;
  return { x: r.x * sx, y: r.y * sy, width: r.width * sx, height: r.height * sy };
}
