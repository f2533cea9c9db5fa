/**
 * The person matte: every person in the photo as a soft 0..255 mask at full resolution. Four candidates
 * were measured against the person masks of the apparel ground truth (24 CCP/CIHP photos, person = label
 * > 0, IoU at 50%; scripts/quality/faces.ts --person): RVM 0.932 (~0.7 s), ISNet-medium 0.932 (~7 s,
 * and it keeps only the salient person: 0.43 on a photo of three children), selfie 0.913 (~0.15 s, 0.38 on
 * the same photo), meet 0.899. RVM is the only one good on every photo. The low-resolution prediction is
 * brought to full size with the fast guided filter, so its edge follows the photo. RVM runs on onnxruntime
 * (rvm-onnx.ts, its graph converted; about a tenth of tfjs-wasm's CPU), on tfjs when that cannot open.
 */
import sharp from 'sharp';
import { type Mask } from '../../image/mask.ts';
import type { RasterImage } from '../../image/raster.ts';
import type { ModelRegistry } from '../models/registry.ts';
import { humanModel, type HumanLike, type TensorLike } from '../models/human.ts';
import { applyCoefficients, guidedCoefficients } from '../../image/guided-filter.ts';
import { lumaPlane } from '../../image/luma.ts';
import { predictMatte, type IsnetModel } from '../models/isnet.ts';
import type { Face } from '../faces/detect.ts';
import { hairFromMatte } from './hair.ts';
import { RVM_ONNX_INPUT, RVM_ONNX_OUTPUT } from '../models/rvm-onnx.ts';
import { workGuide, type WorkGuide } from './work-guide.ts';
import type { OnnxNet } from '../models/onnx.ts';

export type PersonModel = 'selfie' | 'meet' | 'rvm' | 'isnet';

/** Chosen by measurement: see the module comment. */
export const PERSON_MODEL: PersonModel = 'rvm';

/** RVM's input, long side (px). */
export const RVM_SIDE = 512;

/** A matte at the model's resolution (values 0..1) over the whole image. */
interface LowRes { data: Float32Array; width: number; height: number }

type Tf = HumanLike['tf'] & {
  tidy<T>(f: () => T): T;
  scalar(v: number): TensorLike;
  zeros(shape: number[]): TensorLike;
  sub(a: TensorLike, b: TensorLike): TensorLike;
  sigmoid(a: TensorLike): TensorLike;
  slice(a: TensorLike, begin: number[], size: number[]): TensorLike;
};

/** The image as RGB 0..1 (NHWC), stretched to w x h (what these models were trained on). */
async function rgb01(image: RasterImage, w: number, h: number): Promise<Float32Array> {
  let s = sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } });
  if (image.channels === 4) s = s.flatten({ background: '#ffffff' });
  const rgb = await s.resize(w, h, { fit: 'fill', kernel: 'lanczos3' }).removeAlpha().raw().toBuffer();
  const f = new Float32Array(rgb.length);
  for (let i = 0; i < rgb.length; i++) f[i] = rgb[i] / 255;
  return f;
}

async function input(tf: Tf, image: RasterImage, w: number, h: number): Promise<TensorLike> {
  return tf.tensor4d(await rgb01(image, w, h), [1, h, w, 3], 'float32');
}

async function selfie(h: HumanLike, image: RasterImage): Promise<LowRes> {
  const tf = h.tf as Tf;
  const model = await humanModel(h, 'selfie.json');
  const t: Record<string, TensorLike> = {};
  try {
    t.in = await input(tf, image, 256, 256);
    t.out = model.execute(t.in) as TensorLike;
    return { data: Float32Array.from(await t.out.data()), width: 256, height: 256 };
  } finally { tf.dispose(t); }
}

async function meet(h: HumanLike, image: RasterImage): Promise<LowRes> {
  const tf = h.tf as Tf;
  const model = await humanModel(h, 'meet.json');
  const t: Record<string, TensorLike> = {};
  try {
    t.in = await input(tf, image, 256, 144);
    t.out = model.execute(t.in) as TensorLike;
    // Two channels, background and person logits: the person's probability is sigmoid(fg - bg).
    t.bg = tf.slice(t.out, [0, 0, 0, 0], [1, 144, 256, 1]);
    t.fg = tf.slice(t.out, [0, 0, 0, 1], [1, 144, 256, 1]);
    t.d = tf.sub(t.fg, t.bg);
    t.p = tf.sigmoid(t.d);
    return { data: Float32Array.from(await t.p.data()), width: 256, height: 144 };
  } finally { tf.dispose(t); }
}

/**
 * RVM on onnxruntime (rvm-onnx.ts: the same graph, alpha equal to 1e-4), undefined when the registry cannot
 * give it: then tfjs runs the graph (same matte, several times the CPU), with a warning.
 */
async function rvmNet(models: ModelRegistry): Promise<OnnxNet | undefined> {
  return models.get<OnnxNet>('rvm-onnx').catch((err: unknown) => {
    if (!warned) process.emitWarning(`person matte: no ONNX networks for RVM, running tfjs: ${err instanceof Error ? err.message : String(err)}`);
    warned = true;
    return undefined;
  });
}
let warned = false;

