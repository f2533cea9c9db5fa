/**
 * How the studio gives a result at the photo's own size when the engine worked on a copy fitted to its limits
 * (1999 px on the default engine). Shared by the gallery (the download) and the panels (a note where it cannot).
 * - cutout: the engine's alpha brought up and applied to the original (the cutout editor's full-size compose);
 * - residual: an edit that changes colours in place; what it changed (result minus the copy sent) is enlarged
 *   and added to the original, so everything it did not touch keeps the original's own pixels;
 * - window: smart crop; the same window (retain_location) cut from the original and scaled to the target size;
 * - engine: the effect redraws or reshapes the face (a new beard, hair, jaw): a residual would lay the enlarged
 *   change over the original's own detail (the old beard's hairs under the removal), so it stays at the engine's size.
 */
export type FullSizeWay = 'cutout' | 'residual' | 'window' | 'engine';

const WAYS: Record<string, FullSizeWay> = {
  'commodity-background-removal': 'cutout',
  'apparel-background-removal': 'cutout',
  'face-beauty': 'residual',
  'lips-color-changer': 'residual',
  'ai-red-lip-gloss': 'residual',
  'ai-colored-contacts': 'residual',
  'smart-skin-advanced': 'residual',
  'image-cropping': 'window',
  'ai-beard-removal': 'engine',
  'ai-beard-styling': 'engine',
  'ai-hair-loss-simulation': 'engine',
  'ai-square-face-filter': 'engine',
};

/** The way for an effect and its options; undefined for effects whose answer is not a picture of the photo. */
export function fullSizeWay(slug: string, params: Record<string, string | undefined> = {}): FullSizeWay | undefined {
  const way = WAYS[slug];
  // On white there is no alpha to carry over: the subject's edge is mixed into the white by the engine.
  if (way === 'cutout' && params.return_form === 'whiteBK') return 'engine';
  return way;
}

/** Why an effect's result stays at the engine's size, for the panel (plain words). */
export function engineSizeReason(slug: string, params: Record<string, string | undefined> = {}): string {
  if (WAYS[slug] === 'cutout' && params.return_form === 'whiteBK') return 'a product on white has no transparency the studio could carry over';
  return 'this effect redraws or reshapes part of the face, which cannot be carried over to the full-size photo';
}
