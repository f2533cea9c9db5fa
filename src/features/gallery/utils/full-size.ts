/**
 * A result at the photo's own size, made in the browser from the engine's answer on the fitted copy (the ways
 * are in src/lib/full-size.ts). Undefined where there is nothing to do: the copy sent was the photo itself (an
 * engine with raised limits answers at full size already), or the effect's result stays at the engine's size.
 */
import { fullSizeWay } from '../../../lib/full-size.ts';
import { composeFullSize, context, makeCanvas, resizeMask, type AnyCanvas } from '../../cutout-editor/utils/compose.ts';
import { loadCutout } from '../../cutout-editor/utils/load-cutout.ts';
import { isRect } from './crop-overlay.ts';
import type { Placement } from './locate-crop.ts';
import { addResidual, windowOnOriginal } from './residual.ts';

export interface FullSizeInput {
  slug: string;
  params: Record<string, string>;
  /** The photo as the user gave it. */
  original: Blob;
  /** The copy sent to the engine. */
  sent: Blob;
  result: Blob;
  /** The engine's JSON answer (smart crop's retain_location). */
  response?: unknown;
  /** Where a trimmed cutout lies in the copy sent. */
  placement?: Placement;
}

const encode = (c: AnyCanvas, type: string): Promise<Blob> => {
  const as = type === 'image/jpeg' || type === 'image/webp' ? type : 'image/png';
  return 'convertToBlob' in c
    ? c.convertToBlob({ type: as, quality: 0.92 })
    : new Promise((resolve, reject) => c.toBlob((b) => (b ? resolve(b) : reject(new Error('The browser could not encode the picture.'))), as, 0.92));
};

async function pixelsOf(blob: Blob) {
  const bitmap = await createImageBitmap(blob);
  const { width, height } = bitmap;
  const c = makeCanvas(width, height);
  const ctx = context(c, true);
  ctx.drawImage(bitmap, 0, 0);
  bitmap.close();
  return { data: ctx.getImageData(0, 0, width, height).data, width, height };
}

async function sizeOf(blob: Blob) {
  const b = await createImageBitmap(blob);
  const size = { width: b.width, height: b.height };
  b.close();
  return size;
}

async function cutout(input: FullSizeInput): Promise<Blob | undefined> {
  const form = input.params.return_form;
  if (form === 'crop' && !input.placement) return undefined;
  const loaded = await loadCutout({ original: input.original, sent: input.sent, result: input.result, form: form === 'mask' ? 'mask' : 'transparent', placement: form === 'crop' ? input.placement : undefined });
  const { original } = loaded;
  const { width, height } = original;
  try {
    if (form === 'mask') {
      const alpha = resizeMask(loaded.mask, width, height);
      const grey = new ImageData(width, height);
      for (let i = 0, j = 0; i < alpha.length; i++, j += 4) {
        grey.data[j] = grey.data[j + 1] = grey.data[j + 2] = alpha[i];
        grey.data[j + 3] = 255;
      }
      const c = makeCanvas(width, height);
      context(c).putImageData(grey, 0, 0);
      return encode(c, 'image/png');
    }
    const whole = await composeFullSize({ photo: original, mask: loaded.mask, edge: loaded.edge, backdrop: { kind: 'transparent' }, shadow: false });
    if (form !== 'crop' || !input.placement) return whole;
    // Trimmed: the same box on the original's frame.
    const box = windowOnOriginal(input.placement, loaded.mask, original);
    const bitmap = await createImageBitmap(whole, { premultiplyAlpha: 'none' });
    const c = makeCanvas(box.width, box.height);
    context(c).drawImage(bitmap, box.x, box.y, box.width, box.height, 0, 0, box.width, box.height);
    bitmap.close();
    return encode(c, 'image/png');
  } finally {
    original.close();
  }
}

async function residual(input: FullSizeInput): Promise<Blob | undefined> {
  const [original, sent, result] = await Promise.all([pixelsOf(input.original), pixelsOf(input.sent), pixelsOf(input.result)]);
  // An answer of another size than the copy sent is not an in-place edit of it.
  if (result.width !== sent.width || result.height !== sent.height) return undefined;
  const out = addResidual(original, sent, result);
  const c = makeCanvas(original.width, original.height);
  context(c).putImageData(new ImageData(out, original.width, original.height), 0, 0);
  return encode(c, input.result.type);
}

async function window(input: FullSizeInput): Promise<Blob | undefined> {
  const loc = (input.response as { data?: { retain_location?: unknown } } | undefined)?.data?.retain_location;
  if (!isRect(loc)) return undefined;
  const [original, sent, result] = await Promise.all([createImageBitmap(input.original), sizeOf(input.sent), sizeOf(input.result)]);
  try {
    const box = windowOnOriginal(loc, sent, original);
    // The engine scales its window to exactly the target size: the same here, from the original's pixels.
    const c = makeCanvas(result.width, result.height);
    const ctx = context(c);
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(original, box.x, box.y, box.width, box.height, 0, 0, result.width, result.height);
    return encode(c, input.result.type);
  } finally {
    original.close();
  }
}

export async function fullSizeResult(input: FullSizeInput): Promise<Blob | undefined> {
  const way = fullSizeWay(input.slug, input.params);
  if (way !== 'cutout' && way !== 'residual' && way !== 'window') return undefined;
  const [original, sent] = await Promise.all([sizeOf(input.original), sizeOf(input.sent)]);
  if (original.width <= sent.width && original.height <= sent.height) return undefined;
  if (way === 'cutout') return cutout(input);
  if (way === 'residual') return residual(input);
  return window(input);
}
