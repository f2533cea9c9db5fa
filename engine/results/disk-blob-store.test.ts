/** The embedded blob store: what is saved streams back whole, keys stay inside the folder, old blobs expire. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readBlob } from './blob-store.ts';
import { DiskBlobStore } from './disk-blob-store.ts';
import { RESULT_NAME, ResultStore } from './store.ts';

const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true }); });
const store = (keys = /^[a-z]+(\/[a-z]+)?$/) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atelier-blobs-'));
  dirs.push(dir);
  const s = new DiskBlobStore(path.join(dir, 'blobs'), keys, { durable: true });
  s.init();
  return s;
};
const bytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 7) % 256);
const age = (file: string, ms: number) => { const t = new Date(Date.now() - ms); fs.utimesSync(file, t, t); };

describe('disk blob store', () => {
  it('streams a saved blob back byte for byte, with its size and save time', async () => {
    const s = store();
    const data = bytes(300_000); // more than one read chunk
    const before = Date.now();
    await s.save('task/image', data);
    const blob = (await s.open('task/image'))!;
    expect(blob.size).toBe(data.length);
    expect(blob.savedAt).toBeGreaterThanOrEqual(before - 1000);
    const chunks: Buffer[] = [];
    for await (const c of blob.stream) chunks.push(c as Buffer);
    expect(chunks.length).toBeGreaterThan(1);
    expect(Buffer.concat(chunks).equals(Buffer.from(data))).toBe(true);
    s.saveSync('other', bytes(10));
    expect(await readBlob(s, 'other')).toEqual(Buffer.from(bytes(10)));
    expect(fs.readdirSync(s.dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect((fs.statSync(path.join(s.dir, 'task', 'image')).mode & 0o777).toString(8)).toBe('600');
  });

  it('answers nothing for a key it does not have or that is not one of its keys, and writes none', async () => {
    const s = store();
    expect(await s.open('missing')).toBeUndefined();
    for (const key of ['../escape', 'a/../../b', '/etc/passwd', 'UPPER']) {
      expect(await s.open(key)).toBeUndefined();
      await expect(s.save(key, bytes(3))).rejects.toThrow(/not a key/);
      expect(s.pathOf(key)).toBeUndefined();
    }
    fs.mkdirSync(path.join(s.dir, 'folder'));
    expect(await s.open('folder')).toBeUndefined(); // not a blob
  });

  it('deletes a blob, and its group once empty', async () => {
    const s = store();
    await s.save('task/image', bytes(5));
    await s.save('task/mask', bytes(5));
    await s.delete('task/image');
    expect(await s.open('task/image')).toBeUndefined();
    expect(await readBlob(s, 'task/mask')).toHaveLength(5);
    await s.delete('task/mask');
    expect(fs.readdirSync(s.dir)).toEqual([]);
    await s.delete('task/mask'); // gone already: no error
  });

  it('expires blobs saved longer ago than the age, groups emptied so with them, and nothing younger', async () => {
    const s = store();
    await s.save('old', bytes(4));
    await s.save('young', bytes(4));
    await s.save('task/image', bytes(4));
    await s.save('kept/image', bytes(4));
    age(s.pathOf('old')!, 10_000);
    age(s.pathOf('task/image')!, 10_000);
    expect(await s.expire(60_000)).toBe(0);
    expect(await s.expire(5_000)).toBe(2);
    expect(await s.open('old')).toBeUndefined();
    expect(await s.open('task/image')).toBeUndefined();
    expect(fs.existsSync(path.join(s.dir, 'task'))).toBe(false);
    expect(await readBlob(s, 'young')).toHaveLength(4);
    expect(await readBlob(s, 'kept/image')).toHaveLength(4);
    expect(await s.expire(5_000, Date.now() + 60_000)).toBe(2);
  });
});

describe('result store', () => {
  it('saves under an unguessable name and reads back only names of its own pattern', async () => {
    const results = new ResultStore(store(RESULT_NAME));
    const data = Buffer.from(bytes(1000));
    const name = await results.save({ data, format: 'jpeg' });
    expect(name).toMatch(/^[a-f0-9]{32}\.jpg$/);
    const blob = (await results.open(name))!;
    expect(blob.size).toBe(1000);
    blob.stream.destroy();
    expect(await results.open('../' + name)).toBeUndefined();
    await results.remove(name);
    expect(await results.open(name)).toBeUndefined();
  });
});
