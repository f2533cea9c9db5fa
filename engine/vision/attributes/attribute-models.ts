/**
 * Runs the attribute models (attribute-specs.ts) on the faces' squares (attribute-crops.ts): all faces of an
 * image batched into one model call, on onnxruntime where the model has a network there, else on tfjs.
 */
import type { RasterImage } from '../../image/raster.ts';
import { humanModel, type HumanLike, type TensorLike } from '../models/human.ts';
import type { OnnxNet } from '../models/onnx.ts';
import { loadFaceApi, type FaceApiNets } from '../models/face-api.ts';
import type { ModelRegistry } from '../models/registry.ts';
import { FACERES_FILE, FACERES_INPUT, FACERES_ONNX_ID, FACERES_OUTPUTS } from '../models/faceres-onnx.ts';
import type { Roi } from '../faces/crop.ts';
import { normalise, normaliseData, pixelCrops, pixelNorm, sharedCrops, type Border, type CropCache, type Tf } from './attribute-crops.ts';
import { averageViews } from './attribute-decode.ts';
import { fromFaceApiExpression, type AttributeModelSpec, type RawAttributes } from './attribute-specs.ts';

/**
 * The attribute models that also run on onnxruntime (converted in memory, outputs equal to 1e-6): per
 * model file, the network's catalog id, its input and its outputs. FaceRes-deep, the heaviest, runs
 * 4-8x cheaper there than on tfjs-wasm.
 */
const ONNX_NETS: Record<string, { id: string; input: string; outputs: string[] }> = {
  [FACERES_FILE]: { id: FACERES_ONNX_ID, input: FACERES_INPUT, outputs: Object.values(FACERES_OUTPUTS) },
};

/**
 * The ONNX network for a model file, or undefined: then tfjs runs the graph; and face-api's nets (the
 * registry's 'face-api'), for the specs that name one.
 */
export type AttributeNets = ((file: string) => Promise<OnnxNet | undefined>) & { faceApi?: () => Promise<FaceApiNets> };

/**
 * The registry's ONNX attribute networks; one that fails to open stays on tfjs (same outputs, slower),
 * with a warning, as the face parser does.
 */
export function registryNets(models: ModelRegistry): AttributeNets {
  const onnx = async (file: string) => {
    const spec = ONNX_NETS[file];
    if (!spec) return undefined;
    return models.get<OnnxNet>(spec.id).catch((err: unknown) => {
      if (!warned.has(file)) process.emitWarning(`attribute models: no ONNX network for ${file}, running tfjs: ${err instanceof Error ? err.message : String(err)}`);
      warned.add(file);
      return undefined;
    });
  };
  return Object.assign(onnx, { faceApi: () => models.get<FaceApiNets>('face-api') });
}
const warned = new Set<string>();

/** ONNX outputs dressed as the tensors the models' read() functions take. */
const asTensors = (out: Record<string, { data: Float32Array; dims: number[] }>, names: string[]): TensorLike[] =>
  names.map((k) => ({ shape: out[k].dims, dtype: 'float32', data: async () => out[k].data, dispose() {} }));

/** Faces per model call (the wasm backend runs a batch faster than single calls; memory stays small). */
const BATCH = 8;

/**
 * Runs one model on the given squares of the image, batched; with `flip` also on their mirror images and
 * averages the two (the models learnt with horizontal flips, so both views are equally valid).
 * Returns one RawAttributes per ROI. Every tensor made here is disposed before it returns. `crops`: squares
 * cut by an earlier call on the same image and ROIs, reused (and this call's added).
 */
export async function runAttributeModel(human: HumanLike, spec: AttributeModelSpec, image: RasterImage, rois: Roi[], flip = false, nets?: AttributeNets, border: Border = 'black', crops?: CropCache): Promise<RawAttributes[]> {
  const { plain, mirrored } = await runViews(human, spec, image, rois, flip, nets, border, crops);
  return mirrored ? plain.map((p, i) => averageViews(p, mirrored[i])) : plain;
}

/** Both views separately (the quality script compares plain with flip-averaged from one run). */
export async function runAttributeModelViews(human: HumanLike, spec: AttributeModelSpec, image: RasterImage, rois: Roi[], border: Border = 'black', nets?: AttributeNets): Promise<{ plain: RawAttributes[]; mirrored: RawAttributes[] }> {
  const { plain, mirrored } = await runViews(human, spec, image, rois, true, nets, border);
  return { plain, mirrored: mirrored! };
}

/**
 * The batch [n, h, w, c] followed by its mirror images (each row reversed), as one [2n, h, w, c] array: what
 * tf.reverse and tf.concat gave, value for value, without the wasm backend's reverse (its per-element index
 * arithmetic cost more than the crops on 224 px squares). Normalisation is per pixel, so mirroring after it is
 * the same as before it.
 */
