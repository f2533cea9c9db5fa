/**
 * A gallery result at its photo's own size (utils/full-size.ts), from what the gallery stored: the original,
 * the copy sent, the engine's answer. Undefined where the engine's result is already the one to give.
 */
import { fullSizeWay } from '../../../lib/full-size.ts';
import { getBlob, getJson } from '../stores/idb-storage.ts';
import type { GalleryItem, StoredImage } from '../stores/gallery-store.ts';
import { locateCrop, type Placement } from './locate-crop.ts';
import { readPixelsExact } from './read-pixels.ts';

/** Whether the download of this item is made again at the photo's size (the engine worked on a smaller copy). */
export const upsizes = (item: GalleryItem): boolean => {
  const way = item.original ? fullSizeWay(item.slug, item.params) : undefined;
  return way === 'cutout' || way === 'residual' || way === 'window';
};

export async function storedFullSize(item: GalleryItem, after: StoredImage, placement?: Placement): Promise<Blob | undefined> {
  if (!upsizes(item) || !item.original) return undefined;
  const way = fullSizeWay(item.slug, item.params);
  const [original, sent, result, response] = await Promise.all([
    getBlob(item.original.key),
    getBlob(item.before.key),
    getBlob(after.key),
    way === 'window' ? getJson(item.responseKey) : undefined,
  ]);
  if (!original || !sent || !result) return undefined;
  let where = placement;
  if (!where && item.params.return_form === 'crop') {
    const [photo, cutout] = await Promise.all([readPixelsExact(sent), readPixelsExact(result)]);
    where = photo && cutout ? locateCrop(photo, cutout) : undefined;
  }
  // Its own chunk: only the download of a fitted photo's result needs it.
  const { fullSizeResult } = await import('./full-size.ts');
  return fullSizeResult({ slug: item.slug, params: item.params, original, sent, result, response, placement: where });
}
