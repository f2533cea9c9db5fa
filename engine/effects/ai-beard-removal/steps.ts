/**
 * Steps of beard removal: the faces (the portrait template: the 5 largest) → each face's beard mask read
 * from the photo as sent and removed from the result (engine/looks/beard/mask.ts, removeFaceBeard; the
 * fill's fine texture from a library of real clean-shaven lower faces, skin-library.ts) →
 * PNG, so every pixel outside the beards comes back unchanged. The effect is the beard look alone: its
 * parameters are the look's (engine/looks/beard/tuning.ts), shared with beard styling.
 */
import type endpoint from '../../../contract/endpoints/ai-beard-removal.ts';
import type { Params } from '../../../contract/endpoint.ts';
import { encodePngFast } from '../../image/encode.ts';
import type { RasterImage } from '../../image/raster.ts';
import type { Step } from '../../pipeline/effect.ts';
import { eachFace, keepOccluders, selectFaces, type PortraitState } from '../../pipeline/portrait.ts';
import { BEARD_PARSING, BEARD_REGIONS, removeFaceBeard } from '../../looks/beard/mask.ts';
import { meshFaceWidth } from '../../vision/regions/skin-mask.ts';
import { loadSkinLibrary, meshGrain, pickSkin } from './skin-library.ts';

export type P = Params<typeof endpoint>;

export interface Shaved {
  /** The result pixels: a copy of the input, shaved face by face. */
  result: RasterImage;
}

export const findFaces = selectFaces<P>(() => ({ count: 5 }));

export const shave: Step<P, PortraitState, Shaved> = async (c, kit) => {
  const result: RasterImage = { ...c.image, data: Buffer.from(c.image.data) };
  const skins = await loadSkinLibrary();
  await eachFace(c.state.faces, kit, async (face) => {
    if (!face.mesh) return;
    const parsing = await c.facts.parsing(face, BEARD_PARSING);
    const grain = meshGrain(pickSkin(skins, meshFaceWidth(face.mesh)), face.mesh);
    removeFaceBeard(result, c.image, face, parsing, c.facts.regions(face, BEARD_REGIONS), grain);
  });
  await keepOccluders(c, result, c.state.faces, 'held');
  return { result };
};

export const encode: Step<P, Shaved> = async (c) => {
  c.output.images.result = await encodePngFast(c.state.result);
};
