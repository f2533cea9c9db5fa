import { defineEndpoint } from '../endpoint.ts';
import { enumField, imageField } from '../fields.ts';
import { limits } from '../limits.ts';
import { taskResult } from '../result.ts';

export const hairLossLevels = [
  'man_1', 'man_2', 'man_3', 'man_4', 'man_5', 'man_6', 'man_7',
  'woman_1', 'woman_2', 'woman_3', 'woman_4', 'woman_5', 'woman_6', 'woman_7',
] as const;

export default defineEndpoint({
  slug: 'ai-hair-loss-simulation',
  path: '/api/portrait/editing/ai-hair-loss-simulation',
  method: 'POST',
  mode: 'async',
  group: 'portrait-editing',
  title: 'Hair loss simulation',
  resultWord: 'hair-loss',
  summary: 'Shows a stage of hair loss: man_1..7 (receding), woman_1..7 (diffuse thinning).',
  plainSummary: 'Shows a stage of hair loss: seven stages of a receding hairline (men) and seven of thinning all over (women).',
  fields: {
    image: imageField(limits.portraitAsync, 'Image', 'Portrait.'),
    level: enumField(hairLossLevels, 'Stage', '1 is the mildest.', { required: true }),
  },
  result: taskResult(),
});
