import { describe, expect, it, vi, afterEach } from 'vitest';
import { limits } from '../../../../contract/limits.ts';
import { limitProblems, limitsHint } from './check-limits.ts';
import { measureImage } from './measure-image.ts';
import { sniffImage } from './sniff-image.ts';
import { jpegHeader, pngHeader } from '../../../testing/image-bytes.ts';

const MB = 1024 * 1024;

describe('limitProblems', () => {
  it('explains an oversized photo in words', () => {
    const problems = limitProblems({ bytes: 1 * MB, format: 'jpeg', width: 2400, height: 1800 }, limits.product, 'Product background removal');
    expect(problems).toEqual(['This photo is 2400×1800 px; product background removal accepts each side up to 1999 px.']);
  });

  it('explains file size, format and minimum side', () => {
    expect(limitProblems({ bytes: 4.2 * MB, format: 'png', width: 800, height: 600, pngBitsPerPixel: 32 }, limits.product, 'Product background removal')).toEqual([
      'This file is 4.2 MB; product background removal accepts files up to 3 MB.',
    ]);
    expect(limitProblems({ bytes: 1000, format: 'webp', width: 800, height: 600 }, limits.product, 'Product background removal')).toEqual([
      'This is a WEBP image; product background removal accepts JPEG, PNG or BMP.',
    ]);
    expect(limitProblems({ bytes: 1000, format: 'jpeg', width: 40, height: 300 }, limits.apparel, 'Apparel background removal')).toEqual([
      'This photo is 40×300 px; apparel background removal needs each side to be at least 51 px.',
    ]);
  });

  it('refuses the PNG depths the product endpoint does not take', () => {
    const [p] = limitProblems({ bytes: 1000, format: 'png', width: 100, height: 100, pngBitsPerPixel: 8 }, limits.product, 'Product background removal');
    expect(p).toBe('This PNG stores 8 bits per pixel; product background removal does not accept 8-bit, 16-bit or 64-bit PNGs. Save it as a 24- or 32-bit PNG, or as a JPEG.');
    expect(limitProblems({ bytes: 1000, format: 'png', width: 100, height: 100, pngBitsPerPixel: 8 }, limits.apparel, 'Apparel background removal')).toEqual([]);
  });

  it('says when the bytes are not an image at all, or do not decode', () => {
    expect(limitProblems({ bytes: 10, format: null }, limits.cropping, 'Smart crop')[0]).toMatch(/^This file is not a JPEG, PNG, BMP or WEBP image .*; smart crop accepts JPEG, PNG, BMP or WEBP\.$/);
    expect(limitProblems({ bytes: 10, format: 'jpeg', decodeFailed: true }, limits.cropping, 'Smart crop')).toEqual([
      'This file starts like a JPEG image but could not be decoded; it may be damaged or truncated.',
    ]);
  });

  it('accepts a photo within the limits', () => {
    expect(limitProblems({ bytes: 500_000, format: 'jpeg', width: 1999, height: 1999 }, limits.product, 'Product background removal')).toEqual([]);
  });

  it('summarises the limits for the hint', () => {
    expect(limitsHint(limits.product)).toBe('JPEG, PNG or BMP · up to 3 MB · sides up to 1999 px');
    expect(limitsHint(limits.apparel)).toBe('JPEG, PNG or BMP · up to 5 MB · sides 51–2999 px');
  });
});

describe('sniffImage', () => {
  it('reads format, size and PNG depth from the first bytes', () => {
    expect(sniffImage(pngHeader(640, 480, 16, 6))).toEqual({ format: 'png', width: 640, height: 480, pngBitsPerPixel: 64 });
    expect(sniffImage(pngHeader(10, 20, 8, 3)).pngBitsPerPixel).toBe(8);
    expect(sniffImage(jpegHeader(2400, 1800))).toEqual({ format: 'jpeg', width: 2400, height: 1800 });
    const bmp = new Uint8Array(30);
    bmp.set([0x42, 0x4d]);
    new DataView(bmp.buffer).setInt32(18, 300, true);
    new DataView(bmp.buffer).setInt32(22, -200, true);
    expect(sniffImage(bmp)).toEqual({ format: 'bmp', width: 300, height: 200 });
    expect(sniffImage(new Uint8Array([...new TextEncoder().encode('GIF89a'), 0x40, 0x01, 0xc8, 0x00, 0, 0]))).toEqual({ format: 'gif', width: 320, height: 200 });
    expect(sniffImage(new TextEncoder().encode('\0\0\0\x18ftypheic\0\0\0\0mif1heic'))).toEqual({ format: 'heic' });
    expect(sniffImage(new TextEncoder().encode('not an image at all, just text'))).toEqual({ format: null });
  });
});

describe('measureImage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('uses the header where the environment cannot decode', async () => {
    const file = new File([jpegHeader(2400, 1800)], 'named-like-a.png', { type: 'image/png' });
    expect(await measureImage(file)).toMatchObject({ format: 'jpeg', width: 2400, height: 1800, bytes: file.size });
  });

  it('prefers the decoded size and reports bytes that do not decode', async () => {
    vi.stubGlobal('createImageBitmap', vi.fn().mockResolvedValueOnce({ width: 1800, height: 2400, close() {} }).mockRejectedValueOnce(new Error('bad')));
    const file = new File([jpegHeader(2400, 1800)], 'rotated.jpg');
    expect(await measureImage(file)).toMatchObject({ width: 1800, height: 2400 });
    expect(await measureImage(file)).toMatchObject({ decodeFailed: true });
  });
});
