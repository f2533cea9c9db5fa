/**
 * What the editor starts from: the copy of the photo the engine worked on (the mask's size), the engine's
 * answer turned into an alpha mask on that frame, and the original photo for the full-size download.
 */
import { context, makeCanvas, type AnyCanvas } from './compose.ts';
import type { Mask, Pixels } from './mask-ops.ts';

export interface CutoutSources {
  /** The photo as the user gave it (full resolution); the sent copy when it was sent as it was. */
  original: Blob;
  /** The copy sent to the engine (fitted to its limits). */
  sent: Blob;
  result: Blob;
  /** 'mask': a black-and-white mask; otherwise a transparent cutout. */
  form: 'transparent' | 'mask';
  /** Where a trimmed cutout lies in the sent copy; absent: it covers the whole frame. */
  placement?: { x: number; y: number; width: number; height: number };
}

export interface LoadedCutout {
  original: ImageBitmap;
  /** The sent copy's pixels: what the smart brush and the colour fill look at, and the preview shows. */
  photo: Pixels;
  photoCanvas: AnyCanvas;
  /** The engine's mask, never edited (Reset goes back to it). */
  engineAlpha: Uint8Array;
  mask: Mask;
  /** The engine's cutout on the sent copy's frame (its cleaned edge colours); absent for a mask answer. */
  edge?: AnyCanvas;
}

export async function loadCutout(src: CutoutSources): Promise<LoadedCutout> {
  const [original, sent, result] = await Promise.all([
    createImageBitmap(src.original),
    createImageBitmap(src.sent),
    createImageBitmap(src.result, { premultiplyAlpha: 'none', colorSpaceConversion: 'none' }),
  ]);
  const { width, height } = sent;
  const photoCanvas = makeCanvas(width, height);
  const pc = context(photoCanvas, true);
  pc.drawImage(sent, 0, 0);
  sent.close();
  const photo: Pixels = { data: pc.getImageData(0, 0, width, height).data, width, height };

  const edge = makeCanvas(width, height);
  const ec = context(edge, true);
  ec.imageSmoothingEnabled = true;
  ec.imageSmoothingQuality = 'high';
  if (src.placement) ec.drawImage(result, src.placement.x, src.placement.y, src.placement.width, src.placement.height);
  else ec.drawImage(result, 0, 0, width, height);
  result.close();
  const data = ec.getImageData(0, 0, width, height).data;
  const alpha = new Uint8Array(width * height);
  // A mask answer is grey (no alpha): its brightness is the alpha.
  const channel = src.form === 'mask' ? 0 : 3;
  for (let i = 0, j = channel; i < alpha.length; i++, j += 4) alpha[i] = data[j];
  return { original, photo, photoCanvas, engineAlpha: alpha.slice(), mask: { alpha, width, height }, edge: src.form === 'mask' ? undefined : edge };
}
