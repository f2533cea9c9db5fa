import { defineEndpoint } from '../endpoint.ts';
import { imageField } from '../fields.ts';
import { limits } from '../limits.ts';
import { taskResult } from '../result.ts';

export default defineEndpoint({
  slug: 'ai-red-lip-gloss',
  path: '/api/portrait/effects/ai-red-lip-gloss',
  method: 'POST',
  mode: 'async',
  group: 'portrait-effects',
  title: 'Red lip gloss',
  resultWord: 'gloss',
  summary: 'Adds glossy red lips to the 5 largest faces: a classic red with a highlight that follows the lips and the light.',
  fields: {
    image: imageField(limits.portraitAsyncSmall, 'Image', 'Portrait.'),
  },
  result: taskResult(),
});
