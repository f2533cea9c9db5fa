/**
 * Rotated square crops of the full-resolution image, the input of the mesh and iris models: one tfjs
 * projective transform (bilinear) samples the square upright at its exact sub-pixel position. Straight
 * from a tensor of the whole image when the crop shrinks the image little (the usual case, and the fast
 * one); when it shrinks a lot, sharp first cuts and scales the region with proper filtering. `roiPoint`
 * maps crop pixels back to image pixels.
 */
import sharp from 'sharp';
import type { RasterImage } from '../../effects/effect.ts';
import type { TensorLike, TfLike } from '../models/human.ts';

/** A square in the image: centre, side (pixels) and the clockwise angle (radians) of its top edge. */
export interface Roi { cx: number; cy: number; size: number; angle: number }

/** Image position of crop point (u, v), crop coordinates running 0..out across the square. */
export function roiPoint(roi: Roi, out: number, u: number, v: number, flip = false): [number, number] {
  const s = roi.size / out;
  const dx = ((flip ? out - u : u) - out / 2) * s, dy = (v - out / 2) * s;
  const c = Math.cos(roi.angle), n = Math.sin(roi.angle);
  return [roi.cx + c * dx - n * dy, roi.cy + n * dx + c * dy];
}

type Tf = TfLike & {
  image: { transform(img: TensorLike, t: TensorLike, interp: string, fill: string, value: number, shape: [number, number]): TensorLike };
  tensor2d(v: number[][] | Float32Array, shape?: [number, number]): TensorLike;
  div(a: TensorLike, b: number): TensorLike;
  reverse(a: TensorLike, axis: number): TensorLike;
};

/** The image to crop from, with (up to MAX_TENSOR pixels) a float tensor of it made once for many crops. */
export interface CropSource { image: RasterImage; tensor?: TensorLike }

const MAX_TENSOR = 4_200_000;
/** Beyond this shrink factor, bilinear sampling would alias: sharp filters first. */
const MAX_DIRECT_SHRINK = 2.5;

export function cropSource(tf: TfLike, image: RasterImage): CropSource {
  if (image.width * image.height > MAX_TENSOR) return { image };
  const n = image.width * image.height, c = image.channels;
  const f = new Float32Array(n * 3);
  for (let i = 0, j = 0; i < n; i++, j += c) {
    // Transparent pixels over white, as everywhere else.
    const a = c === 4 ? image.data[j + 3] / 255 : 1;
    f[3 * i] = image.data[j] * a + 255 * (1 - a); f[3 * i + 1] = image.data[j + 1] * a + 255 * (1 - a); f[3 * i + 2] = image.data[j + 2] * a + 255 * (1 - a);
  }
  return { image, tensor: tf.tensor4d(f, [1, image.height, image.width, 3], 'float32') };
}

/** The square as a [1, out, out, 3] float32 tensor in 0..1 (the caller disposes it). */
export async function cropRoi(tfl: TfLike, source: CropSource | RasterImage, roi: Roi, out: number, flip = false): Promise<TensorLike> {
  const tf = tfl as Tf;
  const src: CropSource = 'image' in source ? source : { image: source };
  if (src.tensor && roi.size / out <= MAX_DIRECT_SHRINK) return direct(tf, src.tensor, roi, out, flip);
  const image = src.image;
  const scale = out / roi.size;
  // Axis-aligned region that holds the rotated square, plus a pixel for the bilinear taps.
  const half = (roi.size / 2) * (Math.abs(Math.cos(roi.angle)) + Math.abs(Math.sin(roi.angle))) + 2 / scale + 1;
  const left = Math.floor(roi.cx - half), top = Math.floor(roi.cy - half);
  const side = Math.ceil(roi.cx + half) - left;
  const region = await extractPadded(image, left, top, side);
  const rs = Math.max(2, Math.round(side * scale));
  const small = await sharp(region, { raw: { width: side, height: side, channels: 3 } })
    .resize(rs, rs, { fit: 'fill', kernel: scale < 1 ? 'lanczos3' : 'cubic' }).raw().toBuffer();
  const k = rs / side; // region pixels -> small pixels
  // Output pixel (i, j) has its centre at crop coordinates (i + .5, j + .5); find that in `small` pixel indices.
  const c = Math.cos(roi.angle), n = Math.sin(roi.angle), s = roi.size / out;
  const ox = (roi.cx - left) * k, oy = (roi.cy - top) * k;
  // x_small = ox + k*s*(c*(u - out/2) - n*(v - out/2)) - .5 with u = i + .5 (and u = out - (i + .5) when flipped)
  const fx = flip ? -1 : 1;
  const a0 = k * s * c * fx, a1 = -k * s * n;
  const b0 = k * s * n * fx, b1 = k * s * c;
  const u0 = flip ? out - 0.5 - out / 2 : 0.5 - out / 2, v0 = 0.5 - out / 2;
  const a2 = ox + k * s * (c * u0 - n * v0) - 0.5;
  const b2 = oy + k * s * (n * u0 + c * v0) - 0.5;
  const t: Record<string, TensorLike> = {};
  try {
    t.img = tf.tensor4d(new Float32Array(Uint8Array.from(small)), [1, rs, rs, 3], 'float32');
    t.m = tf.tensor2d([[a0, a1, a2, b0, b1, b2, 0, 0]]);
    t.warped = tf.image.transform(t.img, t.m, 'bilinear', 'constant', 0, [out, out]);
    return tf.div(t.warped, 255);
  } finally {
    tf.dispose(t);
  }
}

/** The transform straight from the whole-image tensor: output pixel centre -> image pixel index. */
function direct(tf: Tf, img: TensorLike, roi: Roi, out: number, flip: boolean): TensorLike {
  const c = Math.cos(roi.angle), n = Math.sin(roi.angle), s = roi.size / out, fx = flip ? -1 : 1;
  const u0 = flip ? out - 0.5 - out / 2 : 0.5 - out / 2, v0 = 0.5 - out / 2;
  const a = [s * c * fx, -s * n, roi.cx + s * (c * u0 - n * v0) - 0.5, s * n * fx, s * c, roi.cy + s * (n * u0 + c * v0) - 0.5];
  const t: Record<string, TensorLike> = {};
  try {
    t.m = tf.tensor2d([[...a, 0, 0]]);
    t.warped = tf.image.transform(img, t.m, 'bilinear', 'constant', 0, [out, out]);
    return tf.div(t.warped, 255);
  } finally {
    tf.dispose(t);
  }
}

/** side x side RGB from (left, top), black outside the image. */
async function extractPadded(image: RasterImage, left: number, top: number, side: number): Promise<Buffer> {
  const x0 = Math.max(0, left), y0 = Math.max(0, top);
  const x1 = Math.min(image.width, left + side), y1 = Math.min(image.height, top + side);
  let s = sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } });
  if (x1 <= x0 || y1 <= y0) return Buffer.alloc(side * side * 3);
  if (image.channels === 4) s = s.flatten({ background: '#ffffff' });
  s = s.extract({ left: x0, top: y0, width: x1 - x0, height: y1 - y0 });
  if (x0 - left || y0 - top || left + side - x1 || top + side - y1) {
    const cut = await s.raw().toBuffer();
    s = sharp(cut, { raw: { width: x1 - x0, height: y1 - y0, channels: 3 } })
      .extend({ left: x0 - left, top: y0 - top, right: left + side - x1, bottom: top + side - y1, background: '#000000' });
  }
  return s.removeAlpha().raw().toBuffer();
}
