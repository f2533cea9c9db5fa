/**
 * Face beauty and coloured contacts in the studio: the beauty panel's three plain-language sliders, the
 * contacts panel's lens colour swatches with free text, each run on a public-domain portrait
 * (engine/test/fixtures/SOURCES.md) and its result opened in the before/after viewer.
 */
import { expect, test, type Page } from '@playwright/test';
import { dropPortrait } from './drop-portrait.ts';

const shots = 'test-results';

const open = async (page: Page, link: RegExp, title: string) => {
  await page.getByRole('navigation', { name: 'Effects' }).getByRole('link', { name: link }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
};

test('face beauty: three labelled sliders, run, before/after', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto('/');
  await open(page, /Face beauty/, 'Face beauty');
  await dropPortrait(page);

  // The contract's defaults, under plain names.
  for (const [label, value] of [['Sharpen features', '0.3'], ['Smooth skin', '0.5'], ['Brighten skin', '0.3']]) {
    await expect(page.getByRole('slider', { name: label })).toHaveValue(value);
  }
  await page.getByLabel('Smooth skin value').fill('0.8');
  await page.getByLabel('Smooth skin value').blur();
  await expect(page.getByRole('slider', { name: 'Smooth skin' })).toHaveValue('0.8');
  await page.getByRole('slider', { name: 'Brighten skin' }).fill('0.5');
  await expect(page.getByLabel('Brighten skin value')).toHaveValue('0.5');

  await page.getByTestId('run-button').click();
  await expect(page.getByText(/Done in .*The result is in the gallery/)).toBeVisible({ timeout: 150_000 });
  const stage = page.getByRole('region', { name: 'Selected result' });
  await expect(stage.getByRole('heading', { level: 2, name: /Face beauty/ })).toBeVisible();
  await expect(stage.getByRole('slider', { name: 'Before/after divider' })).toBeVisible();
  await page.screenshot({ path: `${shots}/face-beauty.png` });
});

test('coloured contacts: a lens colour swatch and free text, the task, before/after', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto('/');
  await open(page, /Coloured contacts/, 'Coloured contacts');
  await dropPortrait(page);

  const swatches = page.getByRole('group', { name: 'Lens colours' });
  for (const name of ['Natural light brown', 'Hazel', 'Honey', 'Green', 'Emerald', 'Grey', 'Blue', 'Ocean blue', 'Violet']) {
    await expect(swatches.getByRole('button', { name, exact: true })).toBeVisible();
  }
  await swatches.getByRole('button', { name: 'Ocean blue' }).click();
  await expect(swatches.getByRole('button', { name: 'Ocean blue' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('textbox', { name: /Lens name/ })).toHaveValue('Ocean blue');
  await page.getByLabel('Description').fill('subtle, with a dark limbal ring');

  await page.getByTestId('run-button').click();
  await expect(page.getByText('Done. The result is in the gallery.')).toBeVisible({ timeout: 150_000 });
  const stage = page.getByRole('region', { name: 'Selected result' });
  await expect(stage.getByRole('heading', { level: 2, name: /Coloured contacts/ })).toBeVisible();
  await expect(stage.getByRole('slider', { name: 'Before/after divider' })).toBeVisible();
  await page.screenshot({ path: `${shots}/ai-colored-contacts.png` });
});