/**
 * Robust Video Matting on a still, from a zero recurrent state: a second pass on the same frame (to warm
 * the state, as with video) measured no better (IoU 0.933 against 0.932) at twice the cost.
 */
async function rvm(models: ModelRegistry, image: RasterImage, side = RVM_SIDE): Promise<LowRes> {
  // `side` px on the long side, multiples of 16; its encoder then runs at half that (downsample_ratio).
  const k = Math.min(1, side / Math.max(image.width, image.height));
  const w = Math.max(16, Math.round((image.width * k) / 16) * 16), hh = Math.max(16, Math.round((image.height * k) / 16) * 16);
  const net = await rvmNet(models);
  if (net) {
    const out = await net.run({ [RVM_ONNX_INPUT]: { data: await rgb01(image, w, hh), dims: [1, hh, w, 3] } }, [RVM_ONNX_OUTPUT]);
    return { data: out[RVM_ONNX_OUTPUT].data, width: w, height: hh };
  }
  const h = await models.get<HumanLike>('human');
  const tf = h.tf as Tf;
  const model = await humanModel(h, 'rvm.json');
  const t: Record<string, TensorLike> = {};
  let out: TensorLike[] = [];
  try {
    t.src = await input(tf, image, w, hh);
    t.ratio = tf.scalar(0.5);
    for (const r of ['r1i', 'r2i', 'r3i', 'r4i']) t[r] = tf.scalar(0);
    out = await model.executeAsync({ src: t.src, r1i: t.r1i, r2i: t.r2i, r3i: t.r3i, r4i: t.r4i, downsample_ratio: t.ratio }, ['pha', 'r1o', 'r2o', 'r3o', 'r4o']) as TensorLike[];
    return { data: Float32Array.from(await out[0].data()), width: w, height: hh };
  } finally { tf.dispose([...Object.values(t), ...out]); }
}

async function isnet(models: ModelRegistry, image: RasterImage): Promise<LowRes> {
  const m = await predictMatte(await models.get<IsnetModel>('isnet-medium'), image);
  return { data: Float32Array.from(m.data, (v) => v / 255), width: m.width, height: m.height };
}

/**
 * The matte at full resolution (or, `small`, at the guide's size: for a caller that reads it no finer):
 * the matte and a small copy of the photo (workGuide: at most 512 px long; given when the caller has it)
 * meet in the fast guided filter.
 */
export async function upscale(low: LowRes, image: RasterImage, small = false, work?: WorkGuide): Promise<Mask> {
  const g = work ?? await workGuide(image);
  const gw = g.width, gh = g.height;
  // Typed loops, not Array.from with a callback: that boxed every value of the matte (a third of upscale's time).
  const bytes = Buffer.alloc(low.data.length);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.round(Math.min(1, Math.max(0, low.data[i])) * 255);
  const p8 = await sharp(bytes, { raw: { width: low.width, height: low.height, channels: 1 } }).resize(gw, gh, { fit: 'fill', kernel: 'cubic' }).extractChannel(0).raw().toBuffer();
  const p = new Float32Array(p8.length);
  for (let i = 0; i < p8.length; i++) p[i] = p8[i] / 255;
  const guideLuma = g.luma;
  const coef = guidedCoefficients(guideLuma, p, gw, gh, Math.max(2, Math.round(gw / 96)), 1e-3);
  if (small) return { data: applyCoefficients(coef, guideLuma, gw, gh), width: gw, height: gh };
  const data = applyCoefficients(coef, lumaPlane(image.data, image.width, image.height, image.channels), image.width, image.height);
  return { data, width: image.width, height: image.height };
}

/**
 * The matte from one particular model (for measurement and comparison). `small`: at the guide's size (the
 * photo at most 512 px long) rather than the photo's, for a caller that reads it no finer (the hair mask).
 */
export async function personMatteWith(models: ModelRegistry, image: RasterImage, model: PersonModel, opts: { rvmSide?: number; small?: boolean; guide?: WorkGuide } = {}): Promise<Mask> {
  const human = model === 'selfie' || model === 'meet' ? await models.get<HumanLike>('human') : undefined;
  const low = model === 'selfie' ? await selfie(human!, image)
    : model === 'meet' ? await meet(human!, image)
      : model === 'rvm' ? await rvm(models, image, opts.rvmSide)
        : await isnet(models, image);
  return upscale(low, image, opts.small, opts.guide);
}

/** Every person in the photo, 255 = person. Callers that need it twice keep it (the pipeline's job facts do). */
export function personMatte(models: ModelRegistry, image: RasterImage): Promise<Mask> {
  return personMatteWith(models, image, PERSON_MODEL);
}

/** Hair of the people whose faces are given (hair.ts), 255 = hair. */
export async function hairMask(models: ModelRegistry, image: RasterImage, faces: Face[], matte?: Mask): Promise<Mask> {
  return hairFromMatte(image, matte ?? await personMatte(models, image), faces);
}
