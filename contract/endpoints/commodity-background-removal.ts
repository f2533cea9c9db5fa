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
  resultWord: 'cutout',
  summary: 'Cuts a product out of its background.',
  fields: {
    image: imageField(limits.product, 'Image', 'Product photo.'),
    return_form: enumField(['mask', 'whiteBK', 'crop'], 'Output form',
      'mask: single-channel mask; whiteBK: subject on white; crop: transparent PNG trimmed to the subject. Unset: transparent PNG.',
      { unsetLabel: 'Transparent', help: 'What comes back: the product on a transparent background, a black-and-white mask, the product on white, or transparent and trimmed tight to the product.', valueLabels: { mask: 'Mask', whiteBK: 'On white', crop: 'Trimmed' } }),
  },
  result: { shape: { data: { image_url: imageUrl() } } },
});
