import { defineEndpoint } from '../endpoint.ts';
import { imageField, intField } from '../fields.ts';
import { limits } from '../limits.ts';
import { imageUrl, value } from '../result.ts';

export default defineEndpoint({
  slug: 'image-cropping',
  path: '/api/image/editing/image-cropping',
  method: 'POST',
  mode: 'sync',
  group: 'image-editing',
  title: 'Smart crop',
  resultWord: 'crop',
  summary: 'Crops around the main subject to the target size.',
  fields: {
    image: imageField(limits.cropping, 'Image', 'Photo to crop.'),
    width: intField(1, 4096, 'Width', 'Target width in pixels.', { required: true }),
    height: intField(1, 4096, 'Height', 'Target height in pixels.', { required: true }),
  },
  result: {
    shape: {
      data: {
        url: imageUrl('result', 'Crop'),
        retain_location: value('retain_location', 'object', 'The window kept, in the input\'s pixels: {x, y, width, height}.'),
      },
    },
  },
});
