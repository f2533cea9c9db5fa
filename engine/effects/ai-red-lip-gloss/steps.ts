/**
 * Steps of the red lip gloss: the 5 largest faces (as face-beauty) → each face's lips a classic red, their
 * shading kept → a specular highlight shaped by the lips and lit by the photo's light, screened on.
 */
import type endpoint from '../../../contract/endpoints/ai-red-lip-gloss.ts';
import type { Params } from '../../../contract/endpoint.ts';
import { encodePngFast } from '../../image/encode.ts';
import type { RasterImage } from '../../image/raster.ts';
import { blend } from '../../looks/blend.ts';
import { glossHighlight } from './gloss.ts';
import { recolor } from '../../looks/recolor.ts';
import type { Step } from '../../pipeline/effect.ts';
import { eachFace, keepOccluders, selectFaces, type PortraitState } from '../../pipeline/portrait.ts';
import { lipMask } from '../../vision/regions/lips.ts';
import { GLOSS, RED } from './tuning.ts';

export type P = Params<typeof endpoint>;
export interface Glossed { result: RasterImage }

export const findFaces = selectFaces<P>(() => ({ count: 5 }));

export const glossLips: Step<P, PortraitState, Glossed> = async (c, kit) => {
  const result: RasterImage = { ...c.image, data: Buffer.from(c.image.data) };
  await eachFace(c.state.faces, kit, (face) => {
    const lips = lipMask(face, c.image, c.facts.regions);
    if (!lips) return;
    recolor(result, c.image, lips.plane, lips.win, RED);
    // The highlight reads the original photo: its light, not the new red's.
    const g = glossHighlight(c.image, lips.plane, lips.win, lips.faceWidth, lips.lower);
    blend(result, g.light, g.weight, lips.win, GLOSS, 'screen');
  });
  await keepOccluders(c, result, c.state.faces);
  return { result };
};

/**
 * Lossless, so every pixel outside the lips comes back byte for byte (JPEG moved the photo's edges:
 * docs/experiments/lips-color-changer.md#lossless-png-not-the-photos-jpeg-kept).
 */
export const encode: Step<P, Glossed> = async (c) => {
  c.output.images.result = await encodePngFast(c.state.result);
};
