/**
 * Steps of coloured contacts: the lens from the text → the 5 largest faces → each open iris tinted (see
 * recolour.ts) → the photo encoded as it came (JPEG, or PNG with transparency).
 */
import type endpoint from '../../../contract/endpoints/ai-colored-contacts.ts';
import type { Params } from '../../../contract/endpoint.ts';
import { encodePhoto } from '../../image/encode.ts';
import { type Mask } from '../../image/mask.ts';
import { EffectError, type Step } from '../../pipeline/effect.ts';
import { perFace, selectFaces, type PortraitState } from '../../pipeline/portrait.ts';
import { LEFT_IRIS, RIGHT_IRIS } from '../../vision/faces/landmarks.ts';
import { readLens, type Lens } from './lens.ts';
import { tintIris, type Iris } from './recolour.ts';

export type P = Params<typeof endpoint>;

export interface State extends PortraitState {
  lens: Lens;
  /** The photo being edited, a copy of the input's pixels. */
  pixels: Buffer;
  /** Iris pixels changed, over all faces (for tests and the quality script's logs). */
  changed: number;
}

/** Read before any model runs: a description with no colour in it is the caller's mistake. */
export const readLensStep: Step<P, State> = (c) => {
  const lens = readLens(c.params.name, c.params.desc);
  if ('error' in lens) throw new EffectError('ERROR_INVALID_PARAMETER', lens.error);
  c.state.lens = lens;
  c.state.pixels = Buffer.from(c.image.data);
  c.state.changed = 0;
};

export const findFaces: Step<P, State> = selectFaces<P, State>(() => ({ count: 5 }));

const irisOf = (mesh: [number, number, number][], ring: { center: number; ring: number[] }): Iris => {
  const [cx, cy] = mesh[ring.center];
  return { cx, cy, r: ring.ring.reduce((s, i) => s + Math.hypot(mesh[i][0] - cx, mesh[i][1] - cy), 0) / ring.ring.length };
};

/** The iris region already lies inside the eye opening (face-regions.ts), so the lids clip it. */
export const tintEyes: Step<P, State> = perFace<P, State>((face, _i, c) => {
  if (!face.mesh) return;
  // Only the two masks it uses: drawing all 24 regions at full resolution cost more than the tint.
  const regions = c.facts.regions(face, ['leftIris', 'rightIris']);
  const eyes: [Mask | undefined, Iris][] = [
    [regions.leftIris, irisOf(face.mesh, LEFT_IRIS)],
    [regions.rightIris, irisOf(face.mesh, RIGHT_IRIS)],
  ];
  const s = c.state;
  for (const [weight, iris] of eyes) if (weight) s.changed = (s.changed ?? 0) + tintIris(c.image, s.pixels!, weight, iris, s.lens!);
});

export const encode: Step<P, State> = async (c) => {
  c.output.images.result = await encodePhoto({ data: c.state.pixels!, width: c.image.width, height: c.image.height, channels: c.image.channels });
};
