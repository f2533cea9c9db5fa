import { Blob as NodeBlob } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { createGalleryStore, GALLERY_VERSION, migrateGallery } from './gallery-store.ts';
import { getBlob, getJson, idbStateStorage } from './idb-storage.ts';

// jsdom's Blob cannot be structured-cloned into (fake) IndexedDB; Node's can, as a browser's can.
const blob = (bytes: number[], type: string) => new NodeBlob([new Uint8Array(bytes)], { type }) as unknown as Blob;
const bytesOf = async (b: Blob | undefined) => Array.from(new Uint8Array(await b!.arrayBuffer()));

async function persisted(name: string): Promise<{ state: { items: Array<Record<string, unknown>>; selectedId: string | null }; version: number }> {
  for (let i = 0; i < 50; i++) {
    const raw = await idbStateStorage.getItem(name);
    if (raw && JSON.parse(raw).state.items.length > 0) return JSON.parse(raw);
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('nothing was persisted');
}

describe('gallery store', () => {
  it('persists metadata to IndexedDB and restores it, with the images as Blobs beside it', async () => {
    const name = `gallery-test-${Math.random()}`;
    const first = createGalleryStore({ name });
    await first.persist.rehydrate();
    const item = await first.getState().addItem({
      slug: 'commodity-background-removal',
      params: { return_form: 'crop' },
      before: Object.assign(blob([1, 2, 3], 'image/jpeg'), { name: 'cup.jpg' }),
      afters: [{ label: 'Result', blob: blob([9, 8, 7, 6], 'image/png') }],
      response: { request_id: 'r-1', data: { image_url: 'http://studio/results/x.png' } },
      status: 'done',
    });
    first.getState().select(item.id);

    const saved = await persisted(name);
    expect(saved.version).toBe(GALLERY_VERSION);
    expect(Object.keys(saved.state).sort()).toEqual(['items', 'selectedId']);
    // Only metadata and keys in the persisted JSON: no image bytes, no response body.
    expect(saved.state.items[0]).toMatchObject({ slug: 'commodity-background-removal', before: { key: item.before.key, name: 'cup.jpg', type: 'image/jpeg' } });
    expect(JSON.stringify(saved)).not.toContain('r-1');

    // A new store over the same storage, as after a page reload.
    const second = createGalleryStore({ name });
    await second.persist.rehydrate();
    const restored = second.getState();
    expect(restored.items).toHaveLength(1);
    expect(restored.items[0]).toEqual(item);
    expect(restored.selectedId).toBe(item.id);
    expect(await bytesOf(await getBlob(restored.items[0].before.key))).toEqual([1, 2, 3]);
    expect(await bytesOf(await getBlob(restored.items[0].afters[0].key))).toEqual([9, 8, 7, 6]);
    expect(await getJson(restored.items[0].responseKey)).toEqual({ request_id: 'r-1', data: { image_url: 'http://studio/results/x.png' } });
  });

  it('keeps every result of a multi-result run (apparel: the cutout and one image per class) across a reload', async () => {
    const name = `gallery-test-${Math.random()}`;
    const first = createGalleryStore({ name });
    await first.persist.rehydrate();
    const labels = ['All garments', 'tops', 'coat', 'pants'];
    const item = await first.getState().addItem({
      slug: 'apparel-background-removal',
      params: { cloth_class: 'tops,coat,pants' },
      before: blob([1], 'image/jpeg'),
      afters: labels.map((label, i) => ({ label, blob: blob([i, i, i], 'image/png') })),
      response: { data: { elements: [] } },
      status: 'done',
    });
    await persisted(name);
    const second = createGalleryStore({ name });
    await second.persist.rehydrate();
    const afters = second.getState().items[0].afters;
    expect(afters.map((a) => a.label)).toEqual(labels);
    expect(new Set(afters.map((a) => a.key)).size).toBe(4);
    for (const [i, a] of afters.entries()) expect(await bytesOf(await getBlob(a.key))).toEqual([i, i, i]);
    await second.getState().removeItem(item.id);
    for (const a of afters) expect(await getBlob(a.key)).toBeUndefined();
  });

  it('completes a pending task and deletes an item with its blobs', async () => {
    const store = createGalleryStore({ name: `gallery-test-${Math.random()}` });
    await store.persist.rehydrate();
    const item = await store.getState().addItem({
      slug: 'ai-red-lip-gloss', params: {}, before: blob([1], 'image/png'), afters: [], response: { task_id: 't1' }, status: 'pending', taskId: 't1',
    });
    expect(store.getState().items[0]).toMatchObject({ status: 'pending', taskStatus: 0, taskId: 't1' });
    await store.getState().completeItem(item.id, [{ label: 'Result', blob: blob([5, 5], 'image/png') }], { task_status: 2 });
    const done = store.getState().items[0];
    expect(done).toMatchObject({ status: 'done', taskStatus: 2 });
    expect(await bytesOf(await getBlob(done.afters[0].key))).toEqual([5, 5]);

    await store.getState().removeItem(item.id);
    expect(store.getState().items).toEqual([]);
    expect(await getBlob(done.afters[0].key)).toBeUndefined();
    expect(await getBlob(done.before.key)).toBeUndefined();
  });

  it('migrates the version 0 shape and drops what it cannot read', () => {
    const before = { key: 'blob:a:before', label: 'Before', type: 'image/png', size: 1 };
    const v0 = { items: [{ id: 'a', slug: 'face-beauty', before, afters: [], responseKey: 'json:a', createdAt: 1 }, { id: 'broken' }], selected: 'a' };
    const migrated = migrateGallery(v0, 0);
    expect(migrated.selectedId).toBe('a');
    expect(migrated.items).toEqual([{ id: 'a', slug: 'face-beauty', before, afters: [], responseKey: 'json:a', createdAt: 1, status: 'done', params: {} }]);
    expect(migrateGallery(undefined, 0)).toEqual({ items: [], selectedId: null });
  });
});
