/**
 * The studio for designers (issue 12), the gallery: filter, the selection's zip, storage used, undo, clear
 * all and the wheel; compare (aligned, each with its photo); apparel's grid of every class. Each starts from
 * a gallery filled as earlier runs leave it (studio-page.ts).
 */
import { expect, test } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { cupImages, unzipStored, type SeedItem } from './studio-gallery-seed.ts';
import { formatBytes } from '../src/lib/format.ts';
import { cards, cupItems, openStudio, portrait, stage, zoomOf } from './studio-page.ts';

test('gallery: filter by effect, select several and download them as a zip, storage used, undo a delete, clear all', async ({ page }) => {
  const portraitJpeg = await sharp(portrait).resize(455).jpeg().toBuffer();
  const crop = await sharp(portraitJpeg).extract({ left: 0, top: 60, width: 455, height: 256 }).jpeg().toBuffer();
  const items: SeedItem[] = [
    ...(await cupItems(3)),
    ...[0, 1].map((i) => ({
      id: `crop-${i}`, slug: 'image-cropping', params: { width: '455', height: '256' },
      before: { label: 'Before', type: 'image/jpeg', bytes: portraitJpeg, name: `portrait-${i}.jpg` },
      afters: [{ label: 'Crop', type: 'image/jpeg', bytes: crop }],
      response: { request_id: 'seed', data: { url: 'x', retain_location: { x: 0, y: 60, width: 455, height: 256 } } },
      minutesAgo: 10 + i,
    })),
  ];
  await openStudio(page, items);
  const total = items.reduce((s, it) => s + it.before.bytes.length + it.afters.reduce((t, a) => t + a.bytes.length, 0), 0);
  await expect(page.getByTestId('storage-used')).toHaveText(`${formatBytes(total)} stored`);

  // Filter by effect.
  const filter = page.getByRole('combobox', { name: 'Show effect' });
  await filter.selectOption({ label: 'Smart crop' });
  await expect(cards(page)).toHaveCount(2);
  for (const c of await cards(page).all()) await expect(c).toHaveAccessibleName(/^Smart crop: portrait-\d\.jpg · 455×256$/);
  await filter.selectOption({ label: 'All effects' });
  await expect(cards(page)).toHaveCount(5);

  // Select two and download them: a zip holding both results, named after their photos, byte for byte.
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  await cards(page).nth(0).getByRole('button').click();
  await cards(page).nth(3).getByRole('button').click();
  await expect(page.getByText('2 selected')).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download selected' }).click()]);
  expect(download.suggestedFilename()).toBe('atelier-2-results.zip');
  const entries = unzipStored(fs.readFileSync((await download.path())!));
  expect([...entries.keys()].sort()).toEqual(['cup-0-cutout.png', 'portrait-0-crop.jpg']);
  expect(entries.get('cup-0-cutout.png')!.equals(items[0].afters[0].bytes)).toBe(true);
  expect(entries.get('portrait-0-crop.jpg')!.equals(crop)).toBe(true);

  // Delete the two ticked, then undo: both come back where they were, images and all.
  await page.getByRole('button', { name: 'Delete selected' }).click();
  await expect(cards(page)).toHaveCount(3);
  const undoBar = page.getByRole('status').filter({ hasText: 'Deleted 2 items' });
  await expect(undoBar).toBeVisible();
  await undoBar.getByRole('button', { name: 'Undo' }).click();
  await expect(cards(page)).toHaveCount(5);
  await expect(cards(page).nth(3)).toHaveAccessibleName(/^Smart crop: portrait-0\.jpg/);
  await expect.poll(() => cards(page).nth(3).locator('img').evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBeGreaterThan(0);

  // Delete from the stage and undo: the item comes back selected.
  await cards(page).nth(1).getByRole('button').click();
  await expect(stage(page).getByTestId('item-caption')).toHaveText('cup-1.jpg · Transparent');
  await stage(page).getByRole('button', { name: 'Delete' }).click();
  await expect(cards(page)).toHaveCount(4);
  await page.getByRole('status').filter({ hasText: 'Deleted product background removal of cup-1.jpg' }).getByRole('button', { name: 'Undo' }).click();
  await expect(cards(page)).toHaveCount(5);
  await expect(stage(page).getByTestId('item-caption')).toHaveText('cup-1.jpg · Transparent');
  await expect(stage(page).getByRole('img', { name: 'After' })).toBeVisible();

  // Clear all asks first; a no keeps everything, a yes empties the gallery, also after a reload.
  page.once('dialog', (d) => void d.dismiss());
  await page.getByRole('button', { name: 'Clear all' }).click();
  await expect(cards(page)).toHaveCount(5);
  page.once('dialog', (d) => {
    expect(d.message()).toContain('Delete all 5 items');
    void d.accept();
  });
  await page.getByRole('button', { name: 'Clear all' }).click();
  await expect(page.getByText('Nothing here yet.')).toBeVisible();
  await expect(page.getByTestId('storage-used')).toHaveCount(0);
  await expect(page.getByText('Results appear here')).toBeVisible();
  await page.reload();
  await expect(page.getByText('Nothing here yet.')).toBeVisible();
});

test('gallery: a mouse wheel scrolls the strip sideways, not the page', async ({ page }) => {
  await openStudio(page, await cupItems(24));
  const strip = page.getByRole('list', { name: 'Gallery items' });
  const box = (await strip.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const pageScroll = () => page.evaluate(() => [...document.querySelectorAll('*')].reduce((s, el) => s + el.scrollTop, window.scrollY));
  const before = await pageScroll();
  for (let i = 0; i < 4; i++) await page.mouse.wheel(0, 300);
  await expect.poll(() => strip.evaluate((el) => el.scrollLeft)).toBeGreaterThan(600);
  expect(await pageScroll()).toBe(before);
  // Thumbnails far off to the right were not loaded before they came near.
  await expect(cards(page).nth(23).locator('img')).toHaveCount(0);
  for (let i = 0; i < 20; i++) await page.mouse.wheel(0, 400);
  await expect(cards(page).nth(23).locator('img')).toHaveCount(1);
});

test('compare: two results side by side, each over its own photo, zoomed, panned and divided together; a trimmed one in place', async ({ page }) => {
  const img = await cupImages();
  const greyPhoto = await sharp(img.photo).greyscale().jpeg().toBuffer();
  await openStudio(page, [
    { id: 'a', slug: 'commodity-background-removal', params: { return_form: 'crop' }, before: { label: 'Before', type: 'image/jpeg', bytes: img.photo, name: 'cup.jpg' }, afters: [{ label: 'Result', type: 'image/png', bytes: img.trimmed }] },
    { id: 'b', slug: 'commodity-background-removal', params: {}, before: { label: 'Before', type: 'image/jpeg', bytes: greyPhoto, name: 'cup-grey.jpg' }, afters: [{ label: 'Result', type: 'image/png', bytes: img.cutout }], minutesAgo: 1 },
  ]);
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  await cards(page).nth(0).getByRole('button').click();
  await cards(page).nth(1).getByRole('button').click();
  await page.getByRole('button', { name: 'Compare' }).click();
  const comparison = page.getByRole('region', { name: 'Comparison' });
  const left = comparison.getByRole('figure', { name: 'Product background removal: cup.jpg · Trimmed' });
  const right = comparison.getByRole('figure', { name: 'Product background removal: cup-grey.jpg · Transparent' });
  await expect(left).toBeVisible();
  await expect(right).toBeVisible();

  // Each side has its own before: its own photo, left of its divider.
  for (const [fig, bytes] of [[left, img.photo], [right, greyPhoto]] as const) {
    const before = fig.getByRole('img', { name: 'Before' });
    await expect.poll(() => before.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(600);
    const src = await before.getAttribute('src');
    const fetched = await page.evaluate(async (u) => btoa(String.fromCharCode(...new Uint8Array(await (await fetch(u!)).arrayBuffer()))), src);
    expect(Buffer.from(fetched, 'base64').equals(bytes)).toBe(true);
    await expect(fig.getByRole('slider', { name: 'Before/after divider' })).toBeVisible();
  }
  // The trimmed result is placed where it lies in its photo: x 180 of 600 px = 30 %.
  await expect.poll(() => left.getByRole('img', { name: 'After' }).evaluate((i: HTMLElement) => i.style.left)).toBe('30%');
  // Same size boxes, side by side.
  const [lb, rb] = [(await left.getByTestId('before-after').boundingBox())!, (await right.getByTestId('before-after').boundingBox())!];
  expect(Math.abs(lb.width - rb.width)).toBeLessThan(2);
  expect(Math.abs(lb.y - rb.y)).toBeLessThan(2);

  // Zoom one: both zoom to the same part. Drag the other's divider: both move.
  await page.mouse.move(lb.x + lb.width * 0.5, lb.y + lb.height * 0.45);
  await page.mouse.wheel(0, -500);
  const lv = left.getByTestId('before-after');
  const rv = right.getByTestId('before-after');
  await expect.poll(() => zoomOf(lv)).toBeGreaterThan(1.5);
  expect(await zoomOf(rv)).toBe(await zoomOf(lv));
  expect(await rv.getAttribute('data-pan')).toBe(await lv.getAttribute('data-pan'));
  const rightDivider = right.getByRole('slider', { name: 'Before/after divider' });
  await rightDivider.focus();
  await page.keyboard.press('Home');
  await expect(left.getByRole('slider', { name: 'Before/after divider' })).toHaveAttribute('aria-valuenow', '0');

  await comparison.getByRole('button', { name: 'Close comparison' }).click();
  await expect(stage(page)).toBeVisible();
});

test('apparel: every class at once in a large grid, a click opens one', async ({ page }) => {
  const person = await sharp(portrait).resize(455).png().toBuffer();
  const { width, height } = (await sharp(person).metadata()) as { width: number; height: number };
  const part = (top: number, h: number) =>
    sharp(person).ensureAlpha().composite([{ input: Buffer.from(`<svg width="${width}" height="${height}"><rect x="0" y="${top}" width="${width}" height="${h}" fill="#fff"/></svg>`), blend: 'dest-in' }]).png().toBuffer();
  const empty = await sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer();
  await openStudio(page, [
    {
      id: 'look', slug: 'apparel-background-removal', params: { cloth_class: 'tops,coat,hat' },
      before: { label: 'Before', type: 'image/png', bytes: person, name: 'look.png' },
      afters: [
        { label: 'All garments', type: 'image/png', bytes: await part(300, 268) },
        { label: 'tops', type: 'image/png', bytes: await part(330, 120) },
        { label: 'coat', type: 'image/png', bytes: await part(300, 268) },
        { label: 'hat', type: 'image/png', bytes: empty },
      ],
    },
  ]);
  await expect(page.getByRole('tablist', { name: 'Results' }).getByRole('tab')).toHaveCount(4);
  await page.getByRole('radiogroup', { name: 'Show results' }).getByRole('radio', { name: 'All 4 large' }).click();
  const grid = page.getByRole('list', { name: 'All results' });
  await expect(grid.getByRole('button')).toHaveCount(4);
  await expect(page.getByRole('tablist', { name: 'Results' })).toHaveCount(0);
  await expect(grid.getByRole('button', { name: 'Open Hat, not found in this photo' })).toBeVisible();
  // Large enough to inspect: every picture at least 250 px on its long side, the classes side by side at 1400 px.
  const boxes = await grid.getByTestId('grid-image').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
  for (const b of boxes) expect(Math.max(b.width, b.height)).toBeGreaterThanOrEqual(250);
  expect(boxes[1].y).toBeCloseTo(boxes[0].y, 0);
  // The background choice shows through here too.
  await page.getByRole('group', { name: 'Background' }).getByRole('button', { name: 'Black' }).click();
  await expect(grid.getByTestId('grid-image').first().locator('..')).toHaveCSS('background-color', 'rgb(0, 0, 0)');

  await grid.getByRole('button', { name: 'Open Coat' }).click();
  await expect(grid).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'Coat' })).toHaveAttribute('aria-selected', 'true');
  await expect(stage(page).getByRole('img', { name: 'Coat', exact: true })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'One at a time' })).toHaveAttribute('aria-checked', 'true');
});
