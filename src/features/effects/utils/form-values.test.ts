import { describe, expect, it } from 'vitest';
import { endpoints } from '../../../../contract/index.ts';
import { blockingReason, initialValues, serializeValues } from './form-values.ts';

const photo = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'photo.png', { type: 'image/png' });

describe('initial values come from the contract', () => {
  it('fills defaults by kind', () => {
    expect(initialValues(endpoints.faceBeauty)).toMatchObject({ sharp: 0.3, smooth: 0.5, white: 0.3 });
    expect(initialValues(endpoints.apparelBackgroundRemoval)).toMatchObject({ out_mode: false, cloth_class: ['tops'], return_form: undefined });
    expect(initialValues(endpoints.faceAnalyzer)).toMatchObject({ max_face_num: 1, face_attributes_type: ['None'], need_rotate_detection: false });
    expect(initialValues(endpoints.imageCropping)).toMatchObject({ width: undefined, height: undefined });
  });
});

describe('serializeValues', () => {
  it('sends flags as 0/1, sets as comma lists and leaves unset enums out', () => {
    const values = { ...initialValues(endpoints.apparelBackgroundRemoval), image: photo(), out_mode: true, cloth_class: ['tops', 'bag'] };
    const s = serializeValues(endpoints.apparelBackgroundRemoval, values);
    expect(s.params).toEqual({ out_mode: '1', cloth_class: 'tops,bag' });
    expect(Object.keys(s.images)).toEqual(['image']);
  });

  it('writes lip colours as the JSON string the contract describes', () => {
    const values = { image: photo(), lip_color_infos: [{ color: '#ff8000', opacity: 40 }, { color: '#000010', opacity: 100 }] };
    const s = serializeValues(endpoints.lipsColorChanger, values);
    expect(JSON.parse(s.params.lip_color_infos)).toEqual([{ rgba: { r: 255, g: 128, b: 0, a: 40 } }, { rgba: { r: 0, g: 0, b: 16, a: 100 } }]);
    const face = { x: 10, y: 20, width: 30, height: 40 };
    const withFace = serializeValues(endpoints.lipsColorChanger, { ...values, lip_color_infos: [{ color: '#ff8000', opacity: 40, face }] });
    expect(JSON.parse(withFace.params.lip_color_infos)).toEqual([{ rgba: { r: 255, g: 128, b: 0, a: 40 }, face_rect: face }]);
  });

  it('leaves empty text out', () => {
    const s = serializeValues(endpoints.aiColoredContacts, { image: photo(), name: '  ', desc: 'hazel' });
    expect(s.params).toEqual({ desc: 'hazel' });
  });
});

describe('blockingReason', () => {
  it('asks for the photo first', () => {
    expect(blockingReason(endpoints.commodityBackgroundRemoval, initialValues(endpoints.commodityBackgroundRemoval))).toBe('Add a photo to run.');
  });

  it('names a missing required number by its label', () => {
    const values = { ...initialValues(endpoints.imageCropping), image: photo(), height: 100 };
    expect(blockingReason(endpoints.imageCropping, values)).toBe('Width is required.');
  });

  it('explains a oneOf group', () => {
    const values = { ...initialValues(endpoints.aiBeardStyling), image: photo() };
    expect(blockingReason(endpoints.aiBeardStyling, values)).toBe('Choose a beard preset or add a reference image to run.');
    expect(blockingReason(endpoints.aiBeardStyling, { ...values, beard: 'Goatee' })).toBeNull();
  });

  it('passes values through the contract validator', () => {
    const values = { ...initialValues(endpoints.imageCropping), image: photo(), width: 5000, height: 100 };
    expect(blockingReason(endpoints.imageCropping, values)).toMatch(/^width: expected an integer from 1 to 4096, got "5000"/);
  });

  it('is null when everything required is there', () => {
    expect(blockingReason(endpoints.commodityBackgroundRemoval, { image: photo() })).toBeNull();
  });
});
