/**
 * A test-only effect for face-parsing.test.ts: proves face parsing runs inside the engine's worker threads
 * (the 'bisenet-face-parsing' catalog entry loaded by the worker's own registry, on its own tfjs).
 */
import { defineEffect } from '../../pipeline/effect.ts';
import { detectFaces } from '../../vision/faces/detect.ts';
import { parseFace, type FaceParser } from '../../vision/parsing/face-parsing.ts';

export default defineEffect({
  slug: 'parsing-probe',
  models: ['human', 'bisenet-face-parsing'],
  steps: [
    async (c, kit) => {
      const [face] = await detectFaces(await kit.models.get('human'), c.image);
      const parsing = await parseFace(await kit.models.get<FaceParser>('bisenet-face-parsing'), c.image, face);
      const mass = Object.fromEntries(Object.entries(parsing.classes).map(([k, p]) => [k, p!.reduce((s, v) => s + (v >= 128 ? 1 : 0), 0)]));
      c.output.data = { win: parsing.win, mass };
    },
  ],
});
