/** Decodes an image Blob into RGBA pixels with a canvas; undefined where the environment cannot (tests). */
import type { PixelData } from './blank-image.ts';

// Above this many pixels the check runs on a smaller copy: a garment is never smaller than a few of its pixels.
const MAX_PIXELS = 2_000_000;

export async function readPixels(blob: Blob): Promise<PixelData | undefined> {
  if (typeof createImageBitmap !== 'function') return undefined;
  const probe = await createImageBitmap(blob);
  const k = Math.min(1, Math.sqrt(MAX_PIXELS / (probe.width * probe.height)));
  const width = Math.max(1, Math.round(probe.width * k));
  const height = Math.max(1, Math.round(probe.height * k));
  let bitmap = probe;
  if (k < 1) {
    probe.close();
    // 'pixelated' keeps lone content pixels instead of averaging them away.
    bitmap = await createImageBitmap(blob, { resizeWidth: width, resizeHeight: height, resizeQuality: 'pixelated' });
  }
  const canvas = typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(width, height) : Object.assign(document.createElement('canvas'), { width, height });
  const ctx = canvas.getContext('2d', { willReadFrequently: true }) as OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null;
  if (!ctx) return undefined;
  ctx.drawImage(bitmap, 0, 0);
  bitmap.close();
  const img = ctx.getImageData(0, 0, width, height);
  return { data: img.data, width, height };
}

/** Every pixel at the image's own size (no downscaling), for exact comparisons. */
export async function readPixelsExact(blob: Blob): Promise<PixelData | undefined> {
  if (typeof createImageBitmap !== 'function') return undefined;
  const bitmap = await createImageBitmap(blob, { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
  const { width, height } = bitmap;
  const canvas = typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(width, height) : Object.assign(document.createElement('canvas'), { width, height });
  const ctx = canvas.getContext('2d', { willReadFrequently: true }) as OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null;
  if (!ctx) return undefined;
  ctx.drawImage(bitmap, 0, 0);
  bitmap.close();
  return { data: ctx.getImageData(0, 0, width, height).data, width, height };
}
