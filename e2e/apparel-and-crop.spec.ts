/**
 * Apparel background removal with one result per garment class, and smart crop with its kept window drawn
 * on the original. Both on a public-domain portrait (engine/test/fixtures/SOURCES.md).
 */
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';

const portrait = path.join(import.meta.dirname, '../engine/test/fixtures/obama_official_portrait.jpg');
const shots = 'test-results';

async function openEffect(page: Page, title: string) {
  await page.getByRole('navigation', { name: 'Effects' }).getByRole('link', { name: new RegExp(title) }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

/** A real drop: a DataTransfer carrying the file, dispatched on the dropzone (empty, or holding a photo). */
async function dropPhoto(page: Page, file: string, name: string) {
  const bytes = fs.readFileSync(file).toString('base64');
  const dataTransfer = await page.evaluateHandle(
    ([b64, n]) => {
      const bin = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bin], n, { type: 'image/jpeg' }));
      return dt;
    },
    [bytes, name] as const,
  );
  const zone = page.locator('[data-testid^="dropzone-"]').first();
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
  await expect(page.getByRole('group', { name: new RegExp(name.replace('.', '\\.')) })).toBeVisible();
  await expect(page.getByText('Fits the limits')).toBeVisible();
}

async function runAndWait(page: Page) {
  await page.getByTestId('run-button').click();
  const first = page.getByRole('list', { name: 'Gallery items' }).getByRole('button').first();
  await expect(page.getByText(/Done in .*The result is in the gallery/)).toBeVisible({ timeout: 110_000 });
  await expect(first).not.toHaveAccessibleName(/running|failed/);
  return first;
}

test('apparel: one result per garment class, each viewable and downloadable, kept across a reload', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto('/');
  await openEffect(page, 'Apparel background removal');
  await dropPhoto(page, portrait, 'obama-portrait.jpg');

  // tops is on by default; two more classes, and the main cutout limited to them.
  const classes = page.getByRole('group', { name: 'Garment classes' });
  await classes.getByRole('button', { name: 'coat', pressed: false }).click();
  await classes.getByRole('button', { name: 'pants', pressed: false }).click();
  await page.getByRole('radio', { name: /Only the selected classes/ }).click();
  await expect(page.getByRole('note', { name: 'Results of a run' })).toContainText('4 results');
  await page.screenshot({ path: `${shots}/apparel-panel.png` });

  await runAndWait(page);
  const tabs = page.getByRole('tablist', { name: 'Results' }).getByRole('tab');
  await expect(tabs).toHaveCount(4);
  await expect(tabs.nth(0)).toHaveAccessibleName('Selected classes');
  for (const [i, cls] of ['Tops', 'Coat', 'Pants'].entries()) await expect(tabs.nth(i + 1)).toHaveAccessibleName(new RegExp(`^${cls}`));
  // Every tab's emptiness is decided from its pixels.
  for (let i = 0; i < 4; i++) await expect(tabs.nth(i)).toHaveAttribute('data-blank', /true|false/);
  await page.screenshot({ path: `${shots}/apparel-results.png` });

  for (let i = 1; i < 4; i++) {
    const tab = tabs.nth(i);
    const name = (await tab.getAttribute('aria-label'))!;
    const cls = name.split(',')[0];
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('slider', { name: 'Before/after divider' })).toBeVisible();
    const after = page.getByRole('img', { name: cls, exact: true });
    await expect(after).toBeVisible();
    expect(await after.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    const download = page.getByRole('link', { name: `Download ${cls}` });
    // Named after the photo: obama-portrait-clothing-tops.png.
    await expect(download).toHaveAttribute('download', `obama-portrait-clothing-${cls.toLowerCase()}.png`);
    const file = await Promise.all([page.waitForEvent('download'), download.click()]).then(([d]) => d);
    expect(file.suggestedFilename()).toBe(`obama-portrait-clothing-${cls.toLowerCase()}.png`);
    if ((await tab.getAttribute('data-blank')) === 'true') {
      await expect(page.getByRole('status').filter({ hasText: `${cls}: not found in this photo` })).toBeVisible();
      await page.screenshot({ path: `${shots}/apparel-class-${cls.toLowerCase()}-not-found.png` });
    } else {
      await page.screenshot({ path: `${shots}/apparel-class-${cls.toLowerCase()}.png` });
    }
  }

  // All five images (photo, cutout, three classes) are in IndexedDB: a reload shows them again.
  await page.reload();
  const item = page.getByRole('list', { name: 'Gallery items' }).getByRole('button').first();
  await expect(item).toHaveAccessibleName(/Apparel background removal: obama-portrait\.jpg · .*4 results/);
  await item.click();
  await expect(tabs).toHaveCount(4);
  for (let i = 0; i < 4; i++) {
    const thumb = tabs.nth(i).locator('img');
    await expect(thumb).toBeVisible();
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  }
  await tabs.nth(1).click();
  await expect(page.getByRole('img', { name: 'Tops', exact: true })).toBeVisible();
  await page.screenshot({ path: `${shots}/apparel-after-reload.png` });
});

