/**
 * The one flow a user must always be able to do: open the studio, drop a product photo into the product
 * panel, get the cut-out in the gallery with the before/after divider, reload and still have it.
 */
import { expect, test } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';

const photo = path.join(import.meta.dirname, '../engine/test/fixtures/product_coffee_cup.png');

test('product background removal end to end, kept across a reload', async ({ page }, testInfo) => {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Effects' }).getByRole('link', { name: /Product background removal/ }).or(
    page.getByRole('navigation', { name: 'Effects' }).getByRole('button', { name: /Product background removal/ })).first().click();
  await expect(page.getByRole('heading', { name: 'Product background removal' })).toBeVisible();

  // A real drop: a DataTransfer carrying the file, dispatched on the dropzone.
  const bytes = fs.readFileSync(photo).toString('base64');
  const dropzone = page.getByRole('button', { name: /drop a photo here or click to browse/ });
  const dataTransfer = await page.evaluateHandle(async (b64) => {
    const bin = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([bin], 'coffee-cup.png', { type: 'image/png' }));
    return dt;
  }, bytes);
  await dropzone.dispatchEvent('dragenter', { dataTransfer });
  await dropzone.dispatchEvent('drop', { dataTransfer });
  await expect(page.getByRole('group', { name: /coffee-cup\.png/ })).toBeVisible();

  await page.getByTestId('run-button').click();
  const items = page.getByRole('list', { name: 'Gallery items' }).getByRole('button');
  await expect(items.first()).toBeVisible();
  await expect(items.first()).not.toHaveAccessibleName(/running|failed/, { timeout: 90_000 });
  const divider = page.getByRole('slider', { name: 'Before/after divider' });
  await expect(divider).toBeVisible();

  // The divider moves with the keyboard.
  const before = await divider.getAttribute('aria-valuenow');
  await divider.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(divider).not.toHaveAttribute('aria-valuenow', before ?? '');
  await page.screenshot({ path: testInfo.outputPath('studio-product-cutout.png') });
  await page.screenshot({ path: 'test-results/studio-product-cutout.png' });

  // Counted before the reload: counting after it races the gallery's load from IndexedDB.
  const count = await items.count();
  expect(count).toBeGreaterThan(0);
  await page.reload();
  await expect(page.getByRole('list', { name: 'Gallery items' }).getByRole('button')).toHaveCount(count);
  await page.getByRole('list', { name: 'Gallery items' }).getByRole('button').first().click();
  await expect(page.getByRole('slider', { name: 'Before/after divider' })).toBeVisible();
  const after = page.getByRole('img', { name: /after|result/i }).first();
  await expect(after).toBeVisible();
  await page.screenshot({ path: 'test-results/studio-after-reload.png' });
});
