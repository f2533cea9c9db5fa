/**
 * The lips' occluder cut (lips.ts removeOccluders) on real photos: a drawn microphone over a bearded man's and a
 * woman's mouth (engine/test/fixtures/occluded/, outlined) leaves the lip mask, and on unoccluded portraits
 * the lip mask is exactly what it was without the cut.
 */
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RasterImage } from '../../image/raster.ts';
import { fixture } from '../../test/helpers.ts';
import { fixtureFace } from '../../test/photos.ts';
import type { Face } from '../faces/detect.ts';
import type { HumanLike } from '../models/human.ts';
import { ModelRegistry } from '../models/registry.ts';
import { faceRegions } from './face-regions.ts';
import { lipMask } from './lips.ts';

let human: HumanLike;
beforeAll(async () => { human = await new ModelRegistry({ threads: 1 }).get<HumanLike>('human'); }, 120_000);

const regionsOf = (image: RasterImage) => (f: Face, names: Parameters<typeof faceRegions>[3]) => faceRegions(f, image, image, names);

describe('a grey thing over the lips', () => {
  for (const name of ['occluded/mic_mouth_beard_short_black.jpg', 'occluded/mic_mouth_darkskin_woman.jpg']) {
    it(`takes the microphone of ${name} off the lips`, async () => {
      const { image, face } = await fixtureFace(human, name);
      const outline = await sharp(fixture(name.replace(/\.jpg$/, '.mask.png'))).extractChannel(0).raw().toBuffer();
      const cut = lipMask(face, image, regionsOf(image))!, whole = lipMask(face, image, regionsOf(image), { occluders: false })!;
      // Lip pixels: where the mask has at least a quarter's weight (a recolour of 70 % moves those by > 12 levels).
      let onMic = 0, onMicBefore = 0, elsewhere = 0;
      for (let y = 0; y < cut.win.h; y++) for (let x = 0; x < cut.win.w; x++) {
        const i = y * cut.win.w + x, j = (cut.win.y0 + y) * image.width + cut.win.x0 + x;
        if (outline[j] >= 128) { onMic += cut.plane[i] > 0.25 ? 1 : 0; onMicBefore += whole.plane[i] > 0.25 ? 1 : 0; } else elsewhere += cut.plane[i];
      }
      // Without the cut the mesh's lips lie over the microphone; with it, few of them: the outline's rim (the
      // paste's alpha from 0.5, half skin) keeps some weight, on pixels a recolour hardly moves (the effect's
      // change to the microphone, ≤ 1 % of it, is held over HTTP in engine/test/occlusion.test.ts).
      expect(onMicBefore).toBeGreaterThan(500);
      expect(onMic).toBeLessThan(0.08 * onMicBefore);
      // The lips beside the microphone are still lips.
      expect(elsewhere).toBeGreaterThan(300);
    }, 120_000);
  }
});

describe('nothing over the lips', () => {
  for (const name of ['obama_official_portrait.jpg', 'astronaut_eileen_collins.png', 'biden_obama_laughing_heads.jpg']) {
    it(`leaves the lips of ${name} as they were`, async () => {
      const { image, face } = await fixtureFace(human, name);
      const cut = lipMask(face, image, regionsOf(image))!, whole = lipMask(face, image, regionsOf(image), { occluders: false })!;
      expect(cut.plane).toEqual(whole.plane);
    }, 120_000);
  }
});
