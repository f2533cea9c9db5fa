/**
 * The result cache of cluster mode in front of a real store (the embedded disk store here, S3 in the cluster
 * test): copies served only within their retention, the byte bound with the least recently read evicted,
 * read-through fills only from whole reads, deletes and sweeps emptying copies.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readBlob, type BlobStore } from './blob-store.ts';
import { CachedBlobStore } from './cached-blob-store.ts';
import { DiskBlobStore } from './disk-blob-store.ts';
import { RESULT_NAME } from './store.ts';

const HOUR = 3600_000;
const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true }); });

/** A disk store that counts the opens reaching it. */
function countingStore() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atelier-cache-'));
  dirs.push(dir);
  const disk = new DiskBlobStore(dir, RESULT_NAME, { durable: false });
  disk.init();
  const counts = { opens: 0 };
  const store: BlobStore = {
    save: (k, b) => disk.save(k, b),
    open: (k) => { counts.opens++; return disk.open(k); },
    delete: (k) => disk.delete(k),
    expire: (age, now) => disk.expire(age, now),
  };
  return { disk, store, counts };
}

/** A cache whose clock the test moves (starting at the real time, which the disk store's savedAt follows). */
function cacheOver(store: BlobStore, maxBytes: number, maxEntryBytes?: number) {
  const clock = { offset: 0 };
  const cache = new CachedBlobStore(store, { maxBytes, maxEntryBytes, retentionMs: 24 * HOUR, now: () => Date.now() + clock.offset });
  return { cache, clock };
}

const name = (i: number, ext = 'png') => `${i.toString(16).padStart(32, '0')}.${ext}`;
const bytesOf = (n: number, fill: number) => Buffer.alloc(n, fill);

