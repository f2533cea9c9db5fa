import { defineEndpoint } from '../endpoint.ts';
import { csvSetField, flagField, imageField } from '../fields.ts';
import { limits } from '../limits.ts';
import { imagesBase64, value } from '../result.ts';

export const skinMaps = [
  'red_area', 'brown_area', 'texture_enhanced_pores', 'texture_enhanced_blackheads',
  'texture_enhanced_oily_area', 'texture_enhanced_lines',
] as const;

export default defineEndpoint({
  slug: 'skin-analysis-advanced',
  path: '/api/portrait/analysis/skin-analysis-advanced',
  method: 'POST',
  mode: 'sync',
  group: 'portrait-analysis',
  title: 'Skin analysis',
  resultWord: 'skin-map',
  summary: 'Measures skin type, colour, wrinkles, pores, spots and more on the main face.',
  fields: {
    image: imageField(limits.fallback, 'Image', 'Frontal portrait.'),
    face_quality_control: flagField('Face quality check', 'Refuse faces that are too small or blurred.'),
    return_rect_confidence: flagField('Region confidence', 'Return confidence for acne, blemish and mole regions.', 'Also say how sure the analysis is of each acne spot, blemish and mole it marks.'),
    return_maps: csvSetField(skinMaps, 'Skin maps', 'Maps returned as base64 images in face_maps.', {
      help: 'Maps to draw over the photo, each showing where one thing is on the skin.',
      valueLabels: {
        red_area: 'Redness', brown_area: 'Brown spots', texture_enhanced_pores: 'Pores', texture_enhanced_blackheads: 'Blackheads',
        texture_enhanced_oily_area: 'Oily areas', texture_enhanced_lines: 'Lines',
      },
    }),
  },
  result: {
    shape: {
      warning: value('warning', 'array', 'Notes on the input, e.g. "imporper_headpose" past 45 degrees.'),
      face_rectangle: value('face_rectangle', 'object', 'The analysed face: top, left, width, height.'),
      result: value('result', 'object', 'The measurements, each {value, confidence} unless noted.'),
      face_maps: imagesBase64('map:'),
    },
  },
});
