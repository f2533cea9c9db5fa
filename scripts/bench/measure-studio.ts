/**
 * `npm run measure:studio [-- OUT_DIR]`: the studio driven like a user in Debian's Chromium, on a fresh studio
 * and engine. Prints initial JS (gzip), first paint and time to interactive, drop-to-result times for a product
 * photo and a 4032×3024 phone photo (fitted in the browser first), the cutout editor's opening and full-size
 * download on that photo's result, 200-item gallery load, text contrast; and screenshots every state at 1440×900 and 390×844 into OUT_DIR (default test-results/studio-shots).
 * Figures only, no thresholds: a loaded shared machine moves them.
 */
import { chromium, type Page } from '@playwright/test';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { contrastScan } from '../../e2e/contrast-scan.ts';
import { writeGallery, type SeedItem } from '../../e2e/studio-gallery-seed.ts';

const root = path.join(import.meta.dirname, '../..');
const out = path.resolve(process.argv[2] ?? path.join(root, 'test-results/studio-shots'));
fs.mkdirSync(out, { recursive: true });
// Ports of its own (overridable, as the browser tests' are, so that two checkouts can measure side by side).
const studioPort = Number(process.env.ATELIER_E2E_STUDIO_PORT ?? 4297);
const enginePort = process.env.ATELIER_E2E_ENGINE_PORT ?? '8897';
const base = `http://127.0.0.1:${studioPort}`;
const cup = path.join(root, 'engine/test/fixtures/product_coffee_cup.png');
const portrait = path.join(root, 'engine/test/fixtures/obama_official_portrait.jpg');

const only = process.env.MEASURE_ONLY?.split(',');
const want = (part: string) => !only || only.includes(part);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

// 1. Build, and the initial JS: every script and modulepreload of index.html, gzipped.
spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
const html = fs.readFileSync(path.join(root, 'dist/index.html'), 'utf8');
const scripts = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
const jsGzip = scripts.reduce((sum, f) => sum + zlib.gzipSync(fs.readFileSync(path.join(root, 'dist', f))).length, 0);
console.log(`initial JS: ${scripts.length} file(s), ${(jsGzip / 1024).toFixed(1)} KB gzip (target ≤ 200 KB)`);

// 2. A studio and engine of its own.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atelier-measure-'));
const server = spawn('npx', ['tsx', 'scripts/dev/start.ts'], {
  cwd: root,
  env: { ...process.env, ATELIER_DATA_DIR: dataDir, ATELIER_ENGINE_PORT: enginePort, ATELIER_STUDIO_PORT: String(studioPort), ATELIER_WORKERS: '1' },
  stdio: 'ignore',
  // Its own process group: npx starts tsx, which starts node; all of them go when this script ends.
  detached: true,
});
const stop = () => {
  try {
    process.kill(-server.pid!, 'SIGTERM');
  } catch {
    // already gone
  }
};
process.on('exit', stop);
for (let i = 0; ; i++) {
  const ok = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
  if (ok) break;
  if (i > 240) throw new Error('The studio did not start in 120 s.');
  await new Promise((r) => setTimeout(r, 500));
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const phone = await sharp(cup).flatten({ background: '#e8e4dc' }).resize(4032, 3024, { fit: 'contain', background: '#e8e4dc' }).jpeg({ quality: 88 }).toBuffer();
const product = fs.readFileSync(cup);

async function drop(page: Page, files: { name: string; type: string; bytes: Buffer }[]) {
  const dt = await page.evaluateHandle((list) => {
    const d = new DataTransfer();
    for (const f of list) d.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name, { type: f.type }));
    return d;
  }, files.map((f) => ({ name: f.name, type: f.type, b64: f.bytes.toString('base64') })));
  const target = page.getByRole('region', { name: 'Gallery', exact: true });
  await page.evaluate(() => ((window as unknown as { t0: number }).t0 = performance.now()));
  await target.dispatchEvent('dragover', { dataTransfer: dt });
  await target.dispatchEvent('drop', { dataTransfer: dt });
}

