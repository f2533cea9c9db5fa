import { describe, expect, it } from 'vitest';
import { limits } from '../../../../contract/limits.ts';
import { fitNote, planFit, renamed } from './fit-to-limits.ts';

const MB = 1024 * 1024;

describe('planFit: what a photo needs to fit an effect', () => {
  it('downsizes a phone photo to the longest side allowed, keeping its shape', () => {
    expect(planFit({ bytes: 2.5 * MB, format: 'jpeg', width: 4032, height: 3024 }, limits.product)).toEqual({ width: 1999, height: 1499, convert: false });
    expect(planFit({ bytes: 2 * MB, format: 'jpeg', width: 2400, height: 3600 }, limits.apparel)).toEqual({ width: 1999, height: 2999, convert: false });
  });

  it('converts formats the effect does not take, and refused PNG depths, at the same size', () => {
    expect(planFit({ bytes: 100_000, format: 'webp', width: 800, height: 600 }, limits.product)).toEqual({ width: 800, height: 600, convert: true });
    expect(planFit({ bytes: 100_000, format: 'gif', width: 320, height: 200 }, limits.cropping)).toEqual({ width: 320, height: 200, convert: true });
    expect(planFit({ bytes: 100_000, format: 'png', width: 800, height: 600, pngBitsPerPixel: 8 }, limits.product)).toEqual({ width: 800, height: 600, convert: true });
    expect(planFit({ bytes: 100_000, format: 'png', width: 800, height: 600, pngBitsPerPixel: 8 }, limits.apparel)).toBeNull();
  });

  it('re-encodes a file only too heavy, enlarges one too small, and leaves what it cannot decode', () => {
    expect(planFit({ bytes: 4 * MB, format: 'png', width: 1500, height: 1500, pngBitsPerPixel: 32 }, limits.product)).toEqual({ width: 1500, height: 1500, convert: false });
    expect(planFit({ bytes: 1000, format: 'jpeg', width: 40, height: 300 }, limits.apparel)).toEqual({ width: 51, height: 383, convert: false });
    expect(planFit({ bytes: 1000, format: 'heic', decodeFailed: true }, limits.product)).toBeNull();
    expect(planFit({ bytes: 1000, format: null }, limits.product)).toBeNull();
    expect(planFit({ bytes: 1000, format: 'jpeg', width: 1999, height: 1999 }, limits.product)).toBeNull();
  });
});

describe('fitNote: one line saying what was done', () => {
  it('says resized, converted, or both', () => {
    expect(fitNote({ bytes: 3e6, format: 'jpeg', width: 4032, height: 3024 }, { width: 1999, height: 1499, type: 'image/jpeg', bytes: 9e5 })).toBe(
      'Resized from 4032×3024 to 1999×1499 to fit this effect.',
    );
    expect(fitNote({ bytes: 3e5, format: 'webp', width: 800, height: 600 }, { width: 800, height: 600, type: 'image/png', bytes: 9e5 })).toBe('Converted from WEBP to PNG to fit this effect.');
    expect(fitNote({ bytes: 3e6, format: 'heic', width: 4032, height: 3024 }, { width: 1999, height: 1499, type: 'image/jpeg', bytes: 9e5 })).toBe(
      'Converted from HEIC to JPEG and resized from 4032×3024 to 1999×1499 to fit this effect.',
    );
    expect(fitNote({ bytes: 9e4, format: 'png', width: 800, height: 600, pngBitsPerPixel: 8 }, { width: 800, height: 600, type: 'image/png', bytes: 3e5 })).toBe(
      'Converted from 8-bit PNG to full-colour PNG to fit this effect.',
    );
    expect(fitNote({ bytes: 4 * MB, format: 'png', width: 10, height: 10 }, { width: 10, height: 10, type: 'image/png', bytes: 2 * MB })).toBe('Re-encoded as PNG (4 MB → 2 MB) to fit this effect.');
  });

  it('keeps the photo’s name', () => {
    expect(renamed('car.webp', 'image/jpeg')).toBe('car.jpg');
    expect(renamed('scan.final.gif', 'image/png')).toBe('scan.final.png');
  });
});
