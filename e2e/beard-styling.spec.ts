/**
 * Beard styling in the studio: a preset picked from the drawn previews, the async task's progress, the result
 * in the before/after viewer. On a public-domain portrait (engine/test/fixtures/SOURCES.md).
 */
import { expect, test } from '@playwright/test';
import { dropPortrait } from './drop-portrait.ts';

const shots = 'test-results';

test('beard styling: a preset from the previews, progress while the task runs, before/after', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Effects' }).getByRole('link', { name: /Beard styling/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Beard styling' })).toBeVisible();
  await dropPortrait(page);

  const picker = page.getByRole('group', { name: 'Beard presets' });
  await expect(picker.getByRole('button')).toHaveCount(24);
  await expect(picker.getByRole('button', { name: 'Full beard classic' }).locator('svg path')).not.toHaveCount(0);
  await picker.getByRole('button', { name: 'Van dyke', exact: true }).click();
  await expect(picker.getByRole('button', { name: 'Van dyke', exact: true })).toHaveAttribute('aria-pressed', 'true');
  // The template photo is a second drop zone of its own.
  await expect(page.getByTestId('dropzone-ai-beard-styling-image_template')).toBeVisible();

  await page.getByTestId('run-button').click();
  await expect(page.getByRole('status').filter({ hasText: /Sending…|Queued…|Processing…/ }).first()).toBeVisible();
  await expect(page.getByText('Done. The result is in the gallery.')).toBeVisible({ timeout: 150_000 });
  const stage = page.getByRole('region', { name: 'Selected result' });
  await expect(stage.getByRole('heading', { level: 2, name: /Beard styling/ })).toBeVisible();
  await expect(stage.getByRole('slider', { name: 'Before/after divider' })).toBeVisible();
  await page.screenshot({ path: `${shots}/ai-beard-styling.png` });
});
