/**
 * Results at the photo's own size on the default engine (issue 37, item 1): a 4032×3024 phone photo is fitted
 * to 1999×1499 for the engine, and the stage's Download gives the result at 4032×3024 anyway. Each test drops
 * the photo, runs, downloads from the stage and reads the file's own pixels (sharp).
 * The photos carry a fine checkerboard (±12, one pixel a square) that the 1999 px copy cannot hold: where the
 * download matches the original pixel for pixel, it was made from the original, not enlarged from the engine's.
 * Public-domain fixtures (engine/test/fixtures/SOURCES.md). On a loaded machine run it with a longer engine
 * budget (ATELIER_SYNC_TIMEOUT_MS, ATELIER_REQUEST_TIMEOUT_MS): the 1999 px runs take minutes under load 20.
 */
import { expect, test, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const fixtures = path.join(import.meta.dirname, '../engine/test/fixtures');
const shots = process.env.ATELIER_SHOTS_DIR ?? 'test-results';

interface Decoded { data: Buffer; width: number; height: number }

/** The photo `file` drawn into a w×h frame (contain, on a plain backdrop) with a checkerboard of `cell` px squares over it. */
async function phonePhoto(file: string, w: number, h: number, cell = 1): Promise<{ jpeg: Buffer; pixels: Decoded }> {
  const { data } = await sharp(file).flatten({ background: '#e8e4dc' }).resize(w, h, { fit: 'contain', background: '#e8e4dc' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const d = (Math.floor(x / cell) + Math.floor(y / cell)) % 2 ? 12 : -12;
      const i = (y * w + x) * 3;
      for (let c = 0; c < 3; c++) data[i + c] = Math.min(255, Math.max(0, data[i + c] + d));
    }
  }
  const jpeg = await sharp(data, { raw: { width: w, height: h, channels: 3 } }).jpeg({ quality: 95, chromaSubsampling: '4:4:4' }).toBuffer();
  // The original as the browser will decode it.
  return { jpeg, pixels: await decode(jpeg) };
}

async function decode(input: Buffer | string): Promise<Decoded> {
  const { data, info } = await sharp(input).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

async function drop(page: Page, jpeg: Buffer, name: string) {
  const dataTransfer = await page.evaluateHandle(([b64, n]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], n, { type: 'image/jpeg' }));
    return dt;
  }, [jpeg.toString('base64'), name] as const);
  const zone = page.locator('[data-testid^="dropzone-"]').first();
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
}

