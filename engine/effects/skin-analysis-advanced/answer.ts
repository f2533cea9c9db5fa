/**
 * The skin-analysis answer (docs/interface.md#skin-analysis): `result` with every member, Face++'s codes;
 * lesion kinds as rectangles in image pixels, with a parallel `confidence` array when asked for;
 * `warning` with "imporper_headpose" (the service's spelling) past 45 degrees of roll, yaw or pitch, and
 * "multiple_faces" when the photo holds more than the one face measured.
 */
import type { LeftTopRect } from '../../../contract/rectangles.ts';
import type { Face } from '../../vision/faces/detect.ts';
import type { SkinAnalysis } from './skin/analyse.ts';
import { LESION_KINDS, type LesionKind, type MemberName, type Scored } from './skin/names.ts';

/** The `{value, confidence}` members, in the interface's order (docs/interface.md#skin-analysis). */
export const SCORED_MEMBERS: readonly MemberName[] = ['skin_color', 'left_eyelids', 'right_eyelids', 'eye_pouch', 'dark_circle', 'forehead_wrinkle',
  'crows_feet', 'eye_finelines', 'glabella_wrinkle', 'nasolabial_fold', 'pores_forehead', 'pores_left_cheek', 'pores_right_cheek', 'pores_jaw', 'blackhead'];

/** Highest code of each member (docs/interface.md#skin-analysis); the rest are 0/1. */
export const MAX_CODE: Partial<Record<MemberName | 'skin_type', number>> = {
  skin_color: 4, left_eyelids: 2, right_eyelids: 2, dark_circle: 3, blackhead: 3, skin_type: 3,
};

export const HEADPOSE_LIMIT = 45;

export interface LesionAnswer { rectangle: LeftTopRect[]; confidence?: number[] }

export interface SkinResult extends Record<MemberName, Scored> {
  skin_age: { value: number };
  skin_type: { skin_type: number; details: Record<'0' | '1' | '2' | '3', Scored> };
  acne: LesionAnswer; closed_comedones: LesionAnswer; mole: LesionAnswer; skin_spot: LesionAnswer;
}

export function warnings(face: Face, faceCount = 1): string[] {
  const p = face.pose;
  const out = p && Math.max(Math.abs(p.roll), Math.abs(p.yaw), Math.abs(p.pitch)) > HEADPOSE_LIMIT ? ['imporper_headpose'] : [];
  return faceCount > 1 ? [...out, 'multiple_faces'] : out;
}

export const faceRectangle = (face: Face): LeftTopRect => ({ top: Math.round(face.box.y0), left: Math.round(face.box.x0), width: Math.round(face.box.w), height: Math.round(face.box.h) });

const r3 = (v: number) => Math.round(v * 1000) / 1000;

export function skinResult(a: SkinAnalysis, withConfidence: boolean): SkinResult {
  const out = {} as SkinResult;
  for (const m of SCORED_MEMBERS) out[m] = { value: a.members[m].value, confidence: a.members[m].confidence };
  out.skin_age = { value: a.skinAge };
  // details: each type's fit, normalised so they read as a distribution; the chosen type is value 1.
  const total = a.skinType.scores.reduce((s, v) => s + v, 0) || 1;
  const details = {} as SkinResult['skin_type']['details'];
  a.skinType.scores.forEach((v, i) => { details[String(i) as '0'] = { value: i === a.skinType.type ? 1 : 0, confidence: r3(v / total) }; });
  out.skin_type = { skin_type: a.skinType.type, details };
  for (const kind of LESION_KINDS) {
    const found = a.lesions.filter((l) => l.kind === kind);
    const answer: LesionAnswer = { rectangle: found.map((l) => ({ width: l.rect.w, top: l.rect.y0, height: l.rect.h, left: l.rect.x0 })) };
    if (withConfidence) answer.confidence = found.map((l) => r3(l.confidence));
    out[kind as LesionKind] = answer;
  }
  return out;
}
