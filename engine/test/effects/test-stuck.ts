/**
 * A test-only processor whose one long step does not look at its abort signal, as a model run on the
 * model host or a long loop over pixels does not: a 30 px wide image awaits 12 s (like a model run: the
 * worker's event loop is free meanwhile), a 31 px wide one blocks its thread for 12 s (like a loop).
 * Any other width inverts the image at once.
 */
import sharp from 'sharp';
import { defineEffect } from '../../pipeline/effect.ts';

export const STUCK_MS = 12_000;

export default defineEffect({
  slug: 'test-stuck',
  models: [],
  steps: [
    async (c) => {
      if (c.image.width === 30) await new Promise((r) => setTimeout(r, STUCK_MS));
      if (c.image.width === 31) { const until = Date.now() + STUCK_MS; while (Date.now() < until) { /* busy */ } }
    },
    async (c) => {
      const { data, width, height, channels } = c.image;
      const png = await sharp(data, { raw: { width, height, channels } }).negate({ alpha: false }).png().toBuffer();
      c.output.images.result = { data: png, format: 'png' };
    },
  ],
});
