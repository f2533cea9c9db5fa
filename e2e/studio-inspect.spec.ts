/**
 * The studio for designers (issue 12), the parts the first spec left out: pinch and drag in the viewer,
 * opaque results saved as JPEG and WebP, the gallery's selection zip, compare (aligned, each with its photo),
 * clear all, undo, filter, wheel; apparel's grid of every class; focus after choosing a file; and a phone,
 * where the result comes into view after a run and a crop is not cut off. Most start from a gallery filled as
 * earlier runs leave it (studio-gallery-seed.ts); the phone tests run the engine.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { cupFixture, cupImages, seedGallery, unzipStored } from './studio-gallery-seed.ts';
import type { SeedItem } from './studio-gallery-seed.ts';
import { formatBytes } from '../src/lib/format.ts';
import { contrastScan } from './contrast-scan.ts';

const portrait = path.join(import.meta.dirname, '../engine/test/fixtures/obama_official_portrait.jpg');
const stage = (page: Page) => page.getByRole('region', { name: 'Selected result' });
const cards = (page: Page) => page.getByRole('list', { name: 'Gallery items' }).getByRole('listitem');
const zoomOf = async (viewer: Locator) => Number(await viewer.getAttribute('data-zoom'));

async function openStudio(page: Page, items: SeedItem[], selectedId?: string) {
  await page.goto('/#commodity-background-removal');
  await expect(page.getByRole('main')).toBeVisible();
  await seedGallery(page, items, selectedId);
  await expect(cards(page)).toHaveCount(items.length);
}

async function cupItems(n = 1): Promise<SeedItem[]> {
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

test('viewer: two fingers pinch-zoom around their midpoint, one drag pans the zoomed photo and result together', async ({ page }) => {
  await openStudio(page, await cupItems());
  const viewer = page.getByTestId('before-after');
  await expect(viewer).toBeVisible();
  await expect(page.getByTestId('zoom-level')).toHaveText(/^Fit/);
  const box = (await viewer.boundingBox())!;
  const divider = page.getByRole('slider', { name: 'Before/after divider' });
  const cx = box.x + box.width * 0.4;
  const cy = box.y + box.height * 0.5;

  // A real touch pinch: Chromium turns the touch points into pointer events (pointerType "touch").
  const cdp = await page.context().newCDPSession(page);
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', spread: number) =>
    cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: type === 'touchEnd' ? [] : [{ x: cx - spread, y: cy, id: 1 }, { x: cx + spread, y: cy, id: 2 }],
    });
  await touch('touchStart', 20);
  for (const spread of [30, 45, 60, 80]) await touch('touchMove', spread);
  await touch('touchEnd', 0);
  await expect.poll(() => zoomOf(viewer)).toBeGreaterThan(3);
  expect(await zoomOf(viewer)).toBeLessThan(4.5);
  await expect(page.getByTestId('zoom-level')).not.toHaveText(/^Fit/);
  // Zoomed around the fingers: the point under them stays put (the pan offsets say where the corner went).
  const [px] = (await viewer.getAttribute('data-pan'))!.split(',').map(Number);
  const z = await zoomOf(viewer);
  const u = (cx - box.x) / box.width;
  expect(px + u * z).toBeCloseTo(u, 1);

  // A mouse drag now pans (the divider stays where it was), and both layers move alike.
  const valueBefore = await divider.getAttribute('aria-valuenow');
  const panBefore = await viewer.getAttribute('data-pan');
  await page.mouse.move(box.x + box.width * 0.25, box.y + box.height * 0.5);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.45, box.y + box.height * 0.6, { steps: 6 });
  await page.mouse.up();
  await expect(viewer).not.toHaveAttribute('data-pan', panBefore!);
  expect(await divider.getAttribute('aria-valuenow')).toBe(valueBefore);
  expect(await zoomOf(viewer)).toBeCloseTo(z, 3);
  const transforms = await viewer.evaluate((el) =>
    [el.querySelector('img[alt="Before"]')!.parentElement!, el.querySelector('[data-testid="after-layer"] > div')!].map((l) => (l as HTMLElement).style.transform),
  );
  expect(transforms[0]).toMatch(/^translate\(/);
  expect(transforms[1]).toBe(transforms[0]);

  // The Fit button goes back.
  await viewer.getByRole('button', { name: 'Fit' }).click();
  await expect(page.getByTestId('zoom-level')).toHaveText(/^Fit/);

  // A full-frame result lies exactly over its photo.
  const [b, a] = [await stage(page).getByRole('img', { name: 'Before' }).boundingBox(), await stage(page).getByRole('img', { name: 'After' }).boundingBox()];
  expect(a).toEqual(b);
  // Behind the transparent result: white, then any colour.
  const backgrounds = page.getByRole('group', { name: 'Background' });
  await backgrounds.getByRole('button', { name: 'White' }).click();
  await expect(page.getByTestId('after-layer')).toHaveCSS('background-color', 'rgb(255, 255, 255)');
  await backgrounds.getByLabel('Any colour').fill('#336699');
  await expect(page.getByTestId('after-layer')).toHaveCSS('background-color', 'rgb(51, 102, 153)');
  await backgrounds.getByRole('button', { name: 'Checkerboard' }).click();
  await expect(page.getByTestId('after-layer')).toHaveClass(/bg-checker/);
});

test('any photo in: a 2400 px export is downsized and a palette PNG converted in the browser, each said in one line', async ({ page }) => {
  await page.goto('/#commodity-background-removal');
  const input = page.getByTestId('dropzone-input');
  const photo = await sharp(cupFixture).flatten({ background: '#eee' }).resize(2400, 1600, { fit: 'contain', background: '#eee' }).jpeg().toBuffer();
  await input.setInputFiles({ name: 'export.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(page.getByTestId('fit-note')).toHaveText('Resized from 2400×1600 to 1999×1332 to fit this effect.', { timeout: 30_000 });
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByTestId('run-button')).toBeEnabled();
  const palette = await sharp(cupFixture).resize(500).png({ palette: true, colours: 64 }).toBuffer();
  expect((await sharp(palette).metadata()).isPalette).toBe(true);
  await input.setInputFiles({ name: 'palette.png', mimeType: 'image/png', buffer: palette });
  await expect(page.getByTestId('fit-note')).toHaveText(/^Converted from (8-bit|palette) PNG to full-colour PNG to fit this effect\.$/);
  await expect(page.getByTestId('run-button')).toBeEnabled();
});

test('an opaque result saves as JPEG and as WebP, named after the photo; a transparent one offers no JPEG', async ({ page }) => {
  const img = await cupImages();
  await openStudio(page, [
    { id: 'white', slug: 'commodity-background-removal', params: { return_form: 'whiteBK' }, before: { label: 'Before', type: 'image/jpeg', bytes: img.photo, name: 'car.jpg' }, afters: [{ label: 'Result', type: 'image/png', bytes: img.onWhite }] },
    { id: 'clear', slug: 'commodity-background-removal', params: {}, before: { label: 'Before', type: 'image/jpeg', bytes: img.photo, name: 'vase.jpg' }, afters: [{ label: 'Result', type: 'image/png', bytes: img.cutout }], minutesAgo: 1 },
  ]);
  await expect(stage(page).getByTestId('item-caption')).toHaveText('car.jpg · On white');
  const format = stage(page).getByRole('combobox', { name: 'Download format' });
  // The choice is offered once the result is known to be opaque.
  await expect(format).toHaveAttribute('data-opaque', 'true');
  await expect(format.locator('option', { hasText: 'JPG' })).toBeEnabled();

  const save = async (type: string) => {
    await format.selectOption(type);
    const [download] = await Promise.all([page.waitForEvent('download'), stage(page).getByRole('link', { name: 'Download' }).click()]);
    return { name: download.suggestedFilename(), bytes: fs.readFileSync((await download.path())!) };
  };
  // The picture survives a re-encode: pixel for pixel close to the result (mean difference of a few levels).
  const meanDiff = async (bytes: Buffer) => {
    const [x, y] = await Promise.all([bytes, img.onWhite].map((b) => sharp(b).removeAlpha().raw().toBuffer()));
    return x.reduce((sum, v, i) => sum + Math.abs(v - y[i]), 0) / x.length;
  };
  const jpeg = await save('image/jpeg');
  expect(jpeg.name).toBe('car-cutout.jpg');
  expect([...jpeg.bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  expect(await sharp(jpeg.bytes).metadata()).toMatchObject({ format: 'jpeg', width: 600, height: 400 });
  const webp = await save('image/webp');
  expect(webp.name).toBe('car-cutout.webp');
  expect(webp.bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
  expect(webp.bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');
  expect(await sharp(webp.bytes).metadata()).toMatchObject({ format: 'webp', width: 600, height: 400 });
  expect(await meanDiff(webp.bytes)).toBeLessThan(4);
  expect(await meanDiff(jpeg.bytes)).toBeLessThan(4);
  const png = await save('image/png');
  expect(png.name).toBe('car-cutout.png');
  expect(png.bytes.equals(img.onWhite)).toBe(true);

  // A transparent cutout: JPEG would lose the transparency, so it is not offered.
  await cards(page).nth(1).getByRole('button').click();
  await expect(stage(page).getByTestId('item-caption')).toHaveText('vase.jpg · Transparent');
  // (once the result's pixels have been read: the choice waits for that)
  await expect(format).toHaveAttribute('data-opaque', 'false');
  await expect(format.locator('option', { hasText: 'JPG' })).toBeDisabled();
  await expect(format.locator('option', { hasText: 'WEBP' })).toBeEnabled();
});

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

test('focus stays in the panel after choosing a file with the file picker', async ({ page }) => {
  await page.goto('/#commodity-background-removal');
  const zone = page.getByRole('button', { name: /drop a photo here or click to browse/ });
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), zone.click()]);
  await chooser.setFiles({ name: 'cup.png', mimeType: 'image/png', buffer: fs.readFileSync(cupFixture) });
  await expect(page.getByRole('group', { name: 'Image: cup.png' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).not.toBe('BODY');
  await expect(page.getByRole('button', { name: 'Replace' })).toBeFocused();
  // And the keyboard goes on from there: Tab reaches Remove.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Remove' })).toBeFocused();
});

test.describe('on a phone (390×844)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the result comes into view after a run, and a crop result is not cut off', async ({ page }) => {
    test.setTimeout(240_000);
    await page.goto('/#commodity-background-removal');
    const input = page.getByTestId('dropzone-input');
    await input.setInputFiles({ name: 'cup.png', mimeType: 'image/png', buffer: await sharp(cupFixture).resize(400).png().toBuffer() });
    await expect(page.getByText('Fits the limits')).toBeVisible();
    const run = page.getByTestId('run-button');
    await run.scrollIntoViewIfNeeded();
    await run.click();
    const viewer = page.getByTestId('before-after');
    await expect(viewer).toBeVisible({ timeout: 110_000 });
    // Without scrolling by hand: the running photo, then the result, sits in the window.
    await expect(viewer).toBeInViewport({ ratio: 0.6 });

    await page.goto('/#image-cropping');
    await page.getByTestId('dropzone-input').setInputFiles(portrait);
    await expect(page.getByText('Fits the limits')).toBeVisible();
    await page.getByRole('button', { name: /^16:9 Widescreen/ }).click();
    await page.getByTestId('run-button').scrollIntoViewIfNeeded();
    await page.getByTestId('run-button').click();
    const crop = page.getByRole('img', { name: 'Crop', exact: true });
    await expect(crop).toBeVisible({ timeout: 110_000 });
    // The whole crop can be brought into the window: inside the screen's width, none of it hidden by a parent.
    await crop.scrollIntoViewIfNeeded();
    await expect(crop).toBeInViewport({ ratio: 1 });
    const shown = await crop.evaluate((el: HTMLImageElement) => {
      const r = el.getBoundingClientRect();
      // The picture inside the box (object-contain) and every clipping ancestor's box.
      const k = Math.min(r.width / el.naturalWidth, r.height / el.naturalHeight);
      const pic = { w: el.naturalWidth * k, h: el.naturalHeight * k };
      let clipped = false;
      for (let p = el.parentElement; p; p = p.parentElement) {
        const s = getComputedStyle(p);
        if (s.overflow === 'visible') continue;
        const b = p.getBoundingClientRect();
        if (r.left < b.left - 1 || r.right > b.right + 1 || (s.overflowY === 'hidden' && (r.top < b.top - 1 || r.bottom > b.bottom + 1))) clipped = true;
      }
      return { ...pic, clipped, right: r.right };
    });
    expect(shown.clipped).toBe(false);
    expect(shown.right).toBeLessThanOrEqual(390);
    expect(shown.w).toBeGreaterThan(250);
    expect(shown.h).toBeGreaterThan(140);
    const caption = page.getByText(/^Crop · 910×512 px/);
    await caption.scrollIntoViewIfNeeded();
    await expect(caption).toBeInViewport();
  });
});

/** An apparel run of seven results, as the spill was seen with. */
async function sevenClasses(): Promise<SeedItem> {
  const person = await sharp(portrait).resize(455).png().toBuffer();
  const cutout = await sharp(person).ensureAlpha().composite([{ input: Buffer.from('<svg width="455" height="569"><rect x="60" y="290" width="340" height="279" fill="#fff"/></svg>'), blend: 'dest-in' }]).png().toBuffer();
  const labels = ['All garments', 'tops', 'coat', 'pants', 'bag', 'shoes', 'hat'];
  return {
    id: 'look', slug: 'apparel-background-removal', params: { cloth_class: labels.slice(1).join(',') },
    before: { label: 'Before', type: 'image/png', bytes: person, name: 'look.png' },
    afters: labels.map((label) => ({ label, type: 'image/png', bytes: cutout })),
  };
}

