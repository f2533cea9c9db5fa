import { describe, expect, it } from 'vitest';
import { faceAttributeTypes } from '../../../../contract/endpoints/face-analyzer.ts';
import { faceAttributeFamilies, faceAttributeMembers } from '../../../../contract/face-attributes.ts';
import { boxToDisplay, degrees, faceSummary, readFace, readFaceAnswer, requestedFamilies } from './face-analysis.ts';
import type { Face, FaceReading } from './face-analysis.ts';
import { attributeBlock, noAttribute } from './face-answer.fixture.ts';

const none = noAttribute;
const attrs = attributeBlock;
const face = (number: number, a: Record<string, unknown> | undefined): Face => ({ number, rect: { x: 0, y: 0, width: 10, height: 10 }, attributes: a });

const rows = (r: FaceReading) => (r.attributes ? Object.fromEntries(r.families.flatMap((f) => (f.requested ? f.rows.map((x) => [x.label, x.value]) : [[f.family.label, 'not requested']]))) : {});

describe('contract face attribute tables', () => {
  it('describe every attribute type but None once, each filling a member of the answer', () => {
    expect(faceAttributeFamilies.map((f) => f.type).sort()).toEqual(faceAttributeTypes.filter((t) => t !== 'None').sort());
    const members = Object.keys(attrs());
    for (const f of faceAttributeFamilies) for (const m of f.members) expect(members, f.type).toContain(m.path[0]);
    expect(new Set(Object.values(faceAttributeMembers)).size).toBe(16);
  });
});

describe('readFaceAnswer', () => {
  it('numbers the faces in answer order and keeps boxes past the edge', () => {
    const a = readFaceAnswer({
      request_id: 'r', image_width: 640, image_height: 480,
      face_detail_infos: [{ face_rect: { x: -12, y: 5, width: 100, height: 120 }, face_detail_attributes_info: attrs() }, { face_rect: { x: 1, y: 2, width: 3 } }, { face_rect: { x: 300, y: 400, width: 50, height: 60 } }],
    });
    expect(a.image).toEqual({ width: 640, height: 480 });
    expect(a.faces.map((f) => [f.number, f.rect.x])).toEqual([[1, -12], [3, 300]]);
    expect(a.faces[1].attributes).toBeUndefined();
    expect(readFaceAnswer(null)).toEqual({ image: undefined, faces: [] });
  });
});

describe('readFace', () => {
  const measured = attrs({
    age: 65, smile: 80, beauty: 63.25,
    emotion: { type: 1, probability: 0.93 },
    gender: { type: 0, probability: 0.97 },
    eye: { glass: { type: 0, probability: 0.88 }, eye_open: { type: 1, probability: 0.6 }, eyelid_type: { type: 1, probability: 0.7 }, eye_size: { type: 9, probability: 0.5 } },
    head_pose: { pitch: -3, yaw: 12, roll: 1 },
  });

  it('puts codes into words with percentages, age 65 as 65+, and head pose in degrees', () => {
    const r = rows(readFace(face(1, measured)));
    expect(r).toMatchObject({
      Age: '65+', Smile: '80 / 100', Beauty: '63.3 / 100', Emotion: 'happy · 93%', Gender: 'male · 97%',
      Glasses: 'none · 88%', Eyes: 'closed · 60%', Eyelids: 'double · 70%', 'Eye size': 'code 9 · 50%',
      'Head pose': 'yaw 12°, pitch −3°, roll 1°',
    });
  });

  it('tells unrequested families by their zeros when the request is not known: code 0 with probability 0 is not "neutral"', () => {
    const r = rows(readFace(face(1, measured)));
    expect(r).toMatchObject({ Mask: 'not requested', Hair: 'not requested', 'Face shape': 'not requested' });
    // Code 0 with a probability is an answer.
    expect(r.Gender).toBe('male · 97%');
  });

  it('follows the request where it is known', () => {
    const r = rows(readFace(face(2, measured), requestedFamilies('Age, Emotion,Mask')));
    expect(r).toMatchObject({ Age: '65+', Emotion: 'happy · 93%', Mask: 'none · 0%', Gender: 'not requested', Eyes: 'not requested' });
    expect(rows(readFace(face(1, measured), requestedFamilies('None')))).toMatchObject({ Age: 'not requested', Emotion: 'not requested' });
  });

  it('gives no attributes from the 6th face on, whatever the request', () => {
    expect(readFace(face(6, measured), requestedFamilies('Age'))).toEqual({ attributes: false });
    expect(readFace(face(5, measured)).attributes).toBe(true);
    expect(readFace(face(1, undefined))).toEqual({ attributes: false });
  });

  it('summarises age, gender and emotion for the list', () => {
    expect(faceSummary(readFace(face(1, measured)))).toBe('age 65+ · male · happy');
    expect(faceSummary(readFace(face(7, measured)))).toBe('');
  });
});

describe('geometry and numbers', () => {
  it('maps boxes through the contained photo, unclipped', () => {
    // A 1000×500 photo in an 800×800 frame: scale 0.8, 400 px tall.
    expect(boxToDisplay({ x: -50, y: 100, width: 200, height: 250 }, { width: 1000, height: 500 }, { width: 1000, height: 500 }, { width: 800, height: 800 })).toEqual({ x: -40, y: 80, width: 160, height: 200 });
    // Boxes in answer pixels on a photo decoded at half size.
    expect(boxToDisplay({ x: 100, y: 100, width: 100, height: 100 }, { width: 1000, height: 500 }, { width: 500, height: 250 }, { width: 500, height: 250 })).toEqual({ x: 50, y: 50, width: 50, height: 50 });
  });

  it('writes degrees with a true minus', () => {
    expect(degrees(-3)).toBe('−3°');
    expect(degrees(12.345)).toBe('12.3°');
  });
});
