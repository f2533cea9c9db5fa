/**
 * Hair loss simulation in the studio: the level strip (man / woman, 1 to 7) instead of a select, a level
 * picked, the task's progress shown while it runs, and the result opened in the before/after viewer, on a
 * public-domain portrait (engine/test/fixtures/SOURCES.md).
 */
import { expect, test } from '@playwright/test';
import { dropPortrait } from './drop-portrait.ts';

test('hair loss: pick a level on the strip, run, progress, before/after', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Effects' }).getByRole('link', { name: /Hair loss simulation/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Hair loss simulation' })).toBeVisible();
  await dropPortrait(page);

  const strip = page.getByRole('radiogroup', { name: /Stage/ });
  await expect(strip.getByRole('radio')).toHaveCount(14);
  await expect(page.getByRole('combobox')).toHaveCount(0);
  await expect(page.getByTestId('run-button')).toBeDisabled();
  await strip.getByRole('group', { name: /^Man/ }).getByRole('radio', { name: 'Man 5', exact: true }).click();
  await expect(strip.getByRole('radio', { name: 'Man 5', exact: true })).toHaveAttribute('aria-checked', 'true');

  await page.getByTestId('run-button').click();
  await expect(page.getByRole('status').filter({ hasText: /Sending|Queued|Processing/ }).first()).toBeVisible();
  await expect(page.getByText('Done. The result is in the gallery.')).toBeVisible({ timeout: 150_000 });
  const stage = page.getByRole('region', { name: 'Selected result' });
  await expect(stage.getByRole('heading', { level: 2, name: /Hair loss simulation/ })).toBeVisible();
  await expect(stage.getByRole('slider', { name: 'Before/after divider' })).toBeVisible();
  await page.screenshot({ path: 'test-results/ai-hair-loss-simulation.png' });
});
