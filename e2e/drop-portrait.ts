/** Drops the public-domain portrait (engine/test/fixtures/SOURCES.md) on the panel's drop zone, as a user's drag would. */
import { expect, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';

export const portrait = path.join(import.meta.dirname, '../engine/test/fixtures/obama_official_portrait.jpg');

export async function dropPortrait(page: Page) {
  const bytes = fs.readFileSync(portrait).toString('base64');
  const dataTransfer = await page.evaluateHandle((b64) => {
    const bin = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([bin], 'obama-portrait.jpg', { type: 'image/jpeg' }));
    return dt;
  }, bytes);
  const zone = page.locator('[data-testid^="dropzone-"]').first();
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
  await expect(page.getByText('Fits the limits')).toBeVisible();
}
