import { defineEndpoint } from '../endpoint.ts';
import { imageField, textField } from '../fields.ts';
import { limits } from '../limits.ts';
import { taskResult } from '../result.ts';

export default defineEndpoint({
  slug: 'ai-colored-contacts',
  path: '/api/portrait/editing/ai-colored-contacts',
  method: 'POST',
  mode: 'async',
  group: 'portrait-editing',
  title: 'Coloured contacts',
  resultWord: 'contacts',
  summary: 'Recolours the irises from a lens name or description; natural light brown when neither is given.',
  plainSummary: 'Recolours the irises as coloured contact lenses would. Violet is chosen to start with because it shows on every eye colour; with both boxes empty the engine uses natural light brown.',
  fields: {
    image: imageField(limits.fallback, 'Image', 'Portrait with open eyes.'),
    name: textField(200, 'Lens name', 'For example "Ocean Blue".', { help: 'A lens colour: pick one, or type any colour name or hex code.' }),
    desc: textField(1000, 'Description', 'For example "subtle hazel with a dark limbal ring".', { help: 'Optional, in your words: for example "subtle hazel with a dark ring" or "vivid blue, no ring".' }),
  },
  result: taskResult(),
});
