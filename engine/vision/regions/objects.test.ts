/**
 * The held-object mask (objects.ts) on real photos: a drawn phone at a cheek and a drawn microphone over a
 * mouth (engine/test/fixtures/occluded/, outlined) open a gate and are covered; on unoccluded portraits, a
 * bearded one among them, no gate opens, so the effects that keep held objects edit those faces as before.
 */
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../../test/helpers.ts';
import { fixtureFace } from '../../test/photos.ts';
import type { HumanLike } from '../models/human.ts';
import { ModelRegistry } from '../models/registry.ts';
import { objectPlane, objectsNearFace } from './objects.ts';

let human: HumanLike;
beforeAll(async () => { human = await new ModelRegistry({ threads: 1 }).get<HumanLike>('human'); }, 120_000);


describe('something held in front of the lower face', () => {
  for (const [name, gate] of [['occluded/phone_cheek_beard_full_glasses.jpg', 'cell phone'], ['occluded/mic_mouth_darkskin_woman.jpg', 'grey over the lips']]) {
    it(`finds the ${gate} of ${name} and covers it`, async () => {
      const { image, face } = await fixtureFace(human, name);
      const { plane, win, gates } = objectPlane(face, image, await objectsNearFace(human, image, face));
      expect(gates.map((g) => g.label)).toContain(gate);
      const outline = await sharp(fixture(name.replace(/\.jpg$/, '.mask.png'))).extractChannel(0).raw().toBuffer();
      let inside = 0, covered = 0;
      for (let y = 0; y < win.h; y++) for (let x = 0; x < win.w; x++) {
        if (outline[(win.y0 + y) * image.width + win.x0 + x] < 128) continue;
        inside++; if (plane[y * win.w + x] > 0.5) covered++;
      }
      expect(inside).toBeGreaterThan(1000);
      expect(covered / inside).toBeGreaterThan(0.95);
    }, 120_000);
  }
});

describe('nothing held', () => {
  for (const name of ['obama_official_portrait.jpg', 'astronaut_eileen_collins.png', 'biden_obama_laughing_heads.jpg', 'occluded/hand_mouth_bald_beard.jpg']) {
    it(`opens no gate on ${name}`, async () => {
      const { image, face } = await fixtureFace(human, name);
      const found = await objectsNearFace(human, image, face);
      expect(found).toEqual([]);
      expect(objectPlane(face, image, found).gates).toEqual([]);
    }, 120_000);
  }
});
