/**
 * The studio page as the inspect specs drive it: its stage and gallery cards, the viewer's zoom, the studio
 * opened on a gallery filled as earlier runs leave it (studio-gallery-seed.ts), and the items such a gallery
 * holds (cup cutouts, an apparel run of seven results).
 */
import { expect, type Locator, type Page } from '@playwright/test';
import path from 'node:path';
import sharp from 'sharp';
import { cupImages, seedGallery, type SeedItem } from './studio-gallery-seed.ts';

export const portrait = path.join(import.meta.dirname, '../engine/test/fixtures/obama_official_portrait.jpg');
export const stage = (page: Page) => page.getByRole('region', { name: 'Selected result' });
export const cards = (page: Page) => page.getByRole('list', { name: 'Gallery items' }).getByRole('listitem');
export const zoomOf = async (viewer: Locator) => Number(await viewer.getAttribute('data-zoom'));

export async function openStudio(page: Page, items: SeedItem[], selectedId?: string) {
  await page.goto('/#commodity-background-removal');
  await expect(page.getByRole('main')).toBeVisible();
  await seedGallery(page, items, selectedId);
  await expect(cards(page)).toHaveCount(items.length);
}

export async function cupItems(n = 1): Promise<SeedItem[]> {
  const img = await cupImages();
  return Array.from({ length: n }, (_, i) => ({
    id: `cup-${i}`,
    slug: 'commodity-background-removal',
    params: {},
    before: { label: 'Before', type: 'image/jpeg', bytes: img.photo, name: `cup-${i}.jpg` },
    afters: [{ label: 'Result', type: 'image/png', bytes: img.cutout }],
    minutesAgo: i,
  }));
}

/** An apparel run of seven results, as the spill was seen with. */
export async function sevenClasses(): Promise<SeedItem> {
  const person = await sharp(portrait).resize(455).png().toBuffer();
  const cutout = await sharp(person).ensureAlpha().composite([{ input: Buffer.from('<svg width="455" height="569"><rect x="60" y="290" width="340" height="279" fill="#fff"/></svg>'), blend: 'dest-in' }]).png().toBuffer();
  const labels = ['All garments', 'tops', 'coat', 'pants', 'bag', 'shoes', 'hat'];
  return {
    id: 'look', slug: 'apparel-background-removal', params: { cloth_class: labels.slice(1).join(',') },
    before: { label: 'Before', type: 'image/png', bytes: person, name: 'look.png' },
    afters: labels.map((label) => ({ label, type: 'image/png', bytes: cutout })),
  };
}