export function withMirrors(data: Float32Array, [n, h, w, c]: readonly number[]): Float32Array {
  const len = n * h * w * c, out = new Float32Array(2 * len);
  out.set(data.subarray(0, len));
  const row = w * c;
  for (let r = 0; r < n * h; r++) {
    const src = r * row, dst = len + r * row;
    for (let x = 0; x < w; x++) {
      const s = src + (w - 1 - x) * c, d = dst + x * c;
      for (let k = 0; k < c; k++) out[d + k] = data[s + k];
    }
  }
  return out;
}

async function runViews(human: HumanLike, spec: AttributeModelSpec, image: RasterImage, rois: Roi[], flip: boolean, nets: AttributeNets | undefined, border: Border, crops?: CropCache): Promise<{ plain: RawAttributes[]; mirrored?: RawAttributes[] }> {
  if (spec.faceApi) return runFaceApi(spec, image, rois, flip, nets, border, crops);
  const tf = human.tf as Tf;
  const net = await nets?.(spec.file);
  const onnx = net && ONNX_NETS[spec.file];
  const model = onnx ? undefined : await humanModel(human, spec.file);
  const plain: RawAttributes[] = [], mirrored: RawAttributes[] = [];
  for (let b = 0; b < rois.length; b += BATCH) {
    const batch = rois.slice(b, b + BATCH);
    const t: Record<string, TensorLike> = {};
    let outputs: TensorLike[] = [];
    try {
      let dims: number[], data: Float32Array | undefined;
      const plainData = onnx && pixelNorm(spec);
      if (plainData) {
        // onnxruntime takes plain data: squares and normalisation as data too, the values tfjs gives (no tensors).
        const px = pixelCrops(spec, image, batch, border, crops && { cache: crops, key: `${b}` });
        dims = [batch.length, spec.size, spec.size, 3];
        data = normaliseData(px, plainData);
      } else {
        const rgb = await sharedCrops(tf, spec, image, batch, border, t, crops && { cache: crops, key: `${b}` });
        t.input = normalise(tf, rgb, spec.norm, t);
        dims = [...t.input.shape];
      }
      // Both views in one batch: the plain squares, then their mirror images.
      if (flip) data = withMirrors(data ?? await t.input.data() as Float32Array, dims);
      if (flip) dims[0] *= 2;
      let raw: RawAttributes[];
      if (onnx) {
        // The network runs on onnxruntime (the squares cut and normalised as data above, or on tfjs for the other conventions).
        const out = await net.run({ [onnx.input]: { data: data ?? Float32Array.from(await t.input.data()), dims } }, onnx.outputs);
        raw = await spec.read(asTensors(out, onnx.outputs), dims[0]);
      } else {
        if (data) t.both = tf.tensor4d(data, dims as [number, number, number, number], 'float32');
        const y = model!.execute(t.both ?? t.input);
        outputs = Array.isArray(y) ? y : [y];
        raw = await spec.read(outputs, dims[0]);
      }
      plain.push(...raw.slice(0, batch.length));
      if (flip) mirrored.push(...raw.slice(batch.length));
    } finally {
      tf.dispose([...Object.values(t), ...outputs]);
    }
  }
  return flip ? { plain, mirrored } : { plain };
}

let threadFaceApi: Promise<FaceApiNets> | undefined;

/** A face-api net on the squares (0..255 RGB, face-api normalises inside), plain and mirrored in one batch. */
async function runFaceApi(spec: AttributeModelSpec, image: RasterImage, rois: Roi[], flip: boolean, nets: AttributeNets | undefined, border: Border, crops?: CropCache): Promise<{ plain: RawAttributes[]; mirrored?: RawAttributes[] }> {
  // Without a registry's (a caller passing no nets runs everything in this thread), this thread's own.
  const fa = await (nets?.faceApi ? nets.faceApi() : (threadFaceApi ??= loadFaceApi()));
  const plain: RawAttributes[] = [], mirrored: RawAttributes[] = [];
  for (let b = 0; b < rois.length; b += BATCH) {
    const batch = rois.slice(b, b + BATCH);
    const dims = [batch.length, spec.size, spec.size, 3];
    let data = normaliseData(pixelCrops(spec, image, batch, border, crops && { cache: crops, key: `${b}` }), 'rgb255');
    if (flip) data = withMirrors(data, dims);
    const n = flip ? 2 * batch.length : batch.length;
    const raw: RawAttributes[] = spec.faceApi === 'ageGender'
      ? (await fa.ageGender(data, n)).map(({ age, male }) => ({ age, male }))
      : (await fa.expression(data, n)).map((p) => ({ emotion: fromFaceApiExpression(p) }));
    plain.push(...raw.slice(0, batch.length));
    if (flip) mirrored.push(...raw.slice(batch.length));
  }
  return flip ? { plain, mirrored } : { plain };
}
