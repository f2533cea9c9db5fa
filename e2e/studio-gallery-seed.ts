/**
 * Fills the studio's gallery as earlier runs would have left it (IndexedDB `atelier-studio`, the persisted
 * zustand state beside the image Blobs and raw answers), then reloads, so a test can start from a gallery of
 * many items without waiting for the engine. The images are real ones, made with sharp from the public-domain
 * fixtures (engine/test/fixtures/SOURCES.md).
 */
import type { Page } from '@playwright/test';
import path from 'node:path';
import sharp from 'sharp';

export const cupFixture = path.join(import.meta.dirname, '../engine/test/fixtures/product_coffee_cup.png');

export interface SeedImage {
  label: string;
  type: string;
  bytes: Buffer;
  name?: string;
}

export interface SeedItem {
  id: string;
  slug: string;
  params: Record<string, string>;
  before: SeedImage;
  afters: SeedImage[];
  /** The raw answer as stored (e.g. smart crop's retain_location). */
  response?: unknown;
  /** Minutes before now it was made (cards are newest first). */
  minutesAgo?: number;
}

/** The photo (cup on a warm grey, 600×400 JPEG), its transparent cutout, the same on white, and a trimmed cutout. */
export async function cupImages() {
  const photo = await sharp(cupFixture).flatten({ background: '#d9d2c5' }).resize(600, 400, { fit: 'contain', background: '#d9d2c5' }).jpeg({ quality: 90 }).toBuffer();
  // The cup kept inside an ellipse, the rest transparent (the fixture itself is an opaque photo).
  const cup = Buffer.from('<svg width="600" height="400"><ellipse cx="300" cy="200" rx="230" ry="170" fill="#fff"/></svg>');
  const cutout = await sharp(photo).ensureAlpha().composite([{ input: cup, blend: 'dest-in' }]).png().toBuffer();
  const onWhite = await sharp(cutout).flatten({ background: '#ffffff' }).png().toBuffer();
  // A trimmed result: a window of the photo itself with its corners made transparent, as a crop cutout is.
  const window = { left: 180, top: 90, width: 240, height: 200 };
  const corners = Buffer.from(
    `<svg width="${window.width}" height="${window.height}"><ellipse cx="${window.width / 2}" cy="${window.height / 2}" rx="${window.width / 2}" ry="${window.height / 2}" fill="#fff"/></svg>`,
  );
  const trimmed = await sharp(await sharp(photo).extract(window).png().toBuffer()).ensureAlpha().composite([{ input: corners, blend: 'dest-in' }]).png().toBuffer();
  const empty = await sharp({ create: { width: 600, height: 400, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer();
  return { photo, cutout, onWhite, trimmed, window, empty };
}

/** Fills the gallery and reloads the page, so the studio reads it. */
export async function seedGallery(page: Page, items: SeedItem[], selectedId = items[0]?.id) {
  await writeGallery(page, items, selectedId);
  await page.reload();
}

/** Writes the items into the studio's store without reloading (a caller may time the reload). */
export async function writeGallery(page: Page, items: SeedItem[], selectedId = items[0]?.id) {
  const payload = items.map((it) => ({
    ...it,
    before: { ...it.before, b64: it.before.bytes.toString('base64'), bytes: undefined },
    afters: it.afters.map((a) => ({ ...a, b64: a.bytes.toString('base64'), bytes: undefined })),
  }));
  await page.evaluate(
    async ({ list, selected }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open('atelier-studio');
        r.onupgradeneeded = () => r.result.createObjectStore('gallery');
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      const tx = db.transaction('gallery', 'readwrite');
      const store = tx.objectStore('gallery');
      // No named functions in here: tsx (esbuild's keepNames) would wrap them in a helper the page lacks.
      const now = Date.now();
      const items = list.map((it) => {
        const before = new Blob([Uint8Array.from(atob(it.before.b64), (ch) => ch.charCodeAt(0))], { type: it.before.type });
        store.put(before, `blob:${it.id}:before`);
        const afters = it.afters.map((a, i) => {
          const b = new Blob([Uint8Array.from(atob(a.b64), (ch) => ch.charCodeAt(0))], { type: a.type });
          store.put(b, `blob:${it.id}:after:${i}`);
          return { key: `blob:${it.id}:after:${i}`, label: a.label, type: a.type, size: b.size };
        });
        store.put(it.response ?? { request_id: 'seed', log_id: 'seed', error_detail: { code: '', code_message: '', message: '' } }, `json:${it.id}`);
        const createdAt = now - (it.minutesAgo ?? 0) * 60_000;
        return {
          id: it.id, slug: it.slug, params: it.params, createdAt, completedAt: createdAt + 2100, status: 'done',
          before: { key: `blob:${it.id}:before`, label: 'Before', type: it.before.type, size: before.size, name: it.before.name },
          afters, responseKey: `json:${it.id}`,
        };
      });
      store.put(JSON.stringify({ state: { items, selectedId: selected }, version: 1 }), 'gallery-state');
      await new Promise((r) => (tx.oncomplete = r));
      db.close();
    },
    { list: payload, selected: selectedId },
  );
}

/** The entries of a store-only zip (what the studio writes): name → bytes, read from the local headers. */
export function unzipStored(zip: Buffer): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  let at = 0;
  while (zip.readUInt32LE(at) === 0x04034b50) {
    const method = zip.readUInt16LE(at + 8);
    const size = zip.readUInt32LE(at + 18);
    const nameLength = zip.readUInt16LE(at + 26);
    const extra = zip.readUInt16LE(at + 28);
    if (method !== 0) throw new Error(`entry at ${at} is compressed (method ${method})`);
    const name = zip.subarray(at + 30, at + 30 + nameLength).toString('utf8');
    const start = at + 30 + nameLength + extra;
    out.set(name, zip.subarray(start, start + size));
    at = start + size;
  }
  return out;
}
