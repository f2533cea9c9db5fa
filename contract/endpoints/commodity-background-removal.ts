import { defineEndpoint } from '../endpoint.ts';
import { enumField, imageField } from '../fields.ts';
import { limits } from '../limits.ts';
import { imageUrl } from '../result.ts';

export default defineEndpoint({
  slug: 'commodity-background-removal',
  path: '/api/cutout/general/commodity-background-removal',
  method: 'POST',
  mode: 'sync',
  group: 'cutout',
  title: 'Product background removal',
  summary: 'Cuts a product out of its background.',
  fields: {
    image: imageField(limits.product, 'Image', 'Product photo.'),
    return_form: enumField(['mask', 'whiteBK', 'crop'], 'Output form',
      'mask: single-channel mask; whiteBK: subject on white; crop: transparent PNG trimmed to the subject. Unset: transparent PNG.'),
  },
  result: { shape: { data: { image_url: imageUrl() } } },
});
