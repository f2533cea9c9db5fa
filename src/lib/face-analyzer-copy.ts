/**
 * A photo as the face analyzer takes it: the analyzer takes fewer formats (no WebP) and smaller photos than
 * some effects, so such a photo is re-encoded here, in the browser, as a JPEG within its side limit. The scale
 * applied comes back with it, so the analyzer's boxes can be put back into the photo's own pixels.
 */
import { endpoints } from '../../contract/index.ts';
import type { ImageLimits } from '../../contract/limits.ts';

const analyzerLimits: ImageLimits = endpoints.faceAnalyzer.fields.image.limits;
const mimeOf: Record<string, string> = { jpeg: 'image/jpeg', png: 'image/png', bmp: 'image/bmp', webp: 'image/webp' };

export interface AnalyzerCopy {
  file: Blob & { name?: string };
  /** Analyzer pixels per photo pixel (1 when the photo is sent as it is). */
  scale: number;
  /** The photo's own size, where it was decoded here. */
  width?: number;
  height?: number;
}

/** Whether the analyzer takes this file's format as it is (judged by its type, as the browser named it). */
export const analyzerTakesFormat = (photo: Blob): boolean => analyzerLimits.formats.some((f) => mimeOf[f] === photo.type);

/**
 * The photo itself when the analyzer takes its format (its size is then the caller's business: a copy fitted
 * to an effect's limits of 1999 px fits), else a JPEG copy at its size or within the analyzer's side limit.
 * `always` decodes it anyway, to bring a large photo within the limit.
 */
export async function analyzerCopy(photo: Blob & { name?: string }, always = false): Promise<AnalyzerCopy> {
  if (!always && analyzerTakesFormat(photo)) return { file: photo, scale: 1 };
  const bitmap = await createImageBitmap(photo);
  const { width: w, height: h } = bitmap;
  const fit = Math.min(1, analyzerLimits.maxSide / Math.max(w, h));
  if (fit === 1 && analyzerTakesFormat(photo) && photo.size <= analyzerLimits.maxBytes) {
    bitmap.close();
    return { file: photo, scale: 1, width: w, height: h };
  }
  const width = Math.max(1, Math.floor(w * fit)), height = Math.max(1, Math.floor(h * fit));
  const canvas = new OffscreenCanvas(width, height);
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.92 });
  const name = `${(photo.name ?? 'photo').replace(/\.[^.]+$/, '') || 'photo'}.jpg`;
  return { file: new File([blob], name, { type: 'image/jpeg' }), scale: width / w, width: w, height: h };
}