async function open(page: Page, hash: string, title: string) {
  await page.goto(`/#${hash}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

async function runAndDownload(page: Page, name: string): Promise<Decoded> {
  await page.getByTestId('run-button').click();
  await expect(page.getByText(/Done in .*The result is in the gallery/)).toBeVisible({ timeout: 380_000 });
  const stage = page.getByRole('region', { name: 'Selected result' });
  const [file] = await Promise.all([page.waitForEvent('download', { timeout: 90_000 }), stage.getByRole('link', { name: 'Download' }).click()]);
  const saved = path.join(shots, name);
  await file.saveAs(saved);
  const out = await decode(saved);
  fs.rmSync(saved);
  return out;
}

/** Mean absolute difference (RGB) of two pictures of the same size over the pixels `where` picks. */
function mae(a: Decoded, b: Decoded, where: (x: number, y: number) => boolean, step = 1) {
  let sum = 0, n = 0;
  for (let y = 0; y < a.height; y += step) {
    for (let x = 0; x < a.width; x += step) {
      if (!where(x, y)) continue;
      const i = (y * a.width + x) * 4;
      sum += (Math.abs(a.data[i] - b.data[i]) + Math.abs(a.data[i + 1] - b.data[i + 1]) + Math.abs(a.data[i + 2] - b.data[i + 2])) / 3;
      n++;
    }
  }
  return { mae: n ? sum / n : NaN, n };
}

const alpha = (img: Decoded, x: number, y: number) => img.data[(y * img.width + x) * 4 + 3];

test('product cutout: the stage downloads the cutout at 4032×3024, the subject in the original pixels', async ({ page }) => {
  test.setTimeout(480_000);
  const photo = await phonePhoto(path.join(fixtures, 'product_coffee_cup.png'), 4032, 3024);
  await open(page, 'commodity-background-removal', 'Product background removal');
  await drop(page, photo.jpeg, 'phone.jpg');
  await expect(page.getByTestId('fit-note')).toHaveText('Resized from 4032×3024 to 1999×1499 to fit this effect.', { timeout: 30_000 });
  await expect(page.getByTestId('size-note')).toContainText('comes back at your photo’s own 4032 × 3024');
  const out = await runAndDownload(page, 'cutout.png');
  expect([out.width, out.height]).toEqual([4032, 3024]);
  // Transparent around, opaque inside; inside, the checkerboard is there pixel for pixel.
  expect(alpha(out, 20, 20)).toBeLessThan(10);
  const inside = mae(out, photo.pixels, (x, y) => alpha(out, x, y) === 255, 3);
  const opaqueShare = inside.n / ((4032 / 3) * (3024 / 3));
  console.log(`product cutout: ${(100 * opaqueShare).toFixed(1)} % opaque; MAE against the original there ${inside.mae.toFixed(2)}`);
  expect(opaqueShare).toBeGreaterThan(0.05);
  expect(inside.mae).toBeLessThan(4);
});

test('face beauty: the stage downloads the edit at 3024×4032, the untouched parts the original pixels', async ({ page }) => {
  test.setTimeout(480_000);
  const photo = await phonePhoto(path.join(fixtures, 'obama_official_portrait.jpg'), 3024, 4032);
  await open(page, 'face-beauty', 'Face beauty');
  await drop(page, photo.jpeg, 'phone-portrait.jpg');
  await expect(page.getByTestId('fit-note')).toHaveText('Resized from 3024×4032 to 1499×1999 to fit this effect.', { timeout: 30_000 });
  await page.getByRole('slider', { name: 'Brighten skin' }).fill('0.8');
  const out = await runAndDownload(page, 'beauty.jpg');
  expect([out.width, out.height]).toEqual([3024, 4032]);
  // Where the engine changed the colours by a clear amount, and everywhere else.
  let edited = 0;
  const changed = (x: number, y: number) => {
    const i = (y * out.width + x) * 4;
    return Math.max(Math.abs(out.data[i] - photo.pixels.data[i]), Math.abs(out.data[i + 1] - photo.pixels.data[i + 1]), Math.abs(out.data[i + 2] - photo.pixels.data[i + 2])) > 12;
  };
  for (let y = 0; y < out.height; y += 4) for (let x = 0; x < out.width; x += 4) if (changed(x, y)) edited++;
  const share = edited / ((out.width / 4) * (out.height / 4));
  // The top band is the backdrop and the top of the frame: no face there.
  const untouched = mae(out, photo.pixels, (_x, y) => y < 300, 2);
  console.log(`face beauty: ${(100 * share).toFixed(1)} % of the photo brightened; MAE against the original in the top band ${untouched.mae.toFixed(2)}`);
  // The face's skin is a few % of this frame, and brightening moves most of it by less than 12 (0.3 % measured).
  expect(share).toBeGreaterThan(0.001);
  expect(share).toBeLessThan(0.5);
  // The checkerboard survives: JPEG re-encoding alone (an enlargement would be off by about 12 everywhere).
  expect(untouched.mae).toBeLessThan(4);
});

test('smart crop: the window is cut from the 4032×3024 original, not enlarged from the fitted copy', async ({ page }) => {
  test.setTimeout(480_000);
  // Squares of 8 px: 5 px in the 1080×1920 crop, crisp from the original, soft from the fitted copy's 4 px.
  const photo = await phonePhoto(path.join(fixtures, 'obama_official_portrait.jpg'), 4032, 3024, 8);
  await open(page, 'image-cropping', 'Smart crop');
  await drop(page, photo.jpeg, 'phone-wide.jpg');
  await expect(page.getByTestId('fit-note')).toHaveText('Resized from 4032×3024 to 1999×1499 to fit this effect.', { timeout: 30_000 });
  await page.getByLabel('Width value').fill('1080');
  await page.getByLabel('Height value').fill('1920');
  await page.getByLabel('Height value').blur();
  const out = await runAndDownload(page, 'crop.jpg');
  expect([out.width, out.height]).toEqual([1080, 1920]);
  const label = await page.getByTestId('retain-label').textContent();
  const m = /^x (\d+) · y (\d+) · (\d+)×(\d+)$/.exec(label ?? '');
  expect(m, label ?? '').not.toBeNull();
  const [x, y, w, h] = m!.slice(1).map(Number);
  const k = 4032 / 1999, ky = 3024 / 1499;
  const box = { left: Math.round(x * k), top: Math.round(y * ky), width: Math.round(w * k), height: Math.round(h * ky) };
  box.width = Math.min(box.width, 4032 - box.left);
  box.height = Math.min(box.height, 3024 - box.top);
  // A 9:16 window of a 4:3 photo is the photo's whole height: about 1700×3024 of the original's pixels.
  expect(box.height).toBeGreaterThan(2990);
  const expected = await decode(await sharp(photo.jpeg).extract(box).resize(1080, 1920, { fit: 'fill' }).png().toBuffer());
  const studio = mae(out, expected, () => true, 2);
  // The engine's own answer (the fitted copy's window enlarged), as the stage shows it.
  const engineB64 = await page.getByRole('img', { name: 'Crop', exact: true }).evaluate(async (img: HTMLImageElement) => {
    const buf = new Uint8Array(await (await fetch(img.src)).arrayBuffer());
    let s = '';
    for (let i = 0; i < buf.length; i += 0x8000) s += String.fromCharCode(...buf.subarray(i, i + 0x8000));
    return btoa(s);
  });
  const engine = mae(await decode(Buffer.from(engineB64, 'base64')), expected, () => true, 2);
  console.log(`smart crop: window ${box.width}×${box.height} at ${box.left},${box.top} of the original; MAE against it scaled to 1080×1920: download ${studio.mae.toFixed(2)}, engine's ${engine.mae.toFixed(2)}`);
  expect(studio.mae).toBeLessThan(engine.mae);
  expect(studio.mae).toBeLessThan(3);
});

