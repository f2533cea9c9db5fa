import { defineEndpoint } from '../endpoint.ts';
import { imageField, numberField } from '../fields.ts';
import { limits } from '../limits.ts';
import { imageUrl } from '../result.ts';

export default defineEndpoint({
  slug: 'face-beauty',
  path: '/api/portrait/effects/face-beauty',
  method: 'POST',
  mode: 'sync',
  group: 'portrait-effects',
  title: 'Face beauty',
  resultWord: 'beauty',
  summary: 'Sharpens, smooths and whitens the face.',
  fields: {
    image: imageField(limits.faceBeauty, 'Image', 'Portrait.'),
    sharp: numberField(0, 1, 'Sharpen features', 'Crisper eyes, brows, lips and hair. 0 leaves them as they are, 1 is the strongest.', { default: 0.3 }),
    smooth: numberField(0, 1, 'Smooth skin', 'Evens out blotches and small blemishes while pores and texture stay; eyes, brows and lips are left sharp. 0 is off.', { default: 0.5 }),
    white: numberField(0, 1, 'Brighten skin', 'Lighter, more even skin tone without changing its hue; hair, eyes and background are untouched. 0 is off.', { default: 0.3 }),
  },
  result: { shape: { data: { image_url: imageUrl() } } },
});
