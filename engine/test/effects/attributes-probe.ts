/**
 * A test-only effect for attributes.test.ts: face attributes inside an engine worker thread, where the
 * attribute models load onto that worker's own Human instance (humanModel), not the main thread's.
 */
import { defineEffect } from '../../pipeline/effect.ts';
import { faceAttributes } from '../../vision/attributes/attributes.ts';
import { detectFaces } from '../../vision/faces/detect.ts';

export default defineEffect({
  slug: 'attributes-probe',
  models: ['human'],
  steps: [
    async (c, kit) => {
      const human = await kit.models.get('human');
      c.output.data = { attributes: await faceAttributes(human, c.image, await detectFaces(human, c.image)) };
    },
  ],
});
