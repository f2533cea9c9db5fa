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
  summary: 'Sharpens, smooths and whitens the face.',
  fields: {
    image: imageField(limits.faceBeauty, 'Image', 'Portrait.'),
    sharp: numberField(0, 1, 'Sharpen', 'Sharpening degree.', { default: 0.3 }),
    smooth: numberField(0, 1, 'Smooth', 'Smoothing degree.', { default: 0.5 }),
    white: numberField(0, 1, 'Whiten', 'Whitening degree.', { default: 0.3 }),
  },
  result: { shape: { data: { image_url: imageUrl() } } },
});
