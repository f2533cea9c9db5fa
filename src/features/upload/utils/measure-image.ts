import { sniffImage } from './sniff-image.ts';
import type { Measured } from './check-limits.ts';

/** Enough bytes for any header we read (JPEG may put its frame header after large EXIF blocks). */
const HEAD_BYTES = 256 * 1024;

/**
 * Format from the first bytes, width and height from decoding in the browser (EXIF orientation applied, as the
 * engine applies it). Where the environment cannot decode (tests), the header's size stands.
 */
export async function measureImage(file: Blob): Promise<Measured> {
  const head = new Uint8Array(await file.slice(0, HEAD_BYTES).arrayBuffer());
  const sniffed = sniffImage(head);
  const measured: Measured = { bytes: file.size, ...sniffed };
  if (!sniffed.format || typeof createImageBitmap !== 'function') return measured;
  try {
    const bitmap = await createImageBitmap(file);
    measured.width = bitmap.width;
    measured.height = bitmap.height;
    bitmap.close();
  } catch {
    measured.decodeFailed = true;
  }
  return measured;
}
