/**
 * Speed of face beauty: end to end over HTTP (a real engine, one worker, as in production) on 1-2 MP
 * portraits after a warm-up, medians in ms; then where the time goes, step by step in this process
 * (detection with mesh, face parsing, the retouch itself, PNG encoding).
 *
 *   npm run bench:face-beauty -- [runs=5]
 */
import { BEAUTY_FACES, BEAUTY_PARSING, beautyRetouchFace, encodePngFast } from '../../engine/for-scripts.ts';
import { benchRetouch } from './retouch-bench.ts';

await benchRetouch({
  path: '/api/portrait/effects/face-beauty',
  fields: {},
  async: false,
  faces: async (facts) => (await facts.faces({ meshFaces: BEAUTY_FACES })).slice(0, BEAUTY_FACES),
  // As the effect parses: its own input size and classes.
  parsing: (facts, face) => facts.parsing(face, BEAUTY_PARSING),
  retouch: (px, face, parsing, win) => beautyRetouchFace(px, 3, face, parsing, win, {}),
  encode: encodePngFast,
}, Number(process.argv[2] ?? 5));
process.exit(0);
