/**
 * The throwaway 16th effect's endpoint, as contract/endpoints/<slug>.ts would hold it (docs/adding-an-effect.md).
 * The test serves it through the engine's extraEndpoints instead of a line in contract/index.ts.
 */
import { defineEndpoint } from '../../../contract/endpoint.ts';
import { enumField, imageField } from '../../../contract/fields.ts';
import { limits } from '../../../contract/limits.ts';
import { imageBase64 } from '../../../contract/result.ts';

export default defineEndpoint({
  slug: 'test-image-flip',
  path: '/api/image/editing/test-image-flip',
  method: 'POST',
  mode: 'sync',
  group: 'image-editing',
  title: 'Image flip',
  summary: 'Mirrors the image left to right, or top to bottom.',
  resultWord: 'flipped',
  fields: {
    image: imageField(limits.fallback, 'Image', 'Any photo.'),
    direction: enumField(['horizontal', 'vertical'], 'Direction', 'horizontal: left and right swap; vertical: top and bottom swap.', { default: 'horizontal' }),
  },
  result: { shape: { result_image: imageBase64() } },
});
