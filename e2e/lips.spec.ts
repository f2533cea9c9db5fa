/**
 * Lip colour in the studio: a shade chosen from the swatches, the face chosen by clicking it on the photo,
 * the result in the before/after viewer; then the red lip gloss as an async task. On a public-domain
 * portrait (engine/test/fixtures/SOURCES.md).
 */
import { expect, test } from '@playwright/test';
import { dropPortrait } from './drop-portrait.ts';

const shots = 'test-results';

test('lip colour: a shade, the face clicked on the photo, before/after; then the gloss task', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Effects' }).getByRole('link', { name: /Lip colour/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Lip colour' })).toBeVisible();
  await dropPortrait(page);

  await page.getByRole('group', { name: 'Shades for colour 1' }).getByRole('button', { name: 'Berry' }).click();
  const faces = page.getByRole('region', { name: 'Faces' });
  const face = faces.getByRole('button', { name: 'Face 1' });
  await expect(face).toBeVisible({ timeout: 150_000 });
  await face.click();
  await expect(face).toHaveAttribute('aria-pressed', 'true');
  // The colour now names the face it applies to (the JSON sent shows in the developer view only).
  await expect(page.getByText(/Face at \d+, \d+/)).toBeVisible();
  await page.getByTestId('run-button').click();
  await expect(page.getByText(/Done in .*The result is in the gallery/)).toBeVisible({ timeout: 150_000 });
  const stage = page.getByRole('region', { name: 'Selected result' });
  await expect(stage.getByRole('slider', { name: 'Before/after divider' })).toBeVisible();
  await page.screenshot({ path: `${shots}/lips-color-changer.png` });

  await page.getByRole('navigation', { name: 'Effects' }).getByRole('link', { name: /Red lip gloss/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Red lip gloss' })).toBeVisible();
  await dropPortrait(page);
  await page.getByTestId('run-button').click();
  await expect(page.getByText('Done. The result is in the gallery.')).toBeVisible({ timeout: 150_000 });
  await expect(stage.getByRole('heading', { level: 2, name: /Red lip gloss/ })).toBeVisible();
  await expect(stage.getByRole('slider', { name: 'Before/after divider' })).toBeVisible();
  await page.screenshot({ path: `${shots}/ai-red-lip-gloss.png` });
});
