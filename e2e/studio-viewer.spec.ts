/**
 * The studio for designers (issue 12), the viewer and the files in and out: pinch and drag in the viewer,
 * any photo fitted in the browser, opaque results saved as JPEG and WebP, and focus after choosing a file.
 * Most start from a gallery filled as earlier runs leave it (studio-page.ts).
 */
import { expect, test } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { cupFixture, cupImages } from './studio-gallery-seed.ts';
import { cards, cupItems, openStudio, stage, zoomOf } from './studio-page.ts';

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