/** From the drop to the result image decoded on the stage (run on drop is on). */
async function dropToResult(page: Page, name: string, type: string, bytes: Buffer): Promise<number> {
  const before = await page.getByRole('list', { name: 'Gallery items' }).getByRole('button').count().catch(() => 0);
  await drop(page, [{ name, type, bytes }]);
  await page.getByRole('list', { name: 'Gallery items' }).getByRole('button').nth(before).waitFor({ timeout: 120_000 });
  return page.evaluate(async () => {
    for (;;) {
      // (the stage header says "took N s": the run as the gallery recorded it, answer and result download included)
      const img = document.querySelector<HTMLImageElement>('[data-testid="after-layer"] img[alt="After"]');
      const pending = document.querySelector('[data-testid="stage-progress"]');
      if (img && img.complete && img.naturalWidth > 0 && !pending) return performance.now() - (window as unknown as { t0: number }).t0;
      await new Promise((r) => setTimeout(r, 10));
    }
  });
}

// 3. First paint and time to interactive (the drop box answers), at 1440×900, cold cache.
const loads: { fcp: number; tti: number }[] = [];
if (want('load')) {
for (let i = 0; i < 3; i++) {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(`${base}/#commodity-background-removal`);
  await page.getByRole('button', { name: /drop a photo here or click to browse/ }).waitFor();
  loads.push(await page.evaluate(() => ({ fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN, tti: performance.now() })));
  await ctx.close();
}
}
if (want('load')) console.log(`first contentful paint: median ${s(median(loads.map((l) => l.fcp)))}; interactive (drop box ready): median ${s(median(loads.map((l) => l.tti)))} over 3 cold loads`);

// 4. Drop → result on screen, product photo and phone photo, with run on drop.
if (want('run')) {
const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
const page = await ctx.newPage();
await page.goto(`${base}/#commodity-background-removal`);
await page.getByRole('switch', { name: 'Run on drop' }).click();
const cold = await dropToResult(page, 'coffee-cup.png', 'image/png', product);
const productTimes: number[] = [];
const phoneTimes: number[] = [];
for (let i = 0; i < 3; i++) {
  productTimes.push(await dropToResult(page, `cup-${i}.png`, 'image/png', product));
  phoneTimes.push(await dropToResult(page, `phone-${i}.jpg`, 'image/jpeg', phone));
}
console.log(`drop → result, product photo ${(await sharp(product).metadata()).width}×${(await sharp(product).metadata()).height} PNG: first (model loading) ${s(cold)}, then median ${s(median(productTimes))} (${productTimes.map(s).join(', ')})`);
console.log(`drop → result, 4032×3024 phone JPEG (fitted to 1999×1499 in the browser): median ${s(median(phoneTimes))} (${phoneTimes.map(s).join(', ')})`);
await ctx.close();
// The same photos posted straight through the proxy (no browser): what of the time is the engine's.
const direct = async (bytes: Buffer, name: string, type: string) => {
  const fd = new FormData();
  fd.append('image', new Blob([new Uint8Array(bytes)], { type }), name);
  const t0 = performance.now();
  const res = await fetch(`${base}/api/cutout/general/commodity-background-removal`, { method: 'POST', body: fd });
  const body = (await res.json()) as { data?: { image_url?: string } };
  if (body.data?.image_url) await (await fetch(new URL(new URL(body.data.image_url).pathname, base))).arrayBuffer();
  return performance.now() - t0;
};
const fittedPhone = await sharp(phone).resize(1999, 1499).jpeg({ quality: 92 }).toBuffer();
const directProduct: number[] = [];
const directPhone: number[] = [];
for (let i = 0; i < 3; i++) {
  directProduct.push(await direct(product, 'cup.png', 'image/png'));
  directPhone.push(await direct(fittedPhone, 'phone.jpg', 'image/jpeg'));
}
console.log(`the same requests without a browser (POST through the proxy + result download): product median ${s(median(directProduct))}, 1999×1499 phone median ${s(median(directPhone))}`);
}

