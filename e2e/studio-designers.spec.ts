/**
 * The studio as a designer uses it (issue 12): any photo in (fitted in the browser), drop anywhere, paste,
 * Ctrl+Enter from anywhere, chains, batches with a zip, zoom and backgrounds, trimmed results aligned, the
 * developer view, the engine-down page, and layouts that do not spill. Photos are made here with sharp from
 * the public-domain fixtures (engine/test/fixtures/SOURCES.md).
 */
import { expect, test, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const cup = path.join(import.meta.dirname, '../engine/test/fixtures/product_coffee_cup.png');

/** Drops files on an element (default: the stage, far from the panel's drop box), as a user's drag would. */
export async function dropFiles(page: Page, files: { name: string; type: string; bytes: Buffer }[], target = page.getByRole('region', { name: 'Gallery', exact: true })) {
  const dataTransfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name, { type: f.type }));
    return dt;
  }, files.map((f) => ({ name: f.name, type: f.type, b64: f.bytes.toString('base64') })));
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
}

async function openEffect(page: Page, title: string) {
  await page.getByRole('navigation', { name: 'Effects' }).getByRole('link', { name: new RegExp(title) }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

const stage = (page: Page) => page.getByRole('region', { name: 'Selected result' });

/** A 4032×3024 "phone photo": the product fixture upscaled onto a 4:3 JPEG. */
const phonePhoto = () =>
  sharp(cup).flatten({ background: '#e8e4dc' }).resize(4032, 3024, { fit: 'contain', background: '#e8e4dc' }).jpeg({ quality: 88 }).toBuffer();

test('any photo in: a phone photo, a WebP, a grey PNG and a GIF are fitted in the browser; a HEIC says why not', async ({ page }) => {
  await page.goto('/#commodity-background-removal');
  await expect(page.getByRole('heading', { level: 1, name: 'Product background removal' })).toBeVisible();

  // Dropped on the stage, not on the drop box: drop anywhere.
  await dropFiles(page, [{ name: 'phone.jpg', type: 'image/jpeg', bytes: await phonePhoto() }]);
  await expect(page.getByTestId('fit-note')).toHaveText('Resized from 4032×3024 to 1999×1499 to fit this effect.', { timeout: 30_000 });
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.getByTestId('run-button').click();
  await expect(stage(page).getByTestId('stage-progress')).toBeVisible();
  await expect(page.getByRole('slider', { name: 'Before/after divider' })).toBeVisible({ timeout: 90_000 });
  const before = stage(page).getByRole('img', { name: 'Before' });
  expect(await before.evaluate((img: HTMLImageElement) => `${img.naturalWidth}x${img.naturalHeight}`)).toBe('1999x1499');
  await expect(stage(page).getByTestId('item-caption')).toHaveText('phone.jpg · Transparent');

  const webp = await sharp(cup).resize(600).webp().toBuffer();
  await dropFiles(page, [{ name: 'cup.webp', type: 'image/webp', bytes: webp }]);
  await expect(page.getByTestId('fit-note')).toHaveText(/^Converted from WEBP to (PNG|JPEG) to fit this effect\.$/);

  const grey = await sharp(cup).resize(500).flatten({ background: '#fff' }).greyscale().png({ palette: false }).toColourspace('b-w').toBuffer();
  await dropFiles(page, [{ name: 'mask.png', type: 'image/png', bytes: grey }]);
  await expect(page.getByTestId('fit-note')).toHaveText('Converted from 8-bit PNG to full-colour PNG to fit this effect.');

  const gif = await sharp(cup).resize(400).gif().toBuffer();
  await dropFiles(page, [{ name: 'cup.gif', type: 'image/gif', bytes: gif }]);
  await expect(page.getByTestId('fit-note')).toHaveText('Converted from GIF to PNG to fit this effect.');
  await page.getByTestId('run-button').click();
  await expect(stage(page).getByTestId('item-caption')).toHaveText('cup.png · Transparent', { timeout: 90_000 });
  await expect(page.getByRole('slider', { name: 'Before/after divider' })).toBeVisible({ timeout: 90_000 });

  // Not a decodable HEIC here (Chromium has no HEVC decoder): said plainly.
  const heic = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic'), Buffer.alloc(4), Buffer.from('mif1heic'), Buffer.alloc(64)]);
  await dropFiles(page, [{ name: 'IMG_0001.HEIC', type: 'image/heic', bytes: heic }]);
  await expect(page.getByRole('alert')).toContainText('This is a HEIC photo, which this browser cannot decode');
});

test('driving: paste, Ctrl+Enter from anywhere, use the result as the next input, a batch with a zip', async ({ page }) => {
  await page.goto('/#commodity-background-removal');
  const png = fs.readFileSync(cup);
  await page.evaluate((b64) => {
    const dt = new DataTransfer();
    dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], 'cup.png', { type: 'image/png' }));
    document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
  }, png.toString('base64'));
  await expect(page.getByRole('group', { name: /cup\.png/ })).toBeVisible();
  await expect(page.getByText('Fits the limits')).toBeVisible();
  await page.getByRole('radio', { name: 'Trimmed' }).click();
  await page.locator('body').click({ position: { x: 5, y: 300 } });
  await page.keyboard.press('Control+Enter');
  await expect(page.getByRole('slider', { name: 'Before/after divider' })).toBeVisible({ timeout: 90_000 });
  // The trimmed cutout is placed where it was in the photo, so the halves line up.
  const placed = stage(page).getByRole('img', { name: 'After' });
  await expect.poll(async () => placed.evaluate((img: HTMLElement) => img.style.left), { timeout: 20_000 }).toMatch(/^[\d.]+%$/);
  expect(await placed.evaluate((img: HTMLElement) => parseFloat(img.style.left))).toBeGreaterThan(0);

  await stage(page).getByRole('button', { name: 'Use as next input' }).click();
  await openEffect(page, 'Smart crop');
  await expect(page.getByRole('group', { name: /cup-result\.png/ })).toBeVisible();
  await page.getByRole('group', { name: 'Size presets' }).getByRole('button').first().click();
  await page.getByTestId('run-button').click();
  await expect(stage(page).getByTestId('chain')).toHaveText('made from product background removal of cup.png', { timeout: 90_000 });

  // Three photos at once: a batch with the product panel's options.
  await openEffect(page, 'Product background removal');
  const small = await sharp(cup).resize(320).png().toBuffer();
  await dropFiles(page, ['a', 'b', 'c'].map((n) => ({ name: `${n}.png`, type: 'image/png', bytes: small })));
  const batch = page.getByRole('region', { name: 'Batch' });
  await expect(batch.getByTestId('batch-row')).toHaveCount(3);
  await expect(batch.locator('[data-testid="batch-row"][data-state="done"]')).toHaveCount(3, { timeout: 110_000 });
  const download = page.waitForEvent('download');
  await batch.getByRole('button', { name: 'Download all (zip)' }).click();
  const zip = await download;
  expect(zip.suggestedFilename()).toBe('atelier-batch-3.zip');
  const bytes = fs.readFileSync((await zip.path())!);
  expect(bytes.subarray(0, 2).toString()).toBe('PK');
  for (const n of ['a-cutout.png', 'b-cutout.png', 'c-cutout.png']) expect(bytes.includes(Buffer.from(n))).toBe(true);
});

