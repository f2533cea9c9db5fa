/**
 * Steps of beard removal: the faces (the portrait template: the 5 largest) → each face's beard mask read
 * from the photo as sent and removed from the result (engine/looks/beard/mask.ts, removeFaceBeard) →
 * PNG, so every pixel outside the beards comes back unchanged. The effect is the beard look alone: its
 * parameters are the look's (engine/looks/beard/tuning.ts), shared with beard styling.
 */
import type endpoint from '../../../contract/endpoints/ai-beard-removal.ts';
import type { Params } from '../../../contract/endpoint.ts';
import { encodePngFast } from '../../image/encode.ts';
import type { RasterImage } from '../../image/raster.ts';
import type { Step } from '../../pipeline/effect.ts';
import { perFace, selectFaces, type PortraitState } from '../../pipeline/portrait.ts';
import { BEARD_PARSING, BEARD_REGIONS, removeFaceBeard } from '../../looks/beard/mask.ts';

export type P = Params<typeof endpoint>;

export interface State extends PortraitState {
  /** The result pixels: a copy of the input, shaved face by face. */
  result: RasterImage;
  /** Per selected face, the share of its beard zone found bearded (0 clean-shaven). */
  coverage: number[];
}

export const findFaces: Step<P, State> = selectFaces<P, State>(() => ({ count: 5 }));

export const shave: Step<P, State> = perFace<P, State>(async (face, _i, c) => {
  const s = c.state;
  s.result ??= { ...c.image, data: Buffer.from(c.image.data) };
  (s.coverage ??= []).push(0);
  if (!face.mesh) return;
  const parsing = await c.facts.parsing(face, BEARD_PARSING);
  const done = removeFaceBeard(s.result, c.image, face, parsing, c.facts.regions(face, BEARD_REGIONS));
  s.coverage[s.coverage.length - 1] = done?.coverage ?? 0;
});

export const encode: Step<P, State> = async (c) => {
  c.output.images.result = await encodePngFast(c.state.result ?? c.image);
};
