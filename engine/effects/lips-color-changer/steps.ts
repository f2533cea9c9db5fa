/**
 * Steps of the lip colour changer: each entry of lip_color_infos → its face (the one its face_rect overlaps
 * most, else the largest) → that face's lips recoloured, shading and texture kept, at the entry's opacity.
 */
import type endpoint from '../../../contract/endpoints/lips-color-changer.ts';
import type { LipColorInfo, Params } from '../../../contract/endpoint.ts';
import { encodePngFast } from '../../image/encode.ts';
import type { RasterImage } from '../../image/raster.ts';
import { recolor } from '../../looks/recolor.ts';
import type { Step } from '../../pipeline/effect.ts';
import { keepOccluders, selectFaces, type PortraitState } from '../../pipeline/portrait.ts';
import type { Face } from '../../vision/faces/detect.ts';
import { lipMask } from '../../vision/regions/lips.ts';
import { LIP_LIGHTNESS } from './tuning.ts';

export type P = Params<typeof endpoint>;

export interface Coloured { result: RasterImage }

/** Each entry's face (its face_rect's, else the largest); one whose face_rect overlaps no face is a 422. */
export const findFaces = selectFaces<P>((c) => ({
  entries: c.params.lip_color_infos.map((info, i) => ({ rect: info.face_rect, name: `lip_color_infos[${i}].face_rect` })),
}));

export const colourLips: Step<P, PortraitState, Coloured> = async (c, kit) => {
  const infos = c.params.lip_color_infos;
  // Two entries for one face: the later one wins (a client correcting itself), never both stacked.
  const byFace = new Map<Face, LipColorInfo>();
  c.state.faces.forEach((f, i) => byFace.set(f, infos[i]));
  const result: RasterImage = { ...c.image, data: Buffer.from(c.image.data) };
  for (const [face, info] of byFace) {
    // Stopped: the runner ends the job before the next step.
    if (kit.signal.aborted) break;
    const lips = lipMask(face, c.image, c.facts.regions);
    if (!lips) continue;
    const { r, g, b, a } = info.rgba;
    recolor(result, c.image, lips.plane, lips.win, { rgb: [r, g, b], opacity: a / 100, lightness: LIP_LIGHTNESS });
  }
  await keepOccluders(c, result, [...byFace.keys()]);
  return { result };
};

/**
 * Lossless, so every pixel outside the lips comes back byte for byte (JPEG moved the photo's edges:
 * docs/experiments/lips-color-changer.md#lossless-png-not-the-photos-jpeg-kept).
 */
export const encode: Step<P, Coloured> = async (c) => {
  c.output.images.result = await encodePngFast(c.state.result);
};
