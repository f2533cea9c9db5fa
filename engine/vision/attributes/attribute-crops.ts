/**
 * The squares the attribute models read: a square crop around the face, upright along the eyes (crop.ts's
 * cropRoi), sized relative to the face's extent, cut as each model's spec says and normalised its way.
 */
import type { RasterImage } from '../../image/raster.ts';
import type { HumanLike, TensorLike, TfLike } from '../models/human.ts';
import { cropRoi, cropRoiPixels, type Roi } from '../faces/crop.ts';
import type { Face } from '../faces/detect.ts';
import { roiFromMesh, ROI_SCALE } from '../faces/mesh.ts';
import type { AttributeModelSpec, Norm } from './attribute-specs.ts';

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

export type Tf = TfLike & {
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
 * What a face's square shows where it runs past the image: black, or the image's edge pixels repeated
 * (a tight face chip then looks like a face with surroundings rather than a face framed in black).
 */
export type Border = 'black' | 'edge';

/**
 * The squares already cut for one image (modelCrops' output as data), by what determines them: models that
 * read the same squares (FaceRes-deep under two input conventions, for age and for gender) cut them once.
 */
export type CropCache = Map<string, { data: Float32Array; shape: number[] }>;

/** The normalisations normaliseData does (those of the ONNX models' conventions), for a spec with no box or stretch. */
export function pixelNorm(spec: AttributeModelSpec): 'rgb255' | 'caffe' | undefined {
  return !spec.box && !spec.stretch && (spec.norm === 'rgb255' || spec.norm === 'caffe') ? spec.norm : undefined;
}

/** modelCrops' squares (no box, no stretch) as data, [n, size, size, 3] in 0..1, from cropRoiPixels (cropRoi's values); cached like sharedCrops. */
export function pixelCrops(spec: AttributeModelSpec, image: RasterImage, rois: Roi[], border: Border, shared?: { cache: CropCache; key: string }): Float32Array {
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
export async function sharedCrops(tf: Tf, spec: AttributeModelSpec, image: RasterImage, rois: Roi[], border: Border, t: Record<string, TensorLike>, shared?: { cache: CropCache; key: string }): Promise<TensorLike> {
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
export function normalise(tf: Tf, x: TensorLike, norm: Norm, t: Record<string, TensorLike>): TensorLike {
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
