/**
 * Rotated square crops of the full-resolution image, the input of the mesh and iris models. Each crop reads
 * only the image pixels under its square: they are copied into a small float tensor (box-averaged by an
 * integer factor first when the crop shrinks them a lot, so the samples do not alias), and one tfjs
 * projective transform (bilinear) samples the square upright at its exact sub-pixel position. No tensor of
 * the whole image is made: on a large photo that cost more than the models. `roiPoint` maps crop pixels
 * back to image pixels.
 */
import type { RasterImage } from '../../image/raster.ts';
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
};

/** Bilinear sampling alone is fine up to this shrink; beyond it the pixels are box-averaged first. */
const MAX_DIRECT_SHRINK = 2.5;
/** Shrink left for the bilinear step after box averaging. */
const RESIDUAL_SHRINK = 1.25;

/**
 * The box-averaged image region under a square and the affine map from output pixels to region pixels,
 * shared by cropRoi and cropRoiPixels so that both sample the same points.
 */
function cropRegion(image: RasterImage, roi: Roi, out: number, flip: boolean, direct = false): { pixels: Float32Array | Uint8Array; base: number; stride: number; w: number; h: number; a: number[] } {
  const shrink = roi.size / out;
  const f = shrink <= MAX_DIRECT_SHRINK ? 1 : Math.floor(shrink / RESIDUAL_SHRINK);
  // Axis-aligned region under the rotated square, plus the bilinear taps, clipped to the image.
  const half = (roi.size / 2) * (Math.abs(Math.cos(roi.angle)) + Math.abs(Math.sin(roi.angle))) + 2 * f + 1;
  const left = clampTo(Math.floor(roi.cx - half), image.width), top = clampTo(Math.floor(roi.cy - half), image.height);
  const right = clampTo(Math.ceil(roi.cx + half), image.width), bottom = clampTo(Math.ceil(roi.cy + half), image.height);
  const w = Math.max(1, Math.ceil((right - left) / f)), h = Math.max(1, Math.ceil((bottom - top) / f));
  // `direct`: an RGB image read where it lies when no averaging is needed (the region's copy as floats
  // would hold the same values); base and stride then place the region's pixels in it.
  const inImage = direct && f === 1 && image.channels === 3 && right > left && bottom > top;
  const pixels = inImage ? image.data : right > left && bottom > top ? boxAverage(image, left, top, right, bottom, f, w, h) : new Float32Array(w * h * 3);
  const base = inImage ? (top * image.width + left) * 3 : 0, stride = inImage ? image.width * 3 : w * 3;
  // Output pixel (i, j) has its centre at crop coordinates (i + .5, j + .5); the image point there, in
  // region pixel indices, is (x - left) / f - .5 (region pixel k covers image [left + k f, left + (k + 1) f)).
  const c = Math.cos(roi.angle), n = Math.sin(roi.angle), fx = flip ? -1 : 1;
  const u0 = flip ? out - 0.5 - out / 2 : 0.5 - out / 2, v0 = 0.5 - out / 2;
  const k = shrink / f;
  const a = [
    k * c * fx, -k * n, (roi.cx + shrink * (c * u0 - n * v0) - left) / f - 0.5,
    k * n * fx, k * c, (roi.cy + shrink * (n * u0 + c * v0) - top) / f - 0.5,
  ];
  return { pixels, base, stride, w, h, a };
}

/**
 * The square as a [1, out, out, 3] float32 tensor in 0..1 (the caller disposes it). Outside the image:
 * `fill` (0..255, default black), or 'edge': the nearest image pixel repeated.
 */
export async function cropRoi(tfl: TfLike, image: RasterImage, roi: Roi, out: number, flip = false, fill: number | 'edge' = 0): Promise<TensorLike> {
  const tf = tfl as Tf;
  const { pixels, w, h, a } = cropRegion(image, roi, out, flip);
  const t: Record<string, TensorLike> = {};
  try {
    t.img = tf.tensor4d(pixels, [1, h, w, 3], 'float32');
    t.m = tf.tensor2d([[...a, 0, 0]]);
    // The region is clipped to the image, so 'nearest' beyond it repeats the image's own edge.
    t.warped = fill === 'edge'
      ? tf.image.transform(t.img, t.m, 'bilinear', 'nearest', 0, [out, out])
      : tf.image.transform(t.img, t.m, 'bilinear', 'constant', fill, [out, out]);
    return tf.div(t.warped, 255);
  } finally {
    tf.dispose(t);
  }
}

