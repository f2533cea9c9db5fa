import { defineEndpoint } from '../endpoint.ts';
import { imageField } from '../fields.ts';
import { limits } from '../limits.ts';
import { taskResult } from '../result.ts';

export default defineEndpoint({
  slug: 'ai-square-face-filter',
  path: '/api/portrait/effects/ai-square-face-filter',
  method: 'POST',
  mode: 'async',
  group: 'portrait-effects',
  title: 'Square face avatar',
  resultWord: 'square-face',
  summary: 'Turns the portrait into a rounded-square cartoon avatar that keeps the likeness.',
  fields: {
    image: imageField(limits.portraitAsyncSmall, 'Image', 'Portrait.'),
  },
  result: taskResult(),
});
