/**
 * A test-only processor, registered by the tests themselves (never by the engine), to prove the task
 * machinery before the portrait effects exist. It inverts the image after a short pause; a 20 px wide
 * image fails with ERROR_NO_FACE_IN_FILE, a 21 px wide one crashes its worker thread.
 */
import sharp from 'sharp';
import { CodedError } from '../../../contract/errors.ts';
import { defineEffect } from '../../pipeline/effect.ts';

export default defineEffect({
  slug: 'test-invert',
  models: [],
  steps: [
    async (c) => { await new Promise((r) => setTimeout(r, 300)); void c; },
    (c) => { if (c.image.width === 20) throw new CodedError('ERROR_NO_FACE_IN_FILE', 'no face found in image'); },
    (c) => { if (c.image.width === 21) process.exit(3); },
    async (c) => {
      const { data, width, height, channels } = c.image;
      const png = await sharp(data, { raw: { width, height, channels } }).negate({ alpha: false }).png().toBuffer();
      c.output.images.result = { data: png, format: 'png' };
    },
  ],
});
