import { defineEndpoint } from '../endpoint.ts';
import { imageField } from '../fields.ts';
import type { LipColorsField } from '../fields.ts';
import { limits } from '../limits.ts';
import { imageBase64 } from '../result.ts';

const lipColorInfos = {
  kind: 'lip-colors',
  label: 'Lip colours',
  description: 'Up to 3 colours, each {rgba:{r,g,b,a}, face_rect?}; a is opacity in percent; face_rect picks the face it overlaps most (default: the largest face).',
  help: 'Up to 3 colours. Opacity is how strongly a colour covers the lips. Each colour goes to the face you pick on the photo below, or to the largest face.',
  required: true,
  maxItems: 3,
} as const satisfies LipColorsField;

export default defineEndpoint({
  slug: 'lips-color-changer',
  path: '/api/portrait/effects/lips-color-changer',
  method: 'POST',
  mode: 'sync',
  group: 'portrait-effects',
  title: 'Lip colour',
  resultWord: 'lips',
  summary: 'Colours the lips of one or more faces.',
  fields: {
    image: imageField(limits.lipsColor, 'Image', 'Portrait.'),
    lip_color_infos: lipColorInfos,
  },
  result: { shape: { result_image: imageBase64() } },
});