// 4b. The cutout editor on a phone photo's result: opening it (its chunk fetched, the photos decoded), and
// a full-size download composed in the browser (4032×3024, a colour behind, a soft shadow), with its size.
if (want('editor')) {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  const page = await ctx.newPage();
  await page.goto(`${base}/#commodity-background-removal`);
  await page.getByRole('switch', { name: 'Run on drop' }).click();
  await dropToResult(page, 'phone.jpg', 'image/jpeg', phone);
  const opens: number[] = [];
  const downloads: number[] = [];
  let size = '';
  for (let i = 0; i < 3; i++) {
    const t0 = Date.now();
    await page.getByRole('button', { name: 'Edit cutout' }).click();
    await page.getByTestId('editor-size').getByText(/Downloads at/).waitFor({ timeout: 60_000 });
    opens.push(Date.now() - t0);
    await page.getByRole('radio', { name: 'Colour' }).click();
    await page.getByRole('switch', { name: 'Soft shadow' }).click();
    const t1 = Date.now();
    const [file] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), page.getByRole('button', { name: 'Download full size' }).click()]);
    const saved = path.join(os.tmpdir(), `atelier-measure-edit-${i}.png`);
    await file.saveAs(saved);
    downloads.push(Date.now() - t1);
    const meta = await sharp(saved).metadata();
    size = `${meta.width}×${meta.height}, ${(fs.statSync(saved).size / 1024 / 1024).toFixed(1)} MB PNG`;
    fs.rmSync(saved);
    await page.getByRole('button', { name: 'Close editor' }).click();
  }
  console.log(`cutout editor on the phone photo's result: open median ${s(median(opens))} (${opens.map(s).join(', ')}); full-size download (colour + shadow) median ${s(median(downloads))} (${downloads.map(s).join(', ')}); output ${size}`);
  await ctx.close();
}

