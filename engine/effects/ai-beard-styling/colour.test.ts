/** The beard's colour: grey and white hair gives a light, near-neutral beard; dark and coloured hair is left as read. */
import { describe, expect, it } from 'vitest';
import type { RasterImage } from '../../image/raster.ts';
import type { FaceParsing } from '../../vision/parsing/face-parsing.ts';
import { faceTone, greyness } from './colour.ts';

const luma = (c: readonly number[]) => 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];

type C = [number, number, number];
/**
 * A 40 x 40 photo: skin on the left half (its lower quarter `beard`, the face's own, when given), brows
 * (`brows`, else `hair`) and hair on the right, parsing sure of each.
 */
function photo(hair: C, skin: C = [225, 195, 170], brows: C = hair, beard?: C, hidden = 0.8) {
  const w = 40, h = 40, data = Buffer.alloc(w * h * 3);
  const skinP = new Uint8Array(w * h), hairP = new Uint8Array(w * h), browP = new Uint8Array(w * h), own = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x, mine = beard && x < 20 && y >= 30;
      data.set(mine ? beard : x < 20 ? skin : y < 10 ? brows : hair, i * 3);
      if (mine) own[i] = 1; else if (x < 20) skinP[i] = 255; else if (y < 10) browP[i] = 255; else hairP[i] = 255;
    }
  }
  const image: RasterImage = { data, width: w, height: h, channels: 3 };
  const parsing = { win: { x0: 0, y0: 0, w, h }, classes: { skin: skinP, hair: hairP, rightBrow: browP } } as unknown as FaceParsing;
  return faceTone(image, parsing, beard ? { photo: image, win: { x0: 0, y0: 0, w, h }, faceWidth: 40, beard: own, hidden } : null);
}

describe('greyness', () => {
  it('is high for grey and white hair, nil for brown, blond and black (also black in a black and white photo)', () => {
    expect(greyness([175, 170, 165], 200)).toBeGreaterThan(0.9);
    expect(greyness([139, 128, 118], 200)).toBeGreaterThan(0.6);
    expect(greyness([79, 53, 45], 136)).toBe(0);
    expect(greyness([200, 165, 110], 200)).toBe(0);
    expect(greyness([40, 40, 40], 150)).toBe(0);
  });
});

describe('faceTone', () => {
  it('gives white hair a light, near-neutral beard, not one dimmed to a dark smudge', () => {
    const t = photo([150, 142, 135]);
    expect(t.grey).toBeGreaterThan(0.6);
    expect(luma(t.hair)).toBeGreaterThan(0.8 * t.skinLuma);
    expect(Math.max(...t.hair) - Math.min(...t.hair)).toBeLessThan(12);
  });
  it('draws white hair a little lighter than the skin (white hair reflects more light), never past near white', () => {
    const t = photo([215, 210, 205]);
    expect(t.grey).toBeGreaterThan(0.9);
    expect(luma(t.hair)).toBeGreaterThan(t.skinLuma);
    expect(Math.max(...t.hair)).toBeLessThan(245);
  });
  it('leaves dark brown hair as read', () => {
    const t = photo([70, 50, 40]);
    expect(t.grey).toBe(0);
    expect(t.hair.map(Math.round)).toEqual([70, 50, 40]);
  });
  it('takes the colour of the face\'s own dense, dark beard, not of lighter brows and hair', () => {
    const t = photo([90, 70, 55], [200, 160, 130], [90, 70, 55], [30, 24, 20]);
    expect(luma(t.hair)).toBeLessThan(45);
    // A sparse one (its skin between the hairs) weighs less, one as light as the skin not at all.
    expect(luma(photo([90, 70, 55], [200, 160, 130], [90, 70, 55], [30, 24, 20], 0.2).hair)).toBeGreaterThan(luma(t.hair) + 10);
    expect(photo([90, 70, 55], [200, 160, 130], [90, 70, 55], [185, 150, 120]).hair.map(Math.round)).toEqual([90, 70, 55]);
  });
});
