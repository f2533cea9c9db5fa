/** How the stage names an item's results: apparel's main cutout by what it holds, classes capitalised. */
import { galleryTraits } from '../components/per-effect.tsx';
import type { GalleryItem, StoredImage } from '../stores/gallery-store.ts';

const MAIN_APPAREL = 'All garments';

/** Whether the item's effect answers results per garment class (per-effect.tsx). */
export const isApparel = (item: Pick<GalleryItem, 'slug'>) => galleryTraits[item.slug]?.classResults === true;

/** Garment classes that were asked for (cloth_class as sent; the engine's default, tops, when it was not). */
export const requestedClasses = (item: Pick<GalleryItem, 'params'>): string[] =>
  (item.params.cloth_class ?? 'tops').split(',').map((s) => s.trim()).filter(Boolean);

export function resultLabel(item: Pick<GalleryItem, 'slug' | 'params'>, image: Pick<StoredImage, 'label'>): string {
  if (!isApparel(item)) return image.label;
  if (image.label === MAIN_APPAREL) return item.params.out_mode === '1' ? 'Selected classes' : 'All clothing';
  return image.label.charAt(0).toUpperCase() + image.label.slice(1);
}

/** Whether a result is one garment class of an apparel run (the ones that may legitimately come back empty). */
export const isClassResult = (item: Pick<GalleryItem, 'slug'>, image: Pick<StoredImage, 'label'>) => isApparel(item) && image.label !== MAIN_APPAREL;