test('layout: with seven apparel results nothing is drawn over the gallery strip, at 1280×720, 1024×768 and on a phone', async ({ page }) => {
  const items = [await sevenClasses(), ...(await cupItems(3)).map((it) => ({ ...it, minutesAgo: 5 }))];
  for (const [width, height] of [[1280, 720], [1024, 768], [390, 844]]) {
    await page.setViewportSize({ width, height });
    await openStudio(page, items, 'look');
    await expect(page.getByRole('tablist', { name: 'Results' }).getByRole('tab')).toHaveCount(7);
    const strip = page.getByRole('list', { name: 'Gallery items' });
    await strip.scrollIntoViewIfNeeded();
    // Nothing of the stage is drawn below its own area, onto the strip: each element's box, cut by the boxes
    // of the ancestors that clip it, ends above the strip's top edge.
    const below = await page.evaluate(() => {
      const stage = document.querySelector('section[aria-label="Selected result"]')!;
      const stripTop = document.querySelector('ul[aria-label="Gallery items"]')!.parentElement!.parentElement!.getBoundingClientRect().top;
      const out: string[] = [];
      for (const el of stage.querySelectorAll('*')) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        let bottom = r.bottom;
        let top = r.top;
        for (let p = el.parentElement; p; p = p.parentElement) {
          if (getComputedStyle(p).overflowY === 'visible') continue;
          const b = p.getBoundingClientRect();
          bottom = Math.min(bottom, b.bottom);
          top = Math.max(top, b.top);
        }
        if (bottom > top && bottom > stripTop + 1) out.push(`${el.tagName}.${String(el.className).slice(0, 40)} to ${Math.round(bottom)} > ${Math.round(stripTop)}`);
      }
      return out;
    });
    expect(below, `${width}x${height}`).toEqual([]);
    const spill = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(spill, `${width}x${height}`).toBeLessThanOrEqual(0);
    // The viewer keeps a usable size, and the grid shows every class large.
    const viewer = page.getByTestId('before-after');
    await viewer.scrollIntoViewIfNeeded();
    expect((await viewer.boundingBox())!.height, `${width}x${height}`).toBeGreaterThanOrEqual(180);
    await page.getByRole('radio', { name: 'All 7 large' }).click();
    const first = page.getByRole('list', { name: 'All results' }).getByTestId('grid-image').first();
    await first.scrollIntoViewIfNeeded();
    expect((await first.boundingBox())!.height, `${width}x${height}`).toBeGreaterThanOrEqual(240);
  }
});