describe('CachedBlobStore', () => {
  it('serves its own saves from memory, the same bytes, without reading the store', async () => {
    const { store, counts } = countingStore();
    const { cache } = cacheOver(store, 10_000);
    await cache.save(name(1), bytesOf(500, 7));
    const blob = await cache.open(name(1));
    expect(blob?.size).toBe(500);
    expect(blob?.bytes?.equals(bytesOf(500, 7))).toBe(true);
    expect((await readBlob(cache, name(1)))!.equals(bytesOf(500, 7))).toBe(true);
    expect(counts.opens).toBe(0);
  });

  it('never serves a copy past its retention: the read goes to the store, which may no longer have it', async () => {
    const { disk, store, counts } = countingStore();
    const { cache, clock } = cacheOver(store, 10_000);
    await cache.save(name(2), bytesOf(300, 1));
    // Another engine's sweep removed the blob from the store; the copy is still within its 24 hours.
    await disk.delete(name(2));
    clock.offset = 24 * HOUR - 60_000;
    expect((await cache.open(name(2)))?.bytes?.length).toBe(300);
    expect(counts.opens).toBe(0);
    // Past the retention the copy is not served, and is dropped.
    clock.offset = 24 * HOUR + 1000;
    expect(await cache.open(name(2))).toBeUndefined();
    expect(counts.opens).toBe(1);
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  it('keeps no copy of a blob read from the store past its retention', async () => {
    const { store, counts } = countingStore();
    await store.save(name(3), bytesOf(100, 3));
    const { cache, clock } = cacheOver(store, 10_000);
    clock.offset = 25 * HOUR; // the store has not swept it yet: served from there, as without the cache
    expect((await readBlob(cache, name(3)))!.length).toBe(100);
    expect(cache.size).toBe(0);
    await readBlob(cache, name(3));
    expect(counts.opens).toBe(2);
  });

  it('holds at most maxBytes, evicting the least recently read first', async () => {
    const { store, counts } = countingStore();
    const { cache } = cacheOver(store, 1000, 1000);
    await cache.save(name(10), bytesOf(400, 10));
    await cache.save(name(11), bytesOf(400, 11));
    await cache.open(name(10)); // 10 read after 11: 11 is now the least recently read
    await cache.save(name(12), bytesOf(400, 12));
    expect(cache.bytes).toBeLessThanOrEqual(1000);
    expect(cache.bytes).toBe(800);
    const before = counts.opens;
    expect((await cache.open(name(10)))?.bytes?.[0]).toBe(10);
    expect((await cache.open(name(12)))?.bytes?.[0]).toBe(12);
    expect(counts.opens).toBe(before);
    // 11 was evicted: read from the store, the same bytes, and copied again (evicting the least recent, 10).
    expect((await readBlob(cache, name(11)))!.equals(bytesOf(400, 11))).toBe(true);
    expect(counts.opens).toBe(before + 1);
    expect(cache.bytes).toBe(800);
    await cache.open(name(10));
    expect(counts.opens).toBe(before + 2);
  });

  it('copies no blob larger than maxEntryBytes (default: a quarter of the budget)', async () => {
    const { store, counts } = countingStore();
    const { cache } = cacheOver(store, 1000);
    await cache.save(name(20), bytesOf(251, 20));
    expect(cache.size).toBe(0);
    expect((await readBlob(cache, name(20)))!.length).toBe(251);
    expect(cache.size).toBe(0);
    expect(counts.opens).toBe(1);
    await cache.save(name(21), bytesOf(250, 21));
    expect(cache.bytes).toBe(250);
  });

  it('fills from a whole read of the store, not from one the reader abandoned', async () => {
    const { store, counts } = countingStore();
    const big = Buffer.from(Array.from({ length: 200_000 }, (_, i) => i % 251));
    await store.save(name(30), big);
    const { cache } = cacheOver(store, 1_000_000);
    const abandoned = await cache.open(name(30));
    await new Promise<void>((resolve) => { abandoned!.stream.once('data', () => { abandoned!.stream.destroy(); resolve(); }); });
    await new Promise((r) => setTimeout(r, 20));
    expect(cache.size).toBe(0);
    expect((await readBlob(cache, name(30)))!.equals(big)).toBe(true);
    expect(counts.opens).toBe(2);
    const hit = await cache.open(name(30));
    expect(hit?.bytes?.equals(big)).toBe(true);
    expect(counts.opens).toBe(2);
  });

  it('passes a store\'s presigned URLs through (ATELIER_RESULTS_REDIRECT=presigned), and has none without them', async () => {
    const { store } = countingStore();
    expect(cacheOver(store, 1000).cache.presignedUrl).toBeUndefined();
    const asked: string[] = [];
    const signing: BlobStore = { ...store, presignedUrl: async (k) => { asked.push(k); return `https://store.example/${k}`; } };
    const { cache } = cacheOver(signing, 1000);
    expect(await cache.presignedUrl!(name(50), HOUR)).toBe(`https://store.example/${name(50)}`);
    expect(asked).toEqual([name(50)]);
  });

  it('drops a copy when its blob is deleted or swept, and a fill that a delete overtook', async () => {
    const { store } = countingStore();
    const { cache, clock } = cacheOver(store, 10_000);
    await cache.save(name(40), bytesOf(10, 40));
    await cache.delete(name(40));
    expect(cache.size).toBe(0);
    expect(await cache.open(name(40))).toBeUndefined();

    await store.save(name(41), bytesOf(10, 41));
    const reading = await cache.open(name(41));
    await cache.delete(name(41)); // deleted while the read was under way: its bytes must not be kept
    for await (const chunk of reading!.stream) void chunk;
    expect(cache.size).toBe(0);

    await cache.save(name(42), bytesOf(10, 42));
    clock.offset = 2 * HOUR;
    await cache.save(name(43), bytesOf(10, 43));
    expect(await cache.expire(HOUR)).toBeGreaterThanOrEqual(0);
    expect(cache.size).toBe(1);
    expect((await cache.open(name(43)))?.bytes?.[0]).toBe(43);
  });
});
