import { describe, expect, it } from 'vitest';
import { emptyAttributes, neededMembers, requestedAttributes, type FaceAttributes } from './answer.ts';

const measured: FaceAttributes = {
  ...emptyAttributes(),
  age: 41, smile: 80, beauty: 63,
  emotion: { type: 1, probability: 0.9 }, gender: { type: 0, probability: 0.97 },
  eye: { glass: { type: 1, probability: 0.8 }, eye_open: { type: 0, probability: 0.95 }, eyelid_type: { type: 1, probability: 0.7 }, eye_size: { type: 1, probability: 0.6 } },
  head_pose: { pitch: -3, yaw: 12, roll: 1 },
};

describe('face-analyzer answer', () => {
  it('fills only the requested families; every member is there, the rest type 0 probability 0', () => {
    const a = requestedAttributes(measured, ['Age', 'Eye']);
    expect(a.age).toBe(41);
    expect(a.eye.glass).toEqual({ type: 1, probability: 0.8 });
    expect(a.smile).toBe(0);
    expect(a.emotion).toEqual({ type: 0, probability: 0 });
    expect(a.head_pose).toEqual({ pitch: 0, yaw: 0, roll: 0 });
    expect(Object.keys(a).sort()).toEqual(Object.keys(emptyAttributes()).sort());
  });

  it('None asks for nothing', () => {
    expect(requestedAttributes(measured, ['None'])).toEqual(emptyAttributes());
    expect(neededMembers(['None']).size).toBe(0);
    expect([...neededMembers(['Headpose', 'Smile'])].sort()).toEqual(['head_pose', 'smile']);
  });

  it('refuses to answer a family that was asked for but not measured', () => {
    expect(() => requestedAttributes({ age: 3 }, ['Gender'])).toThrow(/gender/);
  });
});