// 5. Screenshots of every state, wide and phone.
async function shots(width: number, height: number, tag: string) {
  const c = await browser.newContext({ viewport: { width, height } });
  const p = await c.newPage();
  const shot = async (name: string) => {
    await p.screenshot({ path: path.join(out, `${tag}-${name}.png`) });
    // Every state's text against its background, as the 200-item page's below.
    const low = (await p.evaluate(contrastScan)) as { text: string; ratio: number }[];
    if (low.length) lowContrast.push(`${tag}-${name}: ${low.slice(0, 4).map((l) => `"${l.text}" ${l.ratio}`).join('; ')}`);
  };
  await p.goto(`${base}/#commodity-background-removal`);
  await p.getByRole('button', { name: /drop a photo here/ }).waitFor();
  await shot('01-empty');
  await drop(p, [{ name: 'phone.jpg', type: 'image/jpeg', bytes: phone }]);
  await p.getByTestId('fit-note').waitFor({ timeout: 30_000 });
  await shot('02-photo-fitted');
  // A photo dragged over the page: the drop-anywhere veil.
  const dragged = await p.evaluateHandle(() => {
    const d = new DataTransfer();
    d.items.add(new File([new Uint8Array(8)], 'x.png', { type: 'image/png' }));
    return d;
  });
  await p.getByRole('region', { name: 'Gallery', exact: true }).dispatchEvent('dragover', { dataTransfer: dragged });
  await shot('02b-drag-over');
  await p.getByRole('region', { name: 'Gallery', exact: true }).dispatchEvent('drop', { dataTransfer: await p.evaluateHandle(() => new DataTransfer()) });
  // Hold the answer a moment so the running state can be seen.
  await p.route('**/api/cutout/**', async (route) => {
    await new Promise((r) => setTimeout(r, 2500));
    await route.continue();
  });
  await p.getByTestId('run-button').click();
  await p.getByTestId('stage-progress').waitFor();
  await p.waitForTimeout(1200);
  await shot('03-running');
  await p.getByTestId('before-after').waitFor({ timeout: 120_000 });
  await p.waitForTimeout(500);
  await shot('04-result');
  await p.unroute('**/api/cutout/**');
  await p.getByRole('radio', { name: 'Trimmed' }).click();
  await p.keyboard.press('Control+Enter');
  await p.getByTestId('stage-progress').waitFor();
  await p.getByTestId('before-after').waitFor({ timeout: 120_000 });
  await p.waitForTimeout(1500);
  await shot('05-trimmed-aligned');
  await p.getByRole('group', { name: 'Background' }).getByRole('button', { name: 'Black' }).click();
  const box = (await p.getByTestId('before-after').boundingBox())!;
  await p.getByTestId('before-after').dblclick({ position: { x: box.width * 0.5, y: box.height * 0.45 } });
  await p.waitForTimeout(300);
  await shot('06-zoom-100-black');
  await p.getByRole('button', { name: 'Developer view' }).click();
  await shot('07-developer-view');
  await p.getByRole('button', { name: 'Developer view' }).click();
  await p.route('**/api/cutout/**', (route) => route.fulfill({ status: 500, body: 'Internal Server Error' }));
  await p.getByTestId('run-button').click();
  await p.getByRole('button', { name: 'Retry' }).first().waitFor();
  await shot('08-error-retry');
  await p.unroute('**/api/cutout/**');
  await drop(p, ['a', 'b', 'c'].map((n) => ({ name: `${n}.png`, type: 'image/png', bytes: product })));
  await p.getByRole('region', { name: 'Batch' }).waitFor();
  await p.waitForTimeout(1500);
  await shot('09-batch');
  await p.locator('[data-testid="batch-row"][data-state="done"]').nth(2).waitFor({ state: 'attached', timeout: 120_000 });
  await shot('10-batch-done');
  await p.getByRole('button', { name: 'Close', exact: true }).click();
  await p.getByRole('button', { name: 'Select', exact: true }).click();
  const cards = p.getByRole('list', { name: 'Gallery items' }).getByRole('button');
  // Newest first: c, b, a (the batch), the failed run, the trimmed cutout, the first cutout.
  await cards.nth(0).click();
  await cards.nth(4).click();
  await shot('11a-selecting');
  await p.getByRole('button', { name: 'Compare' }).click();
  await p.waitForTimeout(800);
  await shot('11b-compare');
  const left = p.getByRole('region', { name: 'Comparison' }).getByTestId('before-after').first();
  const lb = (await left.boundingBox())!;
  await p.mouse.move(lb.x + lb.width * 0.5, lb.y + lb.height * 0.5);
  await p.mouse.wheel(0, -500);
  await p.waitForTimeout(300);
  await shot('11c-compare-zoomed');
  await p.getByRole('button', { name: 'Close comparison' }).click();
  await cards.nth(3).click();
  await p.getByRole('region', { name: 'Selected result' }).getByRole('button', { name: 'Delete' }).click();
  await p.getByRole('button', { name: 'Undo' }).waitFor();
  await shot('11d-deleted-undo');
  await p.getByRole('button', { name: 'Undo' }).click();
  // Apparel: many class results.
  await p.goto(`${base}/#apparel-background-removal`);
  await p.getByRole('heading', { level: 1, name: 'Apparel background removal' }).waitFor();
  const person = fs.readFileSync(portrait);
  await drop(p, [{ name: 'portrait.jpg', type: 'image/jpeg', bytes: person }]);
  await p.getByText('Fits the limits').waitFor();
  const classes = p.getByRole('group', { name: 'Garment classes' });
  for (const c of ['coat', 'pants', 'bag', 'shoes', 'hat']) await classes.getByRole('button', { name: c, exact: true }).click();
  await p.getByTestId('run-button').click();
  await p.getByRole('tablist', { name: 'Results' }).waitFor({ timeout: 120_000 });
  await p.waitForTimeout(800);
  await shot('12a-apparel-classes');
  await p.getByRole('radio', { name: /^All \d+ large$/ }).click();
  await p.waitForTimeout(500);
  await shot('12b-apparel-grid');
  await p.getByRole('list', { name: 'All results' }).getByRole('button').nth(1).click();
  await p.waitForTimeout(500);
  await shot('12c-apparel-one-opened');
  // Smart crop of the portrait to 16:9.
  await p.goto(`${base}/#image-cropping`);
  await p.getByRole('heading', { level: 1, name: 'Smart crop' }).waitFor();
  await drop(p, [{ name: 'portrait.jpg', type: 'image/jpeg', bytes: person }]);
  await p.getByText('Fits the limits').waitFor();
  await p.getByRole('button', { name: /^16:9 Widescreen/ }).click();
  await p.getByTestId('run-button').click();
  await p.getByRole('img', { name: 'Crop', exact: true }).waitFor({ timeout: 120_000 });
  await p.waitForTimeout(1000);
  await shot('12d-crop');
  await p.route('**/healthz', (route) => route.fulfill({ status: 502, body: 'Bad Gateway' }));
  await p.reload();
  await p.getByRole('heading', { name: 'The engine is not answering' }).waitFor();
  await shot('13-engine-down');
  await c.close();
}
const lowContrast: string[] = [];
if (want('shots')) {
  await shots(1440, 900, 'wide');
  await shots(390, 844, 'phone');
  console.log(`screenshots with text below 4.5:1: ${lowContrast.length}${lowContrast.length ? `\n  ${lowContrast.join('\n  ')}` : ''}`);
}

