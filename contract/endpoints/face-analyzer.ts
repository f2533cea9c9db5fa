import { defineEndpoint } from '../endpoint.ts';
import { csvSetField, flagField, imageField, intField } from '../fields.ts';
import { limits } from '../limits.ts';
import { value } from '../result.ts';

export const faceAttributeTypes = [
  'None', 'Age', 'Beauty', 'Emotion', 'Eye', 'Eyebrow', 'Gender', 'Hair', 'Hat', 'Headpose', 'Mask', 'Mouth',
  'Moustache', 'Nose', 'Shape', 'Skin', 'Smile',
] as const;

export default defineEndpoint({
  slug: 'face-analyzer',
  path: '/api/portrait/analysis/face-analyzer',
  method: 'POST',
  mode: 'sync',
  group: 'portrait-analysis',
  title: 'Face analyzer',
  resultWord: 'faces',
  summary: 'Finds faces and reports age, gender, emotion, head pose and other attributes for the 5 largest.',
  fields: {
    image: imageField(limits.faceAnalyzer, 'Image', 'Photo with faces.'),
    max_face_num: intField(1, 120, 'Max faces', 'How many faces to report, largest first.', { default: 1 }),
    face_attributes_type: csvSetField(faceAttributeTypes, 'Attributes', 'Attributes to compute.', {
      default: ['None'],
      help: 'What to report about each face besides where it is. All are ticked here; asked through the API without any, only the boxes come back.',
      valueLabels: { None: 'None (boxes only)', Headpose: 'Head pose', Eye: 'Eyes', Eyebrow: 'Eyebrows' },
    }),
    need_rotate_detection: flagField('Rotation search', 'Also look for faces rotated 90/180/270 degrees.', 'Also look for faces lying on their side or upside down.'),
  },
  result: {
    shape: {
      image_width: value('image_width', 'integer', 'Width of the input in pixels, orientation applied.'),
      image_height: value('image_height', 'integer', 'Height of the input in pixels, orientation applied.'),
      face_detail_infos: value('face_detail_infos', 'array', 'One entry per face, largest first: face_rect and face_detail_attributes_info.'),
    },
  },
});
