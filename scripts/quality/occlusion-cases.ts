/**
 * The photos the occluder-mask scripts (occlusion-mask.ts, object-mask.ts) score a mask on: the occluded fixtures
 * (engine/test/fixtures/occluded/, each outlined by `<name>.mask.png`) and unoccluded portraits from
 * ../shared/testdata (single-face portraits and exemplars, where any mask is a false alarm; skipped, with a line
 * saying so, when that folder is absent). Each set is split by file in name order (odd places fit, even places
 * check), as quality:occlusion splits its photos.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { decodeImage, detectFaces, type Face, type HumanLike, type RasterImage } from '../../engine/for-scripts.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const occludedDir = path.join(root, 'engine/test/fixtures/occluded');
export const sharedTestdata = path.resolve(root, '../shared/testdata');
const PORTRAITS = ['obama_official_portrait.jpg', 'biden_obama_laughing_whitehouse.jpg', 'astronaut_eileen_collins.png', 'man_beard_smiling_lacamoire.png',
  'man_glasses_smiling_superbomba.jpg', 'woman_speaker_rania_wef.jpg', 'woman_headscarf_eyes_that_speak.jpg'].map((f) => path.join(sharedTestdata, 'portraits', f));
const exemplarDir = path.join(sharedTestdata, 'exemplars');
export const EXEMPLARS = existsSync(exemplarDir) ? readdirSync(exemplarDir).filter((f) => /\.(jpg|png)$/.test(f)).map((f) => path.join(exemplarDir, f)) : [];

export interface OcclusionCase {
  set: 'occluded' | 'portrait'; half: 'fit' | 'check'; name: string; file: string;
  image: RasterImage; face: Face & { mesh: NonNullable<Face['mesh']> };
  /** The occluder's outline (one byte a pixel, ≥ 128 = occluder); none for an unoccluded portrait. */
  outline?: Buffer;
}

/** Each case's photo decoded with its largest face (a photo whose face has no mesh is reported and skipped). */
export async function* occlusionCases(human: HumanLike, only?: string): AsyncGenerator<OcclusionCase> {
  if (!existsSync(sharedTestdata)) console.log(`${sharedTestdata} is absent: only the occluded fixtures are scored`);
  const occluded = readdirSync(occludedDir).filter((f) => f.endsWith('.jpg')).sort().map((f) => path.join(occludedDir, f));
  const unoccluded = [...PORTRAITS, ...EXEMPLARS].filter(existsSync).sort((a, b) => path.basename(a).localeCompare(path.basename(b)));
  for (const [set, files] of [['occluded', occluded], ['portrait', unoccluded]] as const) {
    for (const [k, file] of files.entries()) {
      const name = path.basename(file).replace(/\.(jpg|png)$/, '');
      if (only && !name.includes(only)) continue;
      const half = k % 2 ? 'check' : 'fit';
      const image = await decodeImage(readFileSync(file), file.endsWith('.png') ? 'png' : 'jpeg', 50e6);
      const face = (await detectFaces(human, image))[0];
      if (!face?.mesh) { console.log(`${set} ${half} ${name}: no face`); continue; }
      const outline = set === 'occluded' ? await sharp(file.replace(/\.jpg$/, '.mask.png')).extractChannel(0).raw().toBuffer() : undefined;
      yield { set, half, name, file, image, face: face as OcclusionCase['face'], outline };
    }
  }
}
