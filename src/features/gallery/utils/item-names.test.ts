import { describe, expect, it } from 'vitest';
import { optionsText } from './item-names.ts';

describe('optionsText', () => {
  it('names chosen sets in the contract\'s plain words, not the values sent', () => {
    expect(optionsText({ slug: 'skin-analysis-advanced', params: { return_maps: 'red_area,brown_area' } })).toBe('Redness, Brown spots');
    expect(optionsText({ slug: 'face-analyzer', params: { face_attributes_type: 'Age,Headpose' } })).toBe('Age, Head pose');
    expect(optionsText({ slug: 'apparel-background-removal', params: { cloth_class: 'tops,pants' } })).toBe('tops, pants');
  });
});
