import { defineEndpoint } from '../endpoint.ts';
import { enumField, imageField } from '../fields.ts';
import { limits } from '../limits.ts';
import { taskResult } from '../result.ts';

export const beardPresets = [
  'FullBeardClassic', 'CorporateBeard', 'Garibaldi', 'Verdi', 'FullBeardTapered', 'VanDyke', 'Bandholz',
  'VanDykeRefined', 'Goatee', 'ExtendedGoatee', 'Balbo', 'AnchorBeardClean', 'DucktailBeardPointed',
  'AnchorBeardFull', 'DucktailBeardFull', 'HeavyStubble', 'ChevronMoustache', 'HandlebarMoustache',
  'ImperialMoustache', 'CircleBeard', 'ChinStrap', 'MuttonChops', 'SoulPatch', 'PetiteGoatee',
] as const;

export default defineEndpoint({
  slug: 'ai-beard-styling',
  path: '/api/portrait/editing/ai-beard-styling',
  method: 'POST',
  mode: 'async',
  group: 'portrait-editing',
  title: 'Beard styling',
  resultWord: 'beard',
  summary: 'Gives the face a beard, from a preset or from a reference photo. The preset wins when both are given.',
  fields: {
    image: imageField(limits.portraitAsync, 'Image', 'Portrait to modify.', { aliases: ['0.image'] }),
    beard: enumField(beardPresets, 'Beard preset', 'Built-in beard style.', { oneOf: 'beard-source' }),
    image_template: imageField(limits.portraitAsync, 'Reference image', 'Photo whose beard is transferred; ignored when beard is given.',
      { required: false, oneOf: 'beard-source', aliases: ['1.image_template'], ignoredWith: 'beard', help: 'A photo whose beard is copied onto the portrait; not used when a preset is chosen.' }),
  },
  result: taskResult(),
});
