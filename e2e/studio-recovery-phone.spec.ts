/**
 * Issue 37 in the browser, as a designer meets it: the lip colour face picker on a WebP photo; the gallery
 * browsable and downloadable with the engine stopped, under a banner (and the disk-full banner); a background
 * task whose polling the engine's restart interrupted, shown done once it answers again; on a phone, the Run
 * button on screen, the upload box for a finger, and a face effect's result opened on the face. Screenshots of
 * each state at 1440x900 and 390x844 go to ATELIER_SHOTS_DIR (test-results/shots by default).
 */
import { expect, test, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { cards, cupItems, openStudio, portrait, stage, zoomOf } from './studio-page.ts';
import { dropPortrait } from './drop-portrait.ts';

const shotsDir = process.env.ATELIER_SHOTS_DIR ?? 'test-results/shots';
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** The state at both sizes: wide first, then the phone, then back to wide. */
async function shoot(page: Page, name: string) {
  fs.mkdirSync(shotsDir, { recursive: true });
  for (const [size, vp] of [['1440', WIDE], ['390', PHONE]] as const) {
    await page.setViewportSize(vp);
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(shotsDir, `${name}-${size}.png`) });
  }
  await page.setViewportSize(WIDE);
}

async function dropFile(page: Page, name: string, type: string, bytes: Buffer) {
  const dataTransfer = await page.evaluateHandle(({ b64, name, type }) => {
    const bin = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([bin], name, { type }));
    return dt;
  }, { b64: bytes.toString('base64'), name, type });
  const zone = page.locator('[data-testid^="dropzone-"]').first();
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
}

test.use({ viewport: WIDE });

test('lip colour: the face picker finds the faces of a WebP photo', async ({ page }) => {
  await page.goto('/#lips-color-changer');
  await dropFile(page, 'portrait.webp', 'image/webp', await sharp(portrait).webp({ quality: 90 }).toBuffer());
  const faces = page.getByRole('region', { name: 'Faces' });
  const face = faces.getByRole('button', { name: 'Face 1' });
  await expect(face).toBeVisible({ timeout: 90_000 });
  await expect(faces).not.toContainText('No faces to choose from');
  await face.click();
  await expect(face).toHaveAttribute('aria-pressed', 'true');
  await shoot(page, 'lips-webp-face-picker');
});

test('engine stopped: the gallery stays browsable and downloadable under a banner; a full disk has its own', async ({ page }) => {
  await page.route('**/healthz', (route) => route.fulfill({ status: 502, body: 'Bad Gateway' }));
  await openStudio(page, await cupItems(2));
  await expect(page.getByRole('alert').filter({ hasText: 'The engine is not answering' })).toBeVisible();
  await expect(page.getByTestId('run-button')).toBeDisabled();
  await cards(page).nth(1).click();
  const download = page.waitForEvent('download');
  await stage(page).getByRole('link', { name: 'Download' }).click();
  expect((await download).suggestedFilename()).toMatch(/^cup-1-cutout\.png$/);
  await shoot(page, 'engine-down-gallery');

  await page.unroute('**/healthz');
  await page.route('**/healthz', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ status: 'storage_full', ready: true }) }));
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: 'The engine’s disk is full' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'The engine is not answering' })).toHaveCount(0);
  await shoot(page, 'engine-disk-full');
});

test('a background task whose polling an engine restart interrupted is shown done once the engine answers', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto('/#ai-red-lip-gloss');
  await dropPortrait(page);
  // The engine goes away as the task is submitted: every poll meets a gateway's 502, as while it restarts.
  await page.route('**/api/common/query-async-task-result**', (route) => route.fulfill({ status: 502, body: 'Bad Gateway' }));
  await page.getByTestId('run-button').click();
  await expect(page.getByText('Waiting for the engine…')).toBeVisible({ timeout: 60_000 });
  await page.waitForTimeout(4000);
  await expect(stage(page).getByText('Failed')).toHaveCount(0);
  await shoot(page, 'task-waiting-for-engine');
  await page.unroute('**/api/common/query-async-task-result**');
  await expect(stage(page).getByRole('link', { name: 'Download' })).toBeVisible({ timeout: 240_000 });
  await expect(stage(page).getByText('Failed')).toHaveCount(0);
});

test.describe('on a phone', () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test('the Run button stays on screen, and the upload box speaks to a finger', async ({ page }) => {
    await page.goto('/#ai-beard-styling');
    const box = page.locator('[data-testid^="dropzone-"]').first();
    await expect(box).toContainText('Tap to choose a photo');
    await expect(box).not.toContainText('Drop a photo here');
    const run = page.getByTestId('run-button');
    const at = await run.boundingBox();
    expect(at!.y + at!.height).toBeLessThanOrEqual(PHONE.height);
    await page.screenshot({ path: path.join(shotsDir, 'phone-beard-run-button-390.png') });
    // Still there halfway down the presets.
    await page.getByRole('main').evaluate(() => document.querySelector('[data-testid="action-bar"]')!.closest('.overflow-y-auto')?.scrollBy(0, 900));
    const later = await run.boundingBox();
    expect(later!.y).toBeGreaterThanOrEqual(0);
    expect(later!.y + later!.height).toBeLessThanOrEqual(PHONE.height);
    await page.screenshot({ path: path.join(shotsDir, 'phone-beard-run-button-scrolled-390.png') });
  });

  test('a face effect\'s result opens on the face', async ({ page }) => {
    const photo = await sharp(portrait).jpeg({ quality: 90 }).toBuffer();
    await openStudio(page, [{
      id: 'beauty', slug: 'face-beauty', params: {},
      before: { label: 'Before', type: 'image/jpeg', bytes: photo, name: 'portrait.jpg' },
      afters: [{ label: 'Result', type: 'image/jpeg', bytes: photo }],
    }]);
    const viewer = stage(page).getByTestId('before-after');
    await viewer.scrollIntoViewIfNeeded();
    await expect.poll(() => zoomOf(viewer), { timeout: 90_000 }).toBeGreaterThan(1.5);
    await viewer.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shotsDir, 'phone-face-effect-zoomed-390.png') });
  });
});

test('panels in plain words, with starting options that show something', async ({ page }) => {
  for (const slug of ['smart-skin-advanced', 'face-analyzer', 'ai-colored-contacts', 'ai-hair-loss-simulation']) {
    await page.goto(`/#${slug}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator('form')).not.toContainText(/smart_skin|man_\d|face_attributes_type|\{rgba/);
    await shoot(page, `panel-${slug}`);
  }
});