/**
 * cropRoi's square as plain data, [out, out, 3] row-major in 0..1, for a caller that hands it to onnxruntime
 * rather than to tfjs (the face parser): the same region, box averaging and affine map, and the bilinear
 * sampling of tfjs's Transform kernel (TensorFlow's image_ops.h) in float32 step by step (Math.fround after
 * every operation, as the kernel's float arithmetic rounds), so the values are cropRoi's to the bit
 * (crop.test.ts), without a tensor of the region, the wasm transform and the copy back out.
 */
export function cropRoiPixels(image: RasterImage, roi: Roi, out: number, flip = false, fill: number | 'edge' = 0): Float32Array {
  const f32 = Math.fround;
  const { pixels, base, stride, w, h, a } = cropRegion(image, roi, out, flip, true);
  // The transform as the float32 tensor cropRoi makes of it.
  const [a0, a1, a2, a3, a4, a5] = a.map(f32);
  const edge = fill === 'edge', value = edge ? 0 : f32(fill);
  const result = new Float32Array(out * out * 3);
  const read = (y: number, x: number, ch: number) => (y >= 0 && y < h && x >= 0 && x < w ? pixels[base + y * stride + x * 3 + ch] : value);
  for (let oy = 0; oy < out; oy++) {
    const ry = f32(a1 * oy), ry4 = f32(a4 * oy);
    for (let ox = 0; ox < out; ox++) {
      let x = f32(f32(f32(a0 * ox) + ry) + a2), y = f32(f32(f32(a3 * ox) + ry4) + a5);
      // 'nearest' fill clamps the coordinate into the region (which is clipped to the image: its edge repeats).
      if (edge) { x = Math.min(Math.max(x, 0), w - 1); y = Math.min(Math.max(y, 0), h - 1); }
      const xf = Math.floor(x), yf = Math.floor(y), xc = xf + 1, yc = yf + 1;
      const wx0 = f32(xc - x), wx1 = f32(x - xf), wy0 = f32(yc - y), wy1 = f32(y - yf);
      const o = (oy * out + ox) * 3;
      if (xf >= 0 && yf >= 0 && xc < w && yc < h) {
        // All four taps inside the region (most of the square): no bounds checks.
        const i00 = base + yf * stride + xf * 3, i10 = i00 + stride;
        for (let ch = 0; ch < 3; ch++) {
          const top0 = f32(f32(wx0 * pixels[i00 + ch]) + f32(wx1 * pixels[i00 + 3 + ch]));
          const bot0 = f32(f32(wx0 * pixels[i10 + ch]) + f32(wx1 * pixels[i10 + 3 + ch]));
          result[o + ch] = f32(f32(f32(wy0 * top0) + f32(wy1 * bot0)) / 255);
        }
        continue;
      }
      for (let ch = 0; ch < 3; ch++) {
        const top0 = f32(f32(wx0 * read(yf, xf, ch)) + f32(wx1 * read(yf, xc, ch)));
        const bot0 = f32(f32(wx0 * read(yc, xf, ch)) + f32(wx1 * read(yc, xc, ch)));
        result[o + ch] = f32(f32(f32(wy0 * top0) + f32(wy1 * bot0)) / 255);
      }
    }
  }
  return result;
}

const clampTo = (v: number, max: number) => Math.max(0, Math.min(max, v));

/**
 * Image pixels [left, right) x [top, bottom) as w x h RGB floats (0..255), each the mean of an f x f block
 * (partial blocks at the edge average what they have). Transparent pixels are shown over white.
 */
export function boxAverage(image: RasterImage, left: number, top: number, right: number, bottom: number, f: number, w: number, h: number): Float32Array {
  const { data, width, channels: ch } = image;
  const out = new Float32Array(w * h * 3);
  if (f === 1 && ch === 3) {
    for (let y = top, o = 0; y < bottom; y++) {
      const row = (y * width + left) * 3;
      for (let i = 0, n = (right - left) * 3; i < n; i++) out[o++] = data[row + i];
    }
    return out;
  }
  const count = new Float32Array(w * h);
  for (let y = top; y < bottom; y++) {
    const oy = ((y - top) / f) | 0;
    for (let x = left; x < right; x++) {
      const j = (y * width + x) * ch, o = oy * w + (((x - left) / f) | 0);
      const al = ch === 4 ? data[j + 3] / 255 : 1, white = 255 * (1 - al);
      out[3 * o] += data[j] * al + white; out[3 * o + 1] += data[j + 1] * al + white; out[3 * o + 2] += data[j + 2] * al + white;
      count[o]++;
    }
  }
  for (let o = 0; o < w * h; o++) {
    const k = count[o] > 0 ? 1 / count[o] : 0;
    out[3 * o] *= k; out[3 * o + 1] *= k; out[3 * o + 2] *= k;
  }
  return out;
}
