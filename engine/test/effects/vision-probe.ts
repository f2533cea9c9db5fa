/**
 * A test-only effect for detect.test.ts: proves the vision core runs inside the engine's worker threads
 * (tsx loader via worker-entry.mjs, one registry per worker, the 'human' catalog entry).
 */
import { defineEffect } from '../../pipeline/effect.ts';
import { detectFaces } from '../../vision/faces/detect.ts';

export default defineEffect({
  slug: 'vision-probe',
  models: ['human'],
  steps: [
    async (c, kit) => {
      const faces = await detectFaces(await kit.models.get('human'), c.image);
      c.output.data = { faces: faces.map((f) => ({ box: f.box, score: f.score, points: f.mesh?.length ?? 0 })) };
    },
  ],
});
