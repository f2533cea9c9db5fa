/** A face-analyzer attribute block as the engine answers it: every member present, the unrequested ones zero. */
export const noAttribute = { type: 0, probability: 0 };

export const attributeBlock = (over: Record<string, unknown> = {}) => ({
  age: 0, beauty: 0, smile: 0,
  emotion: noAttribute, gender: noAttribute, mask: noAttribute, moustache: noAttribute, nose: noAttribute, shape: noAttribute, skin: noAttribute,
  eye: { glass: noAttribute, eye_open: noAttribute, eyelid_type: noAttribute, eye_size: noAttribute },
  eyebrow: { eyebrow_density: noAttribute, eyebrow_curve: noAttribute, eyebrow_length: noAttribute },
  hair: { length: noAttribute, bang: noAttribute, color: noAttribute },
  hat: { style: noAttribute, color: noAttribute },
  mouth: { mouth_open: noAttribute },
  head_pose: { pitch: 0, yaw: 0, roll: 0 },
  ...over,
});
