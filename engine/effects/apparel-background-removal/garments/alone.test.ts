/** Garment-alone silhouettes: drawn flat-lay shapes, one per class, classified by classify(). */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { classify } from './alone.ts';

const shapes: Record<string, string> = {
  tops: 'M120 100 L160 80 H240 L280 100 L360 180 L310 220 L280 190 V460 H120 V190 L90 220 L40 180 Z',
  coat: 'M130 40 L170 20 H230 L270 40 L330 120 L340 560 H290 L280 200 V580 H120 V200 L110 560 H60 L70 120 Z',
  pants: 'M110 60 H290 L330 560 H220 L200 250 L180 560 H70 Z',
  skirt: 'M140 120 H260 L340 480 H60 Z',
  shoes: 'M40 300 Q40 250 90 250 L180 270 L190 330 H40 Z M210 300 Q210 250 260 250 L350 270 L360 330 H210 Z',
  hat: 'M40 330 Q200 280 360 330 L360 350 H40 Z M120 320 Q120 180 200 180 Q280 180 280 320 Z',
  bag: 'M80 250 H320 L340 520 H60 Z M140 250 Q140 150 200 150 Q260 150 260 250 H240 Q240 170 200 170 Q160 170 160 250 Z',
};

async function mask(d: string): Promise<Uint8Array> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="600"><rect width="400" height="600" fill="#fff"/><path d="${d}" fill="#000"/></svg>`;
  const grey = await sharp(Buffer.from(svg)).extractChannel(0).raw().toBuffer();
  return Uint8Array.from(grey, (v) => (v < 128 ? 1 : 0));
}

describe('classify (a garment photographed alone)', () => {
  for (const [expected, d] of Object.entries(shapes)) {
    it(`names a ${expected} silhouette`, async () => {
      expect(classify(await mask(d), 400, 600)).toBe(expected);
    });
  }

  it('an empty mask is not an error', () => {
    expect(classify(new Uint8Array(100), 10, 10)).toBe('tops');
  });
});