test('the panel says what size the result comes back at (1440×900 and 390×844)', async ({ page }) => {
  test.setTimeout(240_000);
  const photo = await phonePhoto(path.join(fixtures, 'product_coffee_cup.png'), 4032, 3024);
  for (const [width, height, name] of [[1440, 900, 'desktop'], [390, 844, 'phone']] as const) {
    await page.setViewportSize({ width, height });
    await open(page, 'commodity-background-removal', 'Product background removal');
    await drop(page, photo.jpeg, 'phone.jpg');
    // The panel keeps its options between visits: back to the transparent cutout.
    await page.getByRole('radio', { name: 'Transparent' }).click();
    const note = page.getByTestId('size-note');
    await expect(note).toHaveText('The engine works on the 1999 × 1499 copy; the download comes back at your photo’s own 4032 × 3024.', { timeout: 60_000 });
    await note.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shots, `size-note-full-${name}.png`) });
    // On white there is no transparency to carry over: the result stays at the copy's size, and the panel says why.
    await page.getByRole('radio', { name: 'On white' }).click();
    await expect(note).toHaveText('The engine works on a 1999 × 1499 copy of your 4032 × 3024 photo, and a product on white has no transparency the studio could carry over.');
    // The notice names each size once: the title says what happened, the body gives the figures.
    const notice = page.getByRole('status').filter({ has: note });
    await expect(notice).toContainText('The download is smaller than your photo');
    expect((await notice.innerText()).split('1999 × 1499').length - 1).toBe(1);
    await note.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shots, `size-note-engine-${name}.png`) });
  }
});
