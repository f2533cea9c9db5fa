/**
 * Puts an edited cutout together on a canvas: the backdrop (transparent, a colour, an image, or the photo
 * blurred), an optional soft shadow, and the subject (the photo's pixels under the edited mask). The preview
 * draws it at the mask's size; the download at the original photo's size, the mask brought up to it.
 */
import type { Mask, Pixels } from './mask-ops.ts';

export type Backdrop =
  | { kind: 'transparent' }
  | { kind: 'colour'; colour: string }
  | { kind: 'image'; image: ImageBitmap }
  | { kind: 'blur' };

export type AnyCanvas = OffscreenCanvas | HTMLCanvasElement;
type Ctx2D = OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D;

export function makeCanvas(width: number, height: number): AnyCanvas {
  if (typeof OffscreenCanvas === 'function') return new OffscreenCanvas(width, height);
  return Object.assign(document.createElement('canvas'), { width, height });
}

export const context = (c: AnyCanvas, read = false): Ctx2D => {
  const ctx = c.getContext('2d', read ? { willReadFrequently: true } : undefined) as Ctx2D | null;
  if (!ctx) throw new Error('This browser could not give the editor a canvas.');
  return ctx;
};

/** Blur strength as a share of the picture's long side, so the preview and the full-size download look alike. */
const BLUR_SHARE = 0.02;
const SHADOW_BLUR_SHARE = 0.025;
const SHADOW_DROP_SHARE = 0.012;
/** Blurs and shadows are made on a copy this many times smaller: a wide blur of 12 MP on the CPU takes seconds. */
const SMALL = 8;

/** The photo blurred, drawn over the whole frame (a small copy blurred, then drawn up: smooth either way). */
function drawBlurred(ctx: Ctx2D, photo: CanvasImageSource, width: number, height: number) {
  const sw = Math.max(1, Math.round(width / SMALL)), sh = Math.max(1, Math.round(height / SMALL));
  const small = makeCanvas(sw, sh);
  const sc = context(small);
  sc.drawImage(photo, 0, 0, sw, sh);
  const blurred = makeCanvas(sw, sh);
  const bc = context(blurred);
  // The sharp copy under the blurred one: near the borders the blur fades out and would show through.
  bc.drawImage(small, 0, 0);
  bc.filter = `blur(${Math.max(1, (Math.max(width, height) * BLUR_SHARE) / SMALL)}px)`;
  bc.drawImage(small, 0, 0);
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(blurred, 0, 0, width, height);
}

/** Fills the frame with an image the way CSS `object-fit: cover` does. */
function drawCover(ctx: Ctx2D, image: ImageBitmap, width: number, height: number) {
  const k = Math.max(width / image.width, height / image.height);
  const w = image.width * k, h = image.height * k;
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(image, (width - w) / 2, (height - h) / 2, w, h);
}

export function drawBackdrop(ctx: Ctx2D, backdrop: Backdrop, photo: CanvasImageSource, width: number, height: number) {
  ctx.clearRect(0, 0, width, height);
  if (backdrop.kind === 'colour') {
    ctx.fillStyle = backdrop.colour;
    ctx.fillRect(0, 0, width, height);
  } else if (backdrop.kind === 'image') drawCover(ctx, backdrop.image, width, height);
  else if (backdrop.kind === 'blur') drawBlurred(ctx, photo, width, height);
}

/** A soft shadow under the subject: its silhouette, darkened, blurred and dropped a little. */
export function drawShadow(ctx: Ctx2D, subject: AnyCanvas, width: number, height: number) {
  const sw = Math.max(1, Math.round(width / SMALL)), sh = Math.max(1, Math.round(height / SMALL));
  const long = Math.max(width, height);
  const pad = Math.ceil((long * SHADOW_BLUR_SHARE * 2) / SMALL);
  const sil = makeCanvas(sw + pad * 2, sh + pad * 2);
  const sc = context(sil);
  sc.drawImage(subject, pad, pad, sw, sh);
  sc.globalCompositeOperation = 'source-in';
  sc.fillStyle = 'rgba(0,0,0,0.5)';
  sc.fillRect(0, 0, sil.width, sil.height);
  const soft = makeCanvas(sil.width, sil.height);
  const softCtx = context(soft);
  softCtx.filter = `blur(${Math.max(1, (long * SHADOW_BLUR_SHARE) / SMALL)}px)`;
  softCtx.drawImage(sil, 0, 0);
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  const k = width / sw;
  ctx.drawImage(soft, -pad * k, -pad * k + long * SHADOW_DROP_SHARE, soft.width * k, soft.height * (height / sh));
}

