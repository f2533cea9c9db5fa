/**
 * Steps of coloured contacts: the lens from the text → the 5 largest faces → each open iris tinted (see
 * recolour.ts) → the photo encoded as it came (JPEG, or PNG with transparency).
 */
import type endpoint from '../../../contract/endpoints/ai-colored-contacts.ts';
import type { Params } from '../../../contract/endpoint.ts';
import { encodePhoto } from '../../image/encode.ts';
import { type Mask } from '../../image/mask.ts';
import { CodedError } from '../../../contract/errors.ts';
import type { Step } from '../../pipeline/effect.ts';
import { eachFace, keepOccluders, selectFaces, type PortraitState } from '../../pipeline/portrait.ts';
import { LEFT_IRIS, RIGHT_IRIS } from '../../vision/faces/landmarks.ts';
import { readLens, type Lens } from './lens.ts';
import { tintIris, type Iris } from './recolour.ts';

export type P = Params<typeof endpoint>;

export interface Lensed {
  lens: Lens;
  /** The photo being edited, a copy of the input's pixels. */
  pixels: Buffer;
}

/** Read before any model runs: a description with no colour in it is the caller's mistake. */
export const readLensStep: Step<P, object, Lensed> = (c) => {
  const lens = readLens(c.params.name, c.params.desc);
  if ('error' in lens) throw new CodedError('ERROR_INVALID_PARAMETER', lens.error);
  return { lens, pixels: Buffer.from(c.image.data) };
};

export const findFaces = selectFaces<P>(() => ({ count: 5 }));

const irisOf = (mesh: [number, number, number][], ring: { center: number; ring: number[] }): Iris => {
  const [cx, cy] = mesh[ring.center];
  return { cx, cy, r: ring.ring.reduce((s, i) => s + Math.hypot(mesh[i][0] - cx, mesh[i][1] - cy), 0) / ring.ring.length };
};

/** The iris region already lies inside the eye opening (face-regions.ts), so the lids clip it. */
export const tintEyes: Step<P, Lensed & PortraitState> = async (c, kit) => {
  const { lens, pixels } = c.state;
  await eachFace(c.state.faces, kit, (face) => {
    if (!face.mesh) return;
    // Only the two masks it uses: drawing all 24 regions at full resolution cost more than the tint.
    const regions = c.facts.regions(face, ['leftIris', 'rightIris']);
    const eyes: [Mask | undefined, Iris][] = [
      [regions.leftIris, irisOf(face.mesh, LEFT_IRIS)],
      [regions.rightIris, irisOf(face.mesh, RIGHT_IRIS)],
    ];
    for (const [weight, iris] of eyes) if (weight) tintIris(c.image, pixels, weight, iris, lens);
  });
  await keepOccluders(c, { data: pixels }, c.state.faces);
};

export const encode: Step<P, Lensed> = async (c) => {
  c.output.images.result = await encodePhoto({ data: c.state.pixels, width: c.image.width, height: c.image.height, channels: c.image.channels });
};
