/**
 * The face-analyzer answer: every member is always present (docs/interface.md#face-analyzer); an attribute
 * that was not asked for, or that belongs to the 6th face on, carries type 0 and probability 0 (numbers: 0).
 */
import type { faceAttributeTypes } from '../../../contract/endpoints/face-analyzer.ts';
import { FACE_ATTRIBUTE_FACES, faceAttributeMembers } from '../../../contract/face-attributes.ts';
import type { XywhRect } from '../../../contract/rectangles.ts';

export type AttributeType = (typeof faceAttributeTypes)[number];

export interface Coded { type: number; probability: number }

export interface FaceAttributes {
  age: number;
  beauty: number;
  smile: number;
  emotion: Coded; gender: Coded; mask: Coded; moustache: Coded; nose: Coded; shape: Coded; skin: Coded;
  eye: { glass: Coded; eye_open: Coded; eyelid_type: Coded; eye_size: Coded };
  eyebrow: { eyebrow_density: Coded; eyebrow_curve: Coded; eyebrow_length: Coded };
  hair: { length: Coded; bang: Coded; color: Coded };
  hat: { style: Coded; color: Coded };
  mouth: { mouth_open: Coded };
  head_pose: { pitch: number; yaw: number; roll: number };
}

export interface FaceDetail { face_rect: XywhRect; face_detail_attributes_info: FaceAttributes }

/** Attribute faces: the 5 largest (docs/interface.md#face-analyzer). */
export const ATTRIBUTE_FACES = FACE_ATTRIBUTE_FACES;

const none = (): Coded => ({ type: 0, probability: 0 });

export function emptyAttributes(): FaceAttributes {
  return {
    age: 0, beauty: 0, smile: 0,
    emotion: none(), gender: none(), mask: none(), moustache: none(), nose: none(), shape: none(), skin: none(),
    eye: { glass: none(), eye_open: none(), eyelid_type: none(), eye_size: none() },
    eyebrow: { eyebrow_density: none(), eyebrow_curve: none(), eyebrow_length: none() },
    hair: { length: none(), bang: none(), color: none() },
    hat: { style: none(), color: none() },
    mouth: { mouth_open: none() },
    head_pose: { pitch: 0, yaw: 0, roll: 0 },
  };
}

/** Which member of the answer each requested type fills (the contract's table, shared with the studio). */
const memberOf = (type: Exclude<AttributeType, 'None'>) => faceAttributeMembers[type] as keyof FaceAttributes;

/** The answer's members for the requested types, taken from what was measured; the rest stay empty. */
export function requestedAttributes(measured: Partial<FaceAttributes>, requested: readonly AttributeType[]): FaceAttributes {
  const out = emptyAttributes() as unknown as Record<string, unknown>;
  for (const type of requested) {
    if (type === 'None') continue;
    const member = memberOf(type);
    const v = measured[member];
    if (v === undefined) throw new Error(`face-analyzer measured no ${member} though ${type} was asked for`);
    out[member] = v;
  }
  return out as unknown as FaceAttributes;
}

/** The attribute families a request needs measured (the studio and the steps skip the rest). */
export function neededMembers(requested: readonly AttributeType[]): Set<keyof FaceAttributes> {
  return new Set(requested.flatMap((t) => (t === 'None' ? [] : [memberOf(t)])));
}
