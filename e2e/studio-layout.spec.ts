/**
 * The studio for designers (issue 12), its layout: on a phone the result comes into view after a run and a
 * crop is not cut off (these run the engine); seven apparel results draw nothing over the gallery strip; text
 * contrast holds everywhere.
 */
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { cupFixture, seedGallery } from './studio-gallery-seed.ts';
import { contrastScan } from './contrast-scan.ts';
import { cards, cupItems, openStudio, portrait, sevenClasses, stage } from './studio-page.ts';

test.describe('on a phone (390×844)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the result comes into view after a run, and a crop result is not cut off', async ({ page }) => {
    test.setTimeout(240_000);
    await page.goto('/#commodity-background-removal');
    const input = page.getByTestId('dropzone-input');
    await input.setInputFiles({ name: 'cup.png', mimeType: 'image/png', buffer: await sharp(cupFixture).resize(400).png().toBuffer() });
    await expect(page.getByText('Fits the limits')).toBeVisible();
    const run = page.getByTestId('run-button');
    await run.scrollIntoViewIfNeeded();
    await run.click();
    const viewer = page.getByTestId('before-after');
    await expect(viewer).toBeVisible({ timeout: 110_000 });
    // Without scrolling by hand: the running photo, then the result, sits in the window.
    await expect(viewer).toBeInViewport({ ratio: 0.6 });

    await page.goto('/#image-cropping');
    await page.getByTestId('dropzone-input').setInputFiles(portrait);
    await expect(page.getByText('Fits the limits')).toBeVisible();
    await page.getByRole('button', { name: /^16:9 Widescreen/ }).click();
    await page.getByTestId('run-button').scrollIntoViewIfNeeded();
    await page.getByTestId('run-button').click();
    const crop = page.getByRole('img', { name: 'Crop', exact: true });
    await expect(crop).toBeVisible({ timeout: 110_000 });
    // The whole crop can be brought into the window: inside the screen's width, none of it hidden by a parent.
    await crop.scrollIntoViewIfNeeded();
    await expect(crop).toBeInViewport({ ratio: 1 });
    const shown = await crop.evaluate((el: HTMLImageElement) => {
      const r = el.getBoundingClientRect();
      // The picture inside the box (object-contain) and every clipping ancestor's box.
      const k = Math.min(r.width / el.naturalWidth, r.height / el.naturalHeight);
      const pic = { w: el.naturalWidth * k, h: el.naturalHeight * k };
      let clipped = false;
      for (let p = el.parentElement; p; p = p.parentElement) {
        const s = getComputedStyle(p);
        if (s.overflow === 'visible') continue;
        const b = p.getBoundingClientRect();
        if (r.left < b.left - 1 || r.right > b.right + 1 || (s.overflowY === 'hidden' && (r.top < b.top - 1 || r.bottom > b.bottom + 1))) clipped = true;
      }
      return { ...pic, clipped, right: r.right };
    });
    expect(shown.clipped).toBe(false);
    expect(shown.right).toBeLessThanOrEqual(390);
    expect(shown.w).toBeGreaterThan(250);
    expect(shown.h).toBeGreaterThan(140);
    const caption = page.getByText(/^Crop · 910×512 px/);
    await caption.scrollIntoViewIfNeeded();
    await expect(caption).toBeInViewport();
  });
});

test('layout: with seven apparel results nothing is drawn over the gallery strip, at 1280×720, 1024×768 and on a phone', async ({ page }) => {
  const items = [await sevenClasses(), ...(await cupItems(3)).map((it) => ({ ...it, minutesAgo: 5 }))];
  for (const [width, height] of [[1280, 720], [1024, 768], [390, 844]]) {
    await page.setViewportSize({ width, height });
    await openStudio(page, items, 'look');
    await expect(page.getByRole('tablist', { name: 'Results' }).getByRole('tab')).toHaveCount(7);
    const strip = page.getByRole('list', { name: 'Gallery items' });
    await strip.scrollIntoViewIfNeeded();
    // Nothing of the stage is drawn below its own area, onto the strip: each element's box, cut by the boxes
    // of the ancestors that clip it, ends above the strip's top edge.
    const below = await page.evaluate(() => {
      const stage = document.querySelector('section[aria-label="Selected result"]')!;
      const stripTop = document.querySelector('ul[aria-label="Gallery items"]')!.parentElement!.parentElement!.getBoundingClientRect().top;
      const out: string[] = [];
      for (const el of stage.querySelectorAll('*')) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        let bottom = r.bottom;
        let top = r.top;
        for (let p = el.parentElement; p; p = p.parentElement) {
          if (getComputedStyle(p).overflowY === 'visible') continue;
          const b = p.getBoundingClientRect();
          bottom = Math.min(bottom, b.bottom);
          top = Math.max(top, b.top);
        }
        if (bottom > top && bottom > stripTop + 1) out.push(`${el.tagName}.${String(el.className).slice(0, 40)} to ${Math.round(bottom)} > ${Math.round(stripTop)}`);
      }
      return out;
    });
    expect(below, `${width}x${height}`).toEqual([]);
    const spill = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(spill, `${width}x${height}`).toBeLessThanOrEqual(0);
    // The viewer keeps a usable size, and the grid shows every class large.
    const viewer = page.getByTestId('before-after');
    await viewer.scrollIntoViewIfNeeded();
    expect((await viewer.boundingBox())!.height, `${width}x${height}`).toBeGreaterThanOrEqual(180);
    await page.getByRole('radio', { name: 'All 7 large' }).click();
    const first = page.getByRole('list', { name: 'All results' }).getByTestId('grid-image').first();
    await first.scrollIntoViewIfNeeded();
    expect((await first.boundingBox())!.height, `${width}x${height}`).toBeGreaterThanOrEqual(240);
  }
});

test('text contrast is at least 4.5:1 in the empty studio, on a result, in the grid, the comparison and the selection', async ({ page }) => {
  await page.goto('/#commodity-background-removal');
  await expect(page.getByText('Results appear here')).toBeVisible();
  const low = async (state: string) => {
    // Buttons fade between their disabled and enabled colours: read them once settled.
    await page.waitForTimeout(400);
    return { state, low: (await page.evaluate(contrastScan)) as { text: string; ratio: number }[] };
  };
  const found = [await low('empty')];
  await seedGallery(page, [await sevenClasses(), ...(await cupItems(2)).map((it) => ({ ...it, minutesAgo: 5 }))], 'look');
  await expect(page.getByTestId('before-after')).toBeVisible();
  found.push(await low('apparel result'));
  await page.getByRole('radio', { name: 'All 7 large' }).click();
  found.push(await low('grid'));
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  await cards(page).nth(1).getByRole('button').click();
  await cards(page).nth(2).getByRole('button').click();
  found.push(await low('selecting'));
  await page.getByRole('button', { name: 'Compare' }).click();
  await expect(page.getByRole('region', { name: 'Comparison' })).toBeVisible();
  found.push(await low('comparison'));
  await page.getByRole('button', { name: 'Close comparison' }).click();
  await page.getByRole('region', { name: 'Selected result' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('button', { name: 'Undo' })).toBeVisible();
  found.push(await low('undo'));
  expect(found.filter((f) => f.low.length > 0)).toEqual([]);
});
