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
import { perFace, selectFaces, type PortraitState } from '../../pipeline/portrait.ts';
import { lipMask } from '../../vision/regions/lips.ts';
import { GLOSS, RED } from './tuning.ts';

export type P = Params<typeof endpoint>;
export interface State extends PortraitState { result: RasterImage }

export const findFaces: Step<P, State> = selectFaces<P, State>(() => ({ count: 5 }));

export const glossLips: Step<P, State> = perFace<P, State>((face, i, c) => {
  if (i === 0) c.state.result = { ...c.image, data: Buffer.from(c.image.data) };
  const result = c.state.result!;
  const lips = lipMask(face, c.image);
  if (!lips) return;
  recolor(result, c.image, lips.plane, lips.win, RED);
  // The highlight reads the original photo: its light, not the new red's.
  const g = glossHighlight(c.image, lips.plane, lips.win, lips.faceWidth, lips.lower);
  blend(result, g.light, g.weight, lips.win, GLOSS, 'screen');
});

/**
 * Lossless, so every pixel outside the lips comes back byte for byte (JPEG moved the photo's edges:
 * docs/experiments/lips-color-changer.md#lossless-png-not-the-photos-jpeg-kept).
 */
export const encode: Step<P, State> = async (c) => {
  c.output.images.result = await encodePngFast(c.state.result ?? c.image);
};