test('text contrast is at least 4.5:1 in the empty studio, on a result, in the grid, the comparison and the selection', async ({ page }) => {
  await page.goto('/#commodity-background-removal');
  await expect(page.getByText('Results appear here')).toBeVisible();
  const low = async (state: string) => {
    // Buttons fade between their disabled and enabled colours: read them once settled.
    await page.waitForTimeout(400);
    return { state, low: (await page.evaluate(contrastScan)) as { text: string; ratio: number }[] };
  };
  const found = [await low('empty')];
  await seedGallery(page, [await sevenClasses(), ...(await cupItems(2)).map((it) => ({ ...it, minutesAgo: 5 }))], 'look');
  await expect(page.getByTestId('before-after')).toBeVisible();
  found.push(await low('apparel result'));
  await page.getByRole('radio', { name: 'All 7 large' }).click();
  found.push(await low('grid'));
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  await cards(page).nth(1).getByRole('button').click();
  await cards(page).nth(2).getByRole('button').click();
  found.push(await low('selecting'));
  await page.getByRole('button', { name: 'Compare' }).click();
  await expect(page.getByRole('region', { name: 'Comparison' })).toBeVisible();
  found.push(await low('comparison'));
  await page.getByRole('button', { name: 'Close comparison' }).click();
  await page.getByRole('region', { name: 'Selected result' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('button', { name: 'Undo' })).toBeVisible();
  found.push(await low('undo'));
  expect(found.filter((f) => f.low.length > 0)).toEqual([]);
});
