/**
 * Correcting a cutout as a designer does (issue 37, item 2): a 4032×3024 phone photo of the product fixture
 * (engine/test/fixtures/SOURCES.md) is fitted to 1999×1499, cut out, then edited in the browser. Every check
 * reads the downloaded PNG's own pixels (decoded with sharp): erased stays erased, restored comes back, undo
 * brings the erase back, a removed piece is gone, a new colour or image is behind the subject, and the file has
 * the original photo's 4032×3024 pixels. Screenshots of each state at 1440×900 and 390×844 go to
 * ATELIER_SHOTS_DIR (default: the test's output folder).
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const cup = path.join(import.meta.dirname, '../engine/test/fixtures/product_coffee_cup.png');
const W = 4032, H = 3024;

const phonePhoto = () =>
  sharp(cup).flatten({ background: '#e8e4dc' }).resize(W, H, { fit: 'contain', background: '#e8e4dc' }).jpeg({ quality: 88 }).toBuffer();

interface Decoded {
  data: Buffer;
  width: number;
  height: number;
}

const alphaAt = (img: Decoded, x: number, y: number) => img.data[(Math.round(y) * img.width + Math.round(x)) * 4 + 3];
const rgbAt = (img: Decoded, x: number, y: number) => {
  const i = (Math.round(y) * img.width + Math.round(x)) * 4;
  return [img.data[i], img.data[i + 1], img.data[i + 2]];
};
const opaqueCount = (img: Decoded) => {
  let n = 0;
  for (let i = 3; i < img.data.length; i += 4) if (img.data[i] > 127) n++;
  return n;
};

/** Every pixel of a square around (x, y), `r` pixels either way, taken by `test`. */
function square(img: Decoded, x: number, y: number, r: number, test: (a: number) => boolean) {
  for (let dy = -r; dy <= r; dy += 4) for (let dx = -r; dx <= r; dx += 4) if (!test(alphaAt(img, x + dx, y + dy))) return false;
  return true;
}

async function download(page: Page, shots: string, name: string): Promise<Decoded> {
  const [file] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByRole('button', { name: 'Download full size' }).click()]);
  const saved = path.join(shots, `${name}.png`);
  await file.saveAs(saved);
  const { data, info } = await sharp(saved).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  fs.rmSync(saved);
  return { data, width: info.width, height: info.height };
}

/** A point of the photo (original pixels) on the screen, over the editor's canvas. */
async function onScreen(canvas: Locator, x: number, y: number) {
  const box = (await canvas.boundingBox())!;
  return { x: box.x + (x / W) * box.width, y: box.y + (y / H) * box.height };
}

async function openEditor(page: Page) {
  await page.goto('/#commodity-background-removal');
  await expect(page.getByRole('heading', { level: 1, name: 'Product background removal' })).toBeVisible();
  const dataTransfer = await page.evaluateHandle((b64) => {
    const dt = new DataTransfer();
    dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], 'phone.jpg', { type: 'image/jpeg' }));
    return dt;
  }, (await phonePhoto()).toString('base64'));
  const zone = page.locator('[data-testid^="dropzone-"]').first();
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
  await expect(page.getByTestId('fit-note')).toHaveText('Resized from 4032×3024 to 1999×1499 to fit this effect.', { timeout: 30_000 });
  await page.getByTestId('run-button').click();
  await page.getByRole('button', { name: 'Edit cutout' }).click({ timeout: 180_000 });
  const canvas = page.getByTestId('cutout-canvas');
  await expect(canvas).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('editor-size')).toHaveText(`Downloads at ${W} × ${H}, the photo's own size (edited at 1999 × 1499).`);
  return canvas;
}

/** A point deep inside the cutout (a solid square of it around), and a corner of the frame outside it. */
function findInside(img: Decoded): { x: number; y: number } {
  let best: { x: number; y: number } | undefined;
  let sx = 0, sy = 0, n = 0;
  for (let y = 0; y < img.height; y += 16) for (let x = 0; x < img.width; x += 16) if (alphaAt(img, x, y) === 255) { sx += x; sy += y; n++; }
  expect(n, 'the engine cut something out').toBeGreaterThan(100);
  // The solid point nearest the cutout's centre of mass.
  const cx = sx / n, cy = sy / n;
  let bestD = Infinity;
  for (let y = 200; y < img.height - 200; y += 24) {
    for (let x = 200; x < img.width - 200; x += 24) {
      const d = Math.hypot(x - cx, y - cy);
      if (d < bestD && square(img, x, y, 160, (a) => a === 255)) { bestD = d; best = { x, y }; }
    }
  }
  expect(best, 'a solid part of the cutout').toBeDefined();
  return best!;
}