/**
 * The subject's pixels: the photo's colours under the mask's alpha. Where the engine's cutout is part
 * transparent (the soft edge), its colours are taken instead: the engine has cleaned the old background's
 * colour out of them.
 */
export function subjectPixels(photo: Pixels, alpha: Uint8Array, edge?: Pixels): ImageData {
  const out = new ImageData(photo.width, photo.height);
  const d = out.data, p = photo.data, e = edge?.data;
  for (let i = 0, j = 0; i < alpha.length; i++, j += 4) {
    const a = alpha[i];
    const fromEdge = e !== undefined && a > 0 && a < 255 && e[j + 3] > 0;
    const s = fromEdge ? e : p;
    d[j] = s[j];
    d[j + 1] = s[j + 1];
    d[j + 2] = s[j + 2];
    d[j + 3] = a;
  }
  return out;
}

/** Reads a picture's RGBA pixels at a given size (drawn with smoothing when the size differs). */
export function pixelsOf(source: CanvasImageSource, width: number, height: number): Pixels {
  const c = makeCanvas(width, height);
  const ctx = context(c, true);
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(source, 0, 0, width, height);
  return { data: ctx.getImageData(0, 0, width, height).data, width, height };
}

/** The mask brought to another size: bilinear (canvas smoothing), read back from the red channel. */
export function resizeMask(mask: Mask, width: number, height: number): Uint8Array {
  if (mask.width === width && mask.height === height) return mask.alpha;
  const grey = new ImageData(mask.width, mask.height);
  for (let i = 0, j = 0; i < mask.alpha.length; i++, j += 4) {
    const a = mask.alpha[i];
    grey.data[j] = a;
    grey.data[j + 1] = a;
    grey.data[j + 2] = a;
    grey.data[j + 3] = 255;
  }
  const small = makeCanvas(mask.width, mask.height);
  context(small).putImageData(grey, 0, 0);
  const up = pixelsOf(small, width, height).data;
  const out = new Uint8Array(width * height);
  for (let i = 0, j = 0; i < out.length; i++, j += 4) out[i] = up[j];
  return out;
}

export interface ComposeOptions {
  backdrop: Backdrop;
  shadow: boolean;
}

/** The whole picture drawn onto `target` (already sized) from the subject's canvas and the photo. */
export function composeOnto(target: AnyCanvas, subject: AnyCanvas, photo: CanvasImageSource, options: ComposeOptions) {
  const ctx = context(target);
  const { width, height } = target;
  drawBackdrop(ctx, options.backdrop, photo, width, height);
  if (options.shadow) drawShadow(ctx, subject, width, height);
  ctx.drawImage(subject, 0, 0, width, height);
}

/**
 * The download: the edited cutout at the original photo's size. The mask (and the engine's edge colours) are
 * brought up from the size the engine worked at to the photo's, then composed as the preview is.
 */
export async function composeFullSize(input: { photo: ImageBitmap; mask: Mask; edge?: AnyCanvas } & ComposeOptions): Promise<Blob> {
  const { photo, mask } = input;
  const width = photo.width, height = photo.height;
  const alpha = resizeMask(mask, width, height);
  const pixels = pixelsOf(photo, width, height);
  const edge = input.edge ? pixelsOf(input.edge, width, height) : undefined;
  const subject = makeCanvas(width, height);
  context(subject).putImageData(subjectPixels(pixels, alpha, edge), 0, 0);
  const out = makeCanvas(width, height);
  composeOnto(out, subject, photo, input);
  return 'convertToBlob' in out
    ? out.convertToBlob({ type: 'image/png' })
    : new Promise<Blob>((resolve, reject) => out.toBlob((b) => (b ? resolve(b) : reject(new Error('The browser could not encode the picture.'))), 'image/png'));
}
