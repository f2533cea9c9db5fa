/**
 * Skin analysis in the studio: the skin report beside the photo (face and zone guide drawn, lesion marks per
 * kind with a legend that toggles them, maps as overlays to toggle, codes in words), on a public-domain
 * portrait (engine/test/fixtures/SOURCES.md).
 */
import { expect, test } from '@playwright/test';
import { dropPortrait } from './drop-portrait.ts';

test('skin analysis: a report in words, marks and maps on the photo', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Effects' }).getByRole('link', { name: /Skin analysis/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Skin analysis' })).toBeVisible();

  await dropPortrait(page);
  const maps = page.getByRole('group', { name: /Skin maps/ });
  for (const name of ['Redness', 'Brown spots']) await maps.getByRole('button', { name, exact: true }).click();
  await page.getByTestId('run-button').click();
  await expect(page.getByText(/Done in .*The result is in the gallery/)).toBeVisible({ timeout: 150_000 });

  const stage = page.getByRole('region', { name: 'Selected result' });
  await expect(stage.getByTestId('skin-face')).toBeVisible();
  const measures = stage.getByRole('region', { name: 'Skin measures' });
  await expect(measures).toContainText(/Skin type\s*(oily|dry|neutral|combination) skin/);
  await expect(measures).toContainText(/Skin age\s*\d+ years/);
  await expect(measures).toContainText(/Dark circles\s*(not seen|brownish|bluish|shadowed)/);
  await expect(measures).toContainText(/Crow's feet\s*(visible|not seen)/);
  // The face's estimated age beside the skin age, from the face analyzer.
  await expect(measures.getByTestId('estimated-age')).toContainText(/about \d+ years|\d+ years or more/);

  const legend = stage.getByRole('region', { name: 'Marks on the photo' });
  await expect(stage.getByTestId('skin-zone').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/skin-analysis-report.png' });
  await legend.getByRole('button', { name: 'Zone guide' }).click();
  await expect(stage.getByTestId('skin-zone')).toHaveCount(0);

  // The first map lies over the photo at once, with its legend; the second replaces it.
  const overlayMaps = stage.getByRole('group', { name: 'Skin maps' });
  await expect(stage.getByTestId('map-overlay-red area')).toBeVisible();
  await expect(stage.getByRole('note', { name: 'Map legend' })).toContainText('Redness:');
  await overlayMaps.getByRole('button', { name: 'Brown spots' }).click();
  await expect(stage.getByTestId('map-overlay-brown area')).toBeVisible();
  await page.screenshot({ path: 'test-results/skin-analysis-map.png' });
  // The report at a designer's desk and on a phone (ATELIER_SHOTS_DIR gathers a session's screenshots).
  const shots = process.env.ATELIER_SHOTS_DIR ?? 'test-results/shots';
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: `${shots}/skin-analysis-report-1440.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await stage.getByTestId('skin-photo').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${shots}/skin-analysis-report-390.png` });
  await page.setViewportSize({ width: 1400, height: 900 });

  await stage.getByRole('tab', { name: 'Raw JSON' }).click();
  await expect(stage).toContainText('skin_type');
});