// 6. Layout at other sizes: horizontal spill, and whether the stage overlaps the gallery strip.
for (const [w, h] of want('layout') ? [[1280, 720], [1024, 768]] : []) {
  const c = await browser.newContext({ viewport: { width: w, height: h } });
  const p = await c.newPage();
  await p.goto(`${base}/#apparel-background-removal`);
  await p.getByRole('main').waitFor();
  const spill = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  await p.screenshot({ path: path.join(out, `${w}x${h}-apparel.png`) });
  console.log(`${w}×${h}: horizontal spill ${spill} px`);
  await c.close();
}

// 7. Gallery with 200 items (seeded in IndexedDB as the studio stores them), and text contrast.
if (want('gallery')) {
  const c = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const p = await c.newPage();
  await p.goto(`${base}/`);
  await p.getByRole('main').waitFor();
  const thumb = await sharp(cup).resize(200).png().toBuffer();
  const image = (label: string, name?: string) => ({ label, type: 'image/png', bytes: thumb, name });
  await writeGallery(p, Array.from({ length: 200 }, (_, i): SeedItem => ({
    id: `seed-${i}`, slug: i % 2 ? 'commodity-background-removal' : 'image-cropping', params: i % 2 ? { return_form: 'whiteBK' } : { width: '910', height: '512' },
    before: image('Before', `photo-${i}.png`), afters: [image('Result')], minutesAgo: i,
  })));
  const t0 = Date.now();
  await p.reload();
  await p.locator('[data-testid="gallery-item"]').nth(199).waitFor({ state: 'attached' });
  const shown = Date.now() - t0;
  const strip = p.getByRole('list', { name: 'Gallery items' });
  const sb = (await strip.boundingBox())!;
  await p.mouse.move(sb.x + sb.width / 2, sb.y + sb.height / 2);
  const t1 = Date.now();
  for (let i = 0; i < 10; i++) await p.mouse.wheel(0, 400);
  await p.waitForTimeout(200);
  const scrolled = await strip.evaluate((el) => el.scrollLeft);
  console.log(`gallery of 200 items: reload to all 200 cards in ${s(shown)}; 10 wheel notches scrolled the strip ${scrolled} px in ${s(Date.now() - t1)}`);
  await p.screenshot({ path: path.join(out, 'wide-14-gallery-200.png') });

  // Contrast: every element with its own text against the first opaque background behind it.
  const low = (await p.evaluate(contrastScan)) as { text: string; ratio: number }[];
  console.log(`text below 4.5:1 contrast on the 200-item page: ${low.length}${low.length ? ` (${low.slice(0, 8).map((l) => `"${l.text}" ${l.ratio}`).join('; ')})` : ''}`);
  await c.close();
}

await browser.close();
stop();
console.log(`load average during the run: ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} on ${os.cpus().length} cores (shared machine)`);
console.log(`screenshots: ${out}`);
process.exit(0);
