import { defineEndpoint } from '../endpoint.ts';
import { csvSetField, enumField, imageField, intField } from '../fields.ts';
import { limits } from '../limits.ts';
import { imageUrl, imageUrls } from '../result.ts';

export const garmentClasses = ['tops', 'coat', 'skirt', 'pants', 'bag', 'shoes', 'hat'] as const;

export default defineEndpoint({
  slug: 'apparel-background-removal',
  path: '/api/cutout/general/apparel-background-removal',
  method: 'POST',
  mode: 'sync',
  group: 'cutout',
  title: 'Apparel background removal',
  resultWord: 'clothing',
  summary: 'Cuts out the clothing of the main person, whole or by garment class.',
  fields: {
    image: imageField(limits.apparel, 'Image', 'Photo of a person wearing the clothes, or of a garment alone.'),
    out_mode: intField(0, 1, 'Output mode', '0: all the clothing as one cutout; 1: the union of the classes in cloth_class.', { default: 0, help: 'One cutout of all the clothing, or only the garment classes chosen below.', valueLabels: { 0: 'All clothing', 1: 'Only the selected classes' } }),
    cloth_class: csvSetField(garmentClasses, 'Garment classes', 'Classes to cut out, one result each.', { default: ['tops'] }),
    return_form: enumField(['mask', 'whiteBK'], 'Output form', 'mask: single-channel mask; whiteBK: on white. Unset: transparent PNG.',
      { unsetLabel: 'Transparent', help: 'What comes back: the clothing on a transparent background, a black-and-white mask, or the clothing on white.', valueLabels: { mask: 'Mask', whiteBK: 'On white' } }),
  },
  result: { shape: { data: { elements: [{ image_url: imageUrl('result', 'All garments') }, { class_url: imageUrls('class:') }] } } },
});
