/**
 * What the face analyzer's attribute codes mean (docs/interface.md#face-analyzer), as data: for each
 * attribute type that `face_attributes_type` can ask for, the members of `face_detail_attributes_info` it fills, and for each
 * coded member the word of every code. The studio reads this to put answers into words; the engine's
 * documentation can read the same tables.
 *
 * A member that was not asked for (or that belongs to the 6th face on) carries type 0 and probability 0, and
 * a number member 0: code 0 alone is a real answer (neutral, male, ...), only together with probability 0
 * does it mean "not requested".
 */
import type { faceAttributeTypes } from './endpoints/face-analyzer.ts';

/** A value of `face_attributes_type` that asks for something (None asks for nothing). */
export type FaceAttributeType = Exclude<(typeof faceAttributeTypes)[number], 'None'>;

export type FaceAttributeMember =
  /** `{type, probability}`; `codes[type]` is the word. `path` is the member's place in face_detail_attributes_info. */
  | { kind: 'coded'; path: readonly [string] | readonly [string, string]; label: string; codes: readonly string[] }
  /** A number in 0..max; `capped` means the top value stands for "max or more" (age 65 is 65+). */
  | { kind: 'number'; path: readonly [string]; label: string; max: number; capped?: boolean; unit?: string }
  /** `{pitch, yaw, roll}` in degrees. */
  | { kind: 'angles'; path: readonly [string]; label: string; angles: readonly string[]; unit: 'degrees' };

export interface FaceAttributeFamily {
  type: FaceAttributeType;
  /** The family's name in words. */
  label: string;
  members: readonly FaceAttributeMember[];
}

const coded = (path: readonly [string] | readonly [string, string], label: string, codes: readonly string[]): FaceAttributeMember =>
  ({ kind: 'coded', path, label, codes });

/** Attributes are computed for this many faces at most, the largest (docs/interface.md#face-analyzer). */
export const FACE_ATTRIBUTE_FACES = 5;

/** Every family in the order the studio lists them: the often-asked ones first. */
export const faceAttributeFamilies: readonly FaceAttributeFamily[] = [
  { type: 'Age', label: 'Age', members: [{ kind: 'number', path: ['age'], label: 'Age', max: 65, capped: true, unit: 'years' }] },
  { type: 'Gender', label: 'Gender', members: [coded(['gender'], 'Gender', ['male', 'female'])] },
  {
    type: 'Emotion',
    label: 'Emotion',
    members: [coded(['emotion'], 'Emotion', ['neutral', 'happy', 'surprised', 'angry', 'sad', 'disgusted', 'fearful'])],
  },
  { type: 'Smile', label: 'Smile', members: [{ kind: 'number', path: ['smile'], label: 'Smile', max: 100 }] },
  { type: 'Beauty', label: 'Beauty', members: [{ kind: 'number', path: ['beauty'], label: 'Beauty', max: 100 }] },
  {
    type: 'Headpose',
    label: 'Head pose',
    members: [{ kind: 'angles', path: ['head_pose'], label: 'Head pose', angles: ['yaw', 'pitch', 'roll'], unit: 'degrees' }],
  },
  {
    type: 'Eye',
    label: 'Eyes',
    members: [
      coded(['eye', 'glass'], 'Glasses', ['none', 'glasses', 'sunglasses']),
      // The member is named eye_open but answers "eyes closed": 0 open, 1 closed.
      coded(['eye', 'eye_open'], 'Eyes', ['open', 'closed']),
      coded(['eye', 'eyelid_type'], 'Eyelids', ['single', 'double']),
      coded(['eye', 'eye_size'], 'Eye size', ['small', 'regular', 'large']),
    ],
  },
  {
    type: 'Eyebrow',
    label: 'Eyebrows',
    members: [
      coded(['eyebrow', 'eyebrow_density'], 'Eyebrow density', ['sparse', 'thick']),
      coded(['eyebrow', 'eyebrow_curve'], 'Eyebrow curve', ['straight', 'curved']),
      coded(['eyebrow', 'eyebrow_length'], 'Eyebrow length', ['short', 'long']),
    ],
  },
  {
    type: 'Hair',
    label: 'Hair',
    members: [
      coded(['hair', 'length'], 'Hair length', ['bald', 'short', 'medium', 'long', 'tied']),
      coded(['hair', 'bang'], 'Fringe', ['none', 'fringe']),
      coded(['hair', 'color'], 'Hair colour', ['black', 'blonde', 'brown', 'grey/white']),
    ],
  },
  {
    type: 'Hat',
    label: 'Hat',
    members: [
      coded(['hat', 'style'], 'Hat', ['none', 'hat', 'helmet', 'safety hat']),
      coded(['hat', 'color'], 'Hat colour', ['none', 'red', 'yellow', 'blue', 'black', 'grey/white', 'mixed']),
    ],
  },
  { type: 'Mask', label: 'Mask', members: [coded(['mask'], 'Mask', ['none', 'worn not covering', 'covering chin', 'covering mouth', 'worn correctly'])] },
  { type: 'Mouth', label: 'Mouth', members: [coded(['mouth', 'mouth_open'], 'Mouth', ['closed', 'open'])] },
  { type: 'Moustache', label: 'Moustache', members: [coded(['moustache'], 'Moustache', ['none', 'present'])] },
  { type: 'Nose', label: 'Nose', members: [coded(['nose'], 'Nose', ['upturned', 'hooked', 'normal', 'round-tipped'])] },
  { type: 'Shape', label: 'Face shape', members: [coded(['shape'], 'Face shape', ['square', 'triangular', 'oval', 'heart', 'round'])] },
  { type: 'Skin', label: 'Skin colour', members: [coded(['skin'], 'Skin colour', ['yellow', 'brown', 'black', 'white'])] },
];

/** The top-level member of face_detail_attributes_info each attribute type fills. */
export const faceAttributeMembers = Object.fromEntries(faceAttributeFamilies.map((f) => [f.type, f.members[0].path[0]])) as Readonly<
  Record<FaceAttributeType, string>
>;
