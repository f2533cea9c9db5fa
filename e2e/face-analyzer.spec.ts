/**
 * Face analyzer in the studio: each face's box drawn on the photo with its number, its attributes in words
 * with probabilities, the raw JSON one click away. On a public-domain portrait (engine/test/fixtures/SOURCES.md).
 */
import { expect, test } from '@playwright/test';
import { dropPortrait } from './drop-portrait.ts';

const shots = 'test-results';

test('face analyzer: boxes on the photo, attributes in words, raw JSON a click away', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Effects' }).getByRole('link', { name: /Face analyzer/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Face analyzer' })).toBeVisible();

  await dropPortrait(page);

  // The studio asks for every attribute unless told otherwise (the API's default is boxes only); Mask and
  // Hat are switched off here to see the answer say what was not asked for.
  const attributes = page.getByRole('group', { name: /Attributes/ });
  for (const name of ['Age', 'Gender', 'Emotion', 'Eyes', 'Hair', 'Head pose', 'Mask', 'Hat']) {
    await expect(attributes.getByRole('button', { name, exact: true })).toHaveAttribute('aria-pressed', 'true');
  }
  for (const name of ['Mask', 'Hat']) await attributes.getByRole('button', { name, exact: true }).click();
  await expect(attributes.getByRole('button', { name: 'Hat', exact: true })).toHaveAttribute('aria-pressed', 'false');
  await page.getByTestId('run-button').click();
  await expect(page.getByText(/Done in .*The result is in the gallery/)).toBeVisible({ timeout: 150_000 });

  const stage = page.getByRole('region', { name: 'Selected result' });
  await expect(stage.getByTestId('face-count')).toHaveText(/^1 face\b/);
  const box = stage.getByRole('button', { name: 'Face 1' }).first();
  await expect(box).toBeVisible();
  await box.click();
  const details = stage.getByRole('region', { name: 'Face 1 attributes' });
  await expect(details).toContainText(/male · \d+%/);
  await expect(details).toContainText(/happy|neutral/);
  await expect(details).toContainText(/yaw [−-]?[\d.]+°/);
  await expect(details).toContainText('not requested'); // Mask and Hat were not asked for
  await page.screenshot({ path: `${shots}/face-analyzer.png` });

  await stage.getByRole('tab', { name: 'Raw JSON' }).click();
  await expect(stage).toContainText('face_detail_infos');
});