test('smart crop: a preset, the crop, and retain_location drawn on the original', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto('/');
  await openEffect(page, 'Smart crop');
  await dropPhoto(page, portrait, 'obama-portrait.jpg');

  // 16:9 of a 910×1137 portrait: the whole width, 512 px high.
  await page.getByRole('button', { name: /^16:9 Widescreen, 910×512$/ }).click();
  await expect(page.getByLabel('Width value')).toHaveValue('910');
  await expect(page.getByLabel('Height value')).toHaveValue('512');
  await page.screenshot({ path: `${shots}/crop-panel.png` });

  await runAndWait(page);
  const crop = page.getByRole('img', { name: 'Crop', exact: true });
  await expect(crop).toBeVisible();
  expect(await crop.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([910, 512]);

  const rect = page.getByTestId('retain-rect');
  await expect(rect).toBeVisible();
  const label = await page.getByTestId('retain-label').textContent();
  const m = /^x (\d+) · y (\d+) · (\d+)×(\d+)$/.exec(label ?? '');
  expect(m, label ?? '').not.toBeNull();
  const [x, y, w, h] = m!.slice(1).map(Number);
  expect([x, w, h]).toEqual([0, 910, 512]);
  expect(y).toBeGreaterThanOrEqual(0);
  expect(y + h).toBeLessThanOrEqual(1137);

  // The drawn rectangle is retain_location through the object-contain scaling of the displayed photo.
  const original = page.getByRole('img', { name: 'Original with the kept window' });
  const geometry = await original.evaluate((img: HTMLImageElement) => {
    const r = img.getBoundingClientRect();
    const k = Math.min(r.width / img.naturalWidth, r.height / img.naturalHeight);
    return { left: r.left + (r.width - img.naturalWidth * k) / 2, top: r.top + (r.height - img.naturalHeight * k) / 2, k };
  });
  const drawn = (await rect.boundingBox())!;
  // Within the width of the 2 px stroke, whether the browser counts it in the box or not.
  expect(Math.abs(drawn.x - (geometry.left + x * geometry.k))).toBeLessThan(2.5);
  expect(Math.abs(drawn.y - (geometry.top + y * geometry.k))).toBeLessThan(2.5);
  expect(Math.abs(drawn.width - w * geometry.k)).toBeLessThan(2.5);
  expect(Math.abs(drawn.height - h * geometry.k)).toBeLessThan(2.5);
  await expect(page.getByTestId('crop-view')).toContainText(`kept ${w}×${h} px at (${x}, ${y}) of 910×1137`);
  await page.screenshot({ path: `${shots}/crop-result.png` });

  // The overlay follows the displayed size.
  await page.setViewportSize({ width: 1100, height: 800 });
  await expect.poll(async () => {
    const g = await original.evaluate((img: HTMLImageElement) => {
      const r = img.getBoundingClientRect();
      return Math.min(r.width / img.naturalWidth, r.height / img.naturalHeight);
    });
    return Math.abs((await rect.boundingBox())!.width - w * g);
  }).toBeLessThan(2.5);
  await page.screenshot({ path: `${shots}/crop-result-narrow.png` });
});