test('edit a phone photo cutout: erase, restore, undo, remove a piece, new backgrounds, all at 4032×3024', async ({ page }, testInfo) => {
  test.setTimeout(420_000);
  const shots = process.env.ATELIER_SHOTS_DIR ?? testInfo.outputPath();
  fs.mkdirSync(shots, { recursive: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  const canvas = await openEditor(page);
  await page.screenshot({ path: path.join(shots, 'desktop-1-editor-open.png') });

  const plain = await download(page, shots, 'plain');
  expect([plain.width, plain.height]).toEqual([W, H]);
  const inside = findInside(plain);
  expect(alphaAt(plain, 8, 8)).toBeLessThan(8);
  const all = opaqueCount(plain);

  // Erase: one dab of the brush on the subject; 50 screen px across the brush is well over 160 photo px.
  await page.getByRole('slider', { name: 'Brush size' }).fill('50');
  const p = await onScreen(canvas, inside.x, inside.y);
  await page.mouse.move(p.x, p.y);
  await page.mouse.down();
  await page.mouse.move(p.x + 6, p.y, { steps: 3 });
  await page.mouse.up();
  await page.screenshot({ path: path.join(shots, 'desktop-2-erased.png') });
  const erased = await download(page, shots, 'erased');
  expect([erased.width, erased.height]).toEqual([W, H]);
  expect(square(erased, inside.x, inside.y, 80, (a) => a === 0), 'the erased spot is transparent in the download').toBe(true);
  expect(opaqueCount(erased)).toBeGreaterThan(all * 0.5);

  // Restore over the same spot brings it back.
  await page.getByRole('radio', { name: 'Restore' }).click();
  await page.mouse.move(p.x, p.y);
  await page.mouse.down();
  await page.mouse.move(p.x + 6, p.y, { steps: 3 });
  await page.mouse.up();
  const restored = await download(page, shots, 'restored');
  expect(square(restored, inside.x, inside.y, 80, (a) => a === 255), 'the restored spot is opaque again').toBe(true);

  // Undo takes the restore back: erased again.
  await page.getByRole('button', { name: 'Undo' }).click();
  const undone = await download(page, shots, 'undone');
  expect(square(undone, inside.x, inside.y, 80, (a) => a === 0)).toBe(true);
  await page.getByRole('button', { name: 'Redo' }).click();

  // Click to remove: the piece under the click goes, whole.
  await page.getByRole('radio', { name: 'Remove a piece' }).click();
  const q = await onScreen(canvas, inside.x + 260, inside.y);
  expect(alphaAt(restored, inside.x + 260, inside.y)).toBe(255);
  await page.mouse.click(q.x, q.y);
  await page.screenshot({ path: path.join(shots, 'desktop-3-piece-removed.png') });
  const removed = await download(page, shots, 'removed');
  expect(alphaAt(removed, inside.x + 260, inside.y)).toBe(0);
  expect(opaqueCount(removed), 'the piece left with the click').toBeLessThan(all * 0.2);
  await page.getByRole('button', { name: 'Undo' }).click();

  // A new background colour fills the frame behind the subject.
  await page.getByRole('radio', { name: 'Colour' }).click();
  await page.getByLabel('Background colour').fill('#10c040');
  await page.getByRole('switch', { name: 'Soft shadow' }).click();
  await page.screenshot({ path: path.join(shots, 'desktop-4-colour-shadow.png') });
  const coloured = await download(page, shots, 'coloured');
  expect([coloured.width, coloured.height]).toEqual([W, H]);
  expect(alphaAt(coloured, 8, 8)).toBe(255);
  expect(rgbAt(coloured, 8, 8)).toEqual([0x10, 0xc0, 0x40]);
  expect(alphaAt(coloured, inside.x, inside.y)).toBe(255);
  // The subject, not the colour, where it is solid (restored and not removed: undo took the removal back).
  expect(rgbAt(coloured, inside.x + 260, inside.y)).not.toEqual([0x10, 0xc0, 0x40]);

  // An image of one's own as the background.
  const magenta = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#d020b0' } }).png().toBuffer();
  await page.getByRole('radio', { name: 'Image' }).click();
  await page.getByLabel('Background image').setInputFiles({ name: 'backdrop.png', mimeType: 'image/png', buffer: magenta });
  await page.getByRole('switch', { name: 'Soft shadow' }).click();
  await page.screenshot({ path: path.join(shots, 'desktop-5-image.png') });
  const pictured = await download(page, shots, 'pictured');
  for (const [v, want] of rgbAt(pictured, 8, 8).map((v, i) => [v, [0xd0, 0x20, 0xb0][i]])) expect(Math.abs(v - want)).toBeLessThanOrEqual(2);
  expect(alphaAt(pictured, 8, 8)).toBe(255);

  // The photo blurred behind the subject.
  await page.getByRole('radio', { name: 'Blurred photo' }).click();
  await page.screenshot({ path: path.join(shots, 'desktop-6-blurred.png') });
  const blurred = await download(page, shots, 'blurred');
  expect(alphaAt(blurred, 8, 8)).toBe(255);
  expect([blurred.width, blurred.height]).toEqual([W, H]);
});

test('on a phone: the tools reach, a tap of the brush erases, the download is full size', async ({ browser }, testInfo) => {
  test.setTimeout(360_000);
  const shots = process.env.ATELIER_SHOTS_DIR ?? testInfo.outputPath();
  fs.mkdirSync(shots, { recursive: true });
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const canvas = await openEditor(page);
  await canvas.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'phone-1-editor-open.png') });
  for (const name of ['Erase', 'Restore', 'Remove a piece', 'Keep a piece']) {
    const box = (await page.getByRole('radio', { name }).boundingBox())!;
    expect(box.x + box.width, `${name} fits the screen`).toBeLessThanOrEqual(390);
  }
  const plain = await download(page, shots, 'phone-plain');
  expect([plain.width, plain.height]).toEqual([W, H]);
  const inside = findInside(plain);
  await page.getByRole('slider', { name: 'Brush size' }).fill('40');
  const p = await onScreen(canvas, inside.x, inside.y);
  await page.touchscreen.tap(p.x, p.y);
  await page.getByRole('radio', { name: 'Colour' }).click();
  await page.screenshot({ path: path.join(shots, 'phone-2-erased-colour.png') });
  await page.getByRole('button', { name: 'Download full size' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'phone-3-download-bar.png') });
  const erased = await download(page, shots, 'phone-erased');
  expect([erased.width, erased.height]).toEqual([W, H]);
  // On white (the colour's default): the tapped spot shows the background, not the cup.
  expect(rgbAt(erased, inside.x, inside.y)).toEqual([255, 255, 255]);
  await context.close();
});
