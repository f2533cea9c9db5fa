/**
 * Speed of the advanced skin retouch (issue 9: the task done ≤ 4 s on a 1-2 MP portrait, this machine):
 * end to end over HTTP (a real engine, as in production: submit, poll the task every 50 ms, fetch the
 * result) after a warm-up, medians in ms; then where the time goes, step by step in this process.
 *
 *   npm run bench:smart-skin -- [runs=5]
 */
import { encodePhoto, planOf, SKIN_FACES, smartSkinRetouchFace } from '../../engine/for-scripts.ts';
import { benchRetouch } from './retouch-bench.ts';

await benchRetouch({
  path: '/api/portrait/effects/smart-skin-advanced',
  fields: { smart_skin: '1' },
  async: true,
  faces: async (facts) => (await facts.faces({ meshFaces: SKIN_FACES })).slice(0, SKIN_FACES),
  parsing: (facts, face) => facts.parsing(face),
  retouch: (px, face, parsing, win, image) => smartSkinRetouchFace(px, 3, face, parsing, win, image, planOf({ smart_skin: 1 })),
  encode: encodePhoto,
}, Number(process.argv[2] ?? 5));
process.exit(0);