test('inspecting: run on drop, wheel zoom, double-click to 100 %, backgrounds; downloads named after the photo', async ({ page }) => {
  await page.goto('/#commodity-background-removal');
  await page.getByRole('switch', { name: 'Run on drop' }).click();
  await dropFiles(page, [{ name: 'coffee-cup.jpg', type: 'image/jpeg', bytes: await phonePhoto() }]);
  const viewer = page.getByTestId('before-after');
  await expect(viewer).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId('zoom-level')).toHaveText(/^Fit \(\d+ %\)$/);
  const box = (await viewer.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.4);
  await page.mouse.wheel(0, -400);
  await expect(page.getByTestId('zoom-level')).not.toHaveText(/^Fit/);
  await viewer.dblclick({ position: { x: box.width / 2, y: box.height / 2 } });
  await expect(page.getByTestId('zoom-level')).toHaveText(/^Fit/);
  await viewer.dblclick({ position: { x: box.width / 2, y: box.height / 2 } });
  await expect(page.getByTestId('zoom-level')).toHaveText('100 %');

  await page.getByRole('group', { name: 'Background' }).getByRole('button', { name: 'Black' }).click();
  await expect(page.getByTestId('after-layer')).toHaveCSS('background-color', 'rgb(0, 0, 0)');

  const download = page.waitForEvent('download');
  await stage(page).getByRole('link', { name: 'Download' }).click();
  expect((await download).suggestedFilename()).toBe('coffee-cup-cutout.png');
});

test('layout and access: skip link, main landmark, no spill at 1280×720, 1024×768 and on a phone', async ({ page }) => {
  for (const [width, height] of [[1280, 720], [1024, 768], [390, 844]]) {
    await page.setViewportSize({ width, height });
    await page.goto('/#apparel-background-removal');
    await expect(page.getByRole('main')).toBeVisible();
    const spill = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(spill, `${width}x${height}`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/');
  await expect(page.getByRole('main')).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to the effect' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
});

test('a banner over the studio when the engine is down', async ({ page }) => {
  await page.route('**/healthz', (route) => route.fulfill({ status: 502, body: 'Bad Gateway' }));
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'The engine is not answering' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try again now' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Gallery' })).toBeVisible();
  await expect(page.getByTestId('run-button')).toBeDisabled();
});
