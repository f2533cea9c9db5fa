/**
 * How gallery items are named for people: by the photo and the options that were chosen ("car.jpg · On white"),
 * and their downloads after the photo ("car-cutout.png") rather than the endpoint and a timestamp.
 */
import { endpointBySlug } from '../../../../contract/index.ts';
import type { GalleryItem, StoredImage } from '../stores/gallery-store.ts';

export const itemTitle = (item: Pick<GalleryItem, 'slug'>) => endpointBySlug(item.slug)?.title ?? item.slug;

export const photoName = (item: Pick<GalleryItem, 'before'>) => item.before.name ?? 'photo';

const slugify = (s: string) => s.toLowerCase().replace(/\.[a-z0-9]+$/, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'photo';

/** The options that were chosen, in the contract's plain words where it has them ("On white", "910×512"). */
export function optionsText(item: Pick<GalleryItem, 'slug' | 'params'>): string {
  const endpoint = endpointBySlug(item.slug);
  const p = item.params;
  // A target size (required width and height, as smart crop's) reads as one: "910×512".
  if (endpoint?.fields.width?.required && endpoint.fields.height?.required && p.width && p.height) return `${p.width}×${p.height}`;
  const out: string[] = [];
  for (const [name, value] of Object.entries(p)) {
    const f = endpoint?.fields[name];
    if (!f) continue;
    if ((f.kind === 'enum' || f.kind === 'int') && f.valueLabels?.[value]) out.push(f.valueLabels[value]);
    else if (f.kind === 'enum') out.push(value.replace(/_/g, ' '));
    else if (f.kind === 'int' && f.min === 0 && f.max === 1) {
      if (value === '1') out.push(f.label);
    } else if (f.kind === 'csv-set') out.push(value.split(',').map((v) => f.valueLabels?.[v] ?? v.replace(/_/g, ' ')).join(', '));
    else if (f.kind === 'int' || f.kind === 'number') out.push(`${f.label.toLowerCase()} ${value}`);
  }
  if (out.length === 0 && endpoint) {
    for (const f of Object.values(endpoint.fields)) if (f.kind === 'enum' && f.unsetLabel) out.push(f.unsetLabel);
  }
  return out.join(', ');
}

/** "car.jpg · On white": what a card and the stage call an item. */
export const itemCaption = (item: Pick<GalleryItem, 'slug' | 'params' | 'before'>) => [photoName(item), optionsText(item)].filter(Boolean).join(' · ');

export const extensionOf = (type: string) => ({ 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/bmp': 'bmp' })[type] ?? 'bin';

/** "car-cutout.png"; a run with several results adds the result's name ("look-clothing-tops.png"). */
export function downloadName(item: Pick<GalleryItem, 'slug' | 'before' | 'afters'>, image: Pick<StoredImage, 'label'>, type: string): string {
  const word = endpointBySlug(item.slug)?.resultWord ?? item.slug;
  const extra = item.afters.length > 1 ? `-${slugify(image.label)}` : '';
  return `${slugify(photoName(item))}-${word}${extra}.${extensionOf(type)}`;
}
