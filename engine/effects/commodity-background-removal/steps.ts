/** Steps of product background removal: matte at model resolution → full-resolution alpha → output form. */
import sharp from 'sharp';
import type endpoint from '../../../contract/endpoints/commodity-background-removal.ts';
import type { Params } from '../../../contract/endpoint.ts';
import { type Mask } from '../../image/mask.ts';
import type { Ctx, Step } from '../../pipeline/effect.ts';
import { predict, type IsnetModel } from '../../vision/models/isnet.ts';
import { applyCoefficients, guidedCoefficients } from '../../image/guided-filter.ts';
import { lumaPlane } from '../../image/luma.ts';
import { alphaBounds, extractBox, multiplyByInputAlpha, withAlpha } from '../../image/alpha.ts';
import { overWhite } from '../../image/composite.ts';
import { encodePngFast, type RawPixels } from '../../image/encode.ts';
import { decontaminate } from '../../image/foreground.ts';
import { CONTEXT, CROP_THRESHOLD, EPS, FOREGROUND_RADII, RADIUS } from './tuning.ts';

export type P = Params<typeof endpoint>;

export interface Predicted {
  matte: Mask;
  /** RGB at model resolution, as the network saw it; the guide for refinement. */
  modelRgb: Buffer;
}
/** Alpha at input resolution. */
export interface Alpha { alpha: Uint8Array }
/** The photo's pixels with the edge colours freed of the old background (same layout as the input). */
export interface Colours { colours: Uint8Array }

/**
 * ISNet alpha for the image, from one look at the image with its borders extended (edge pixels repeated).
 * ISNet looks for an object with background around it; when the subject fills the frame and is cut by its
 * borders (close-ups, tight crops) it finds nothing in the bare frame. The repeated edges read as a
 * margin around the subject, without the artificial frame a flat colour would draw. The network's input is
 * always 1024x1024, so the margin costs no model time; the matte covering the image itself is smaller
 * (1024 / (1 + 2 * CONTEXT) per side), which the guided upscale in refineEdges makes up for.
 */
export const predictMatte = (modelId: string, context = CONTEXT): Step<P, object, Predicted> => async (c, kit) => {
  const model = await kit.models.get<IsnetModel>(modelId);
  const { matte, rgb } = await predict(model, c.image, context, 'copy');
  return { matte, modelRgb: rgb };
};

/**
 * Fast guided filter: coefficients on the matte's grid (guide = what the network saw), applied to the
 * full-resolution grey image, so upscaled edges snap to the photo's edges instead of a bilinear blur.
 * Only when the image is larger than the grid along some side: a matte that is only ever shrunk is
 * already as sharp as the image (docs/experiments/commodity-background-removal.md#the-guided-upscale-radius-1-eps-1e-4).
 */
export const refineEdges: Step<P, Predicted, Partial<Alpha>> = (c) => {
  const { matte } = c.state;
  if (c.image.width <= matte.width && c.image.height <= matte.height) return {};
  return guidedUpscale(c);
};

/** refineEdges without its guard (the quality script compares both ways on every image). */
export function guidedUpscale(c: Ctx<P, Predicted>): Alpha {
  const { matte, modelRgb } = c.state;
  const { width, height, channels, data } = c.image;
  const p = new Float32Array(matte.data.length);
  for (let i = 0; i < p.length; i++) p[i] = matte.data[i] / 255;
  const coef = guidedCoefficients(lumaPlane(modelRgb, matte.width, matte.height, 3), p, matte.width, matte.height, RADIUS, EPS);
  const alpha = applyCoefficients(coef, lumaPlane(data, width, height, channels), width, height);
  if (channels === 4) multiplyByInputAlpha(alpha, data);
  return { alpha };
}

/** The matte resized to the image (bilinear), unless refineEdges has already made the alpha. */
export const resizeMatte: Step<P, Predicted & Partial<Alpha>, Alpha> = async (c) => {
  const { matte, alpha: refined } = c.state;
  if (refined) return { alpha: refined };
  const { width, height, channels, data } = c.image;
  const buf = await sharp(matte.data, { raw: { width: matte.width, height: matte.height, channels: 1 } })
    .resize(width, height, { fit: 'fill', kernel: 'linear' }).toColourspace('b-w').raw().toBuffer();
  const alpha = new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
  if (channels === 4) multiplyByInputAlpha(alpha, data);
  return { alpha };
};

/**
 * The foreground colour under the soft edge (engine/image/foreground.ts), so the old background does not
 * show as a fringe on a new one; not for the mask form, which has no colour.
 */
export const decontaminateEdges: Step<P, Alpha, Partial<Colours>> = (c) => {
  if (c.params.return_form === 'mask') return {};
  const { width, height, channels, data } = c.image;
  return { colours: decontaminate(data, width, height, channels, c.state.alpha, FOREGROUND_RADII) };
};

/** The requested form, from the decontaminated colours when there are some (the photo's own otherwise). */
export const applyReturnForm: Step<P, Alpha & Partial<Colours>, { result: RawPixels }> = (c) => {
  const { alpha } = c.state;
  const { width, height, channels } = c.image;
  const data = c.state.colours ?? c.image.data;
  switch (c.params.return_form) {
    case 'mask':
      return { result: { data: alpha, width, height, channels: 1 } };
    case 'whiteBK':
      return { result: { data: overWhite(data, channels, alpha), width, height, channels: 3 } };
    case 'crop': {
      // Nothing found: the whole frame, fully transparent, like the mask form's all-black answer,
      // rather than an error (no error code fits "no product", and a client can still show it).
      const box = alphaBounds(alpha, width, height, CROP_THRESHOLD) ?? { x0: 0, y0: 0, w: width, h: height };
      const cut = withAlpha(extractBox(data, width, channels, box), channels, extractBox(alpha, width, 1, box));
      return { result: { data: cut, width: box.w, height: box.h, channels: 4 } };
    }
    default:
      return { result: { data: withAlpha(data, channels, alpha), width, height, channels: 4 } };
  }
};

export const encodeResult: Step<P, { result: RawPixels }> = async (c) => {
  c.output.images.result = await encodePngFast(c.state.result);
};
