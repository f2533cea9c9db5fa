import { defineEndpoint } from '../endpoint.ts';
import { flagField, imageField } from '../fields.ts';
import { limits } from '../limits.ts';
import { taskResult } from '../result.ts';

export default defineEndpoint({
  slug: 'smart-skin-advanced',
  path: '/api/portrait/effects/smart-skin-advanced',
  method: 'POST',
  mode: 'async',
  group: 'portrait-effects',
  title: 'Skin retouch',
  resultWord: 'skin',
  summary: 'Retouches skin: blemishes, spots, tone, texture, wrinkles, under-eye. smart_skin=1 does all of it.',
  plainSummary: 'Retouches skin: blemishes, spots, tone, texture, wrinkles and under-eye. Smart skin does all of it, and so does leaving every switch off.',
  fields: {
    image: imageField(limits.portraitAsync, 'Image', 'Portrait.'),
    smart_skin: flagField('Smart skin', 'All-in-one beautification; overrides the other flags.', 'The whole retouch at once; the other switches are then ignored.'),
    acne_removal: flagField('Acne removal', 'Removes acne and blemishes.'),
    spot_correction: flagField('Spot correction', 'Evens spots and pigmentation.'),
    skin_brightening: flagField('Brightening', 'Brightens and evens tone.'),
    skin_smoothing: flagField('Smoothing', 'Smooths and refines texture.'),
    pore_control: flagField('Pore control', 'Reduces pores and shine.'),
    wrinkle_reduction: flagField('Wrinkle reduction', 'Softens wrinkles and fine lines.'),
    under_eye_correction: flagField('Under-eye', 'Lightens dark circles and bags.'),
    scar_reduction: flagField('Scar reduction', 'Softens scars and skin damage.'),
  },
  result: taskResult(),
});
