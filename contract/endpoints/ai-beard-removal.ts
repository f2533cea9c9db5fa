import { defineEndpoint } from '../endpoint.ts';
import { imageField } from '../fields.ts';
import { limits } from '../limits.ts';
import { taskResult } from '../result.ts';

export default defineEndpoint({
  slug: 'ai-beard-removal',
  path: '/api/portrait/editing/ai-beard-removal',
  method: 'POST',
  mode: 'async',
  group: 'portrait-editing',
  title: 'Beard removal',
  resultWord: 'no-beard',
  summary: 'Removes facial hair.',
  fields: {
    image: imageField(limits.portraitAsync, 'Image', 'Portrait.'),
  },
  result: taskResult(),
});
