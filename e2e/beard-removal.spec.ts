/**
 * Beard removal in the studio: the panel (generated from the contract) takes the public-domain portrait
 * (engine/test/fixtures/SOURCES.md), shows the task's progress while it runs, then the result in the
 * before/after viewer.
 */
import { expect, test } from '@playwright/test';
import { dropPortrait } from './drop-portrait.ts';

const shots = 'test-results';

test('beard removal: the portrait sent, progress while the task runs, the result before/after', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Effects' }).getByRole('link', { name: /Beard removal/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Beard removal' })).toBeVisible();
  // Provided: its link carries no "Not available" mark (the unprovided effects' links do).
  await expect(page.getByRole('navigation', { name: 'Effects' }).getByRole('link', { name: 'Beard removal', exact: true })).toBeVisible();
  await dropPortrait(page);

  await page.getByTestId('run-button').click();
  await expect(page.getByRole('status').filter({ hasText: /Sending…|Queued…|Processing…/ }).first()).toBeVisible();
  await expect(page.getByText('Done. The result is in the gallery.')).toBeVisible({ timeout: 150_000 });
  const stage = page.getByRole('region', { name: 'Selected result' });
  await expect(stage.getByRole('heading', { level: 2, name: /Beard removal/ })).toBeVisible();
  await expect(stage.getByRole('slider', { name: 'Before/after divider' })).toBeVisible();
  await page.screenshot({ path: `${shots}/ai-beard-removal.png` });
});
