/**
 * Steps of the lip colour changer: each entry of lip_color_infos → its face (the one its face_rect overlaps
 * most, else the largest) → that face's lips recoloured, shading and texture kept, at the entry's opacity.
 */
import type endpoint from '../../../contract/endpoints/lips-color-changer.ts';
import type { LipColorInfo, Params } from '../../../contract/endpoint.ts';
import { encodePngFast } from '../../image/encode.ts';
import type { RasterImage } from '../../image/raster.ts';
import { recolor } from '../../looks/recolor.ts';
import { EffectError, type Step } from '../../pipeline/effect.ts';
import { chooseFaces } from '../../pipeline/portrait.ts';
import type { Face } from '../../vision/faces/detect.ts';
import { lipMask } from '../../vision/regions/lips.ts';
import { LIP_LIGHTNESS } from './tuning.ts';

export type P = Params<typeof endpoint>;

export interface State {
  /** One face per entry, in entry order. */
  jobs: { face: Face; info: LipColorInfo }[];
  result: RasterImage;
}

/** Each entry's face. An entry whose face_rect overlaps no face is a 422, as in the portrait template. */
export const findFaces: Step<P, State> = async (c) => {
  const infos = c.params.lip_color_infos ?? [];
  let faces = await c.facts.faces();
  if (faces.length === 0) throw new EffectError('ERROR_NO_FACE_IN_FILE', 'no face was found in the image');
  const pick = (all: Face[]) => infos.map((info, i) => {
    const face = chooseFaces(all, { rect: info.face_rect })[0];
    if (!face) throw new EffectError('ERROR_NO_FACE_IN_FILE', `no face was found inside lip_color_infos[${i}].face_rect`);
    return face;
  });
  let chosen = pick(faces);
  // Only the 5 largest faces get a mesh by default; a face_rect may pick a smaller one.
  if (chosen.some((f) => !f.mesh)) { faces = await c.facts.faces({ meshFaces: faces.length }); chosen = pick(faces); }
  // Two entries for one face: the later one wins (a client correcting itself), never both stacked.
  const byFace = new Map<Face, LipColorInfo>();
  chosen.forEach((f, i) => byFace.set(f, infos[i]));
  c.state.jobs = [...byFace].map(([face, info]) => ({ face, info }));
};

export const colourLips: Step<P, State> = (c, kit) => {
  const result: RasterImage = { ...c.image, data: Buffer.from(c.image.data) };
  for (const { face, info } of c.state.jobs ?? []) {
    if (kit.signal.aborted) return;
    const lips = lipMask(face, c.image);
    if (!lips) continue;
    const { r, g, b, a } = info.rgba;
    recolor(result, c.image, lips.plane, lips.win, { rgb: [r, g, b], opacity: a / 100, lightness: LIP_LIGHTNESS });
  }
  c.state.result = result;
};

/**
 * Lossless, so every pixel outside the lips comes back byte for byte (JPEG moved the photo's edges:
 * docs/experiments/lips-color-changer.md#lossless-png-not-the-photos-jpeg-kept).
 */
export const encode: Step<P, State> = async (c) => {
  c.output.images.result = await encodePngFast(c.state.result ?? c.image);
};
