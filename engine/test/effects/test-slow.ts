/**
 * A test-only processor that takes its time: it sleeps width x 100 ms in 50 ms slices, giving up as soon
 * as its abort signal fires (as a real multi-step effect does between steps), then inverts the image.
 * A 40 px wide image takes 4 s, a 600 px wide one a minute.
 */
import sharp from 'sharp';
import { CodedError } from '../../../contract/errors.ts';
import { defineEffect } from '../../pipeline/effect.ts';

export default defineEffect({
  slug: 'test-slow',
  models: [],
  steps: [
    async (c, kit) => {
      const until = Date.now() + c.image.width * 100;
      while (Date.now() < until) {
        if (kit.signal.aborted) throw new CodedError('AI_SERVICE_TIMEOUT', 'test-slow was stopped');
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async (c) => {
      const { data, width, height, channels } = c.image;
      const png = await sharp(data, { raw: { width, height, channels } }).negate({ alpha: false }).png().toBuffer();
      c.output.images.result = { data: png, format: 'png' };
    },
  ],
});
