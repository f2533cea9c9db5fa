/**
 * The embedded task backend: claims are exclusive (across processes too), leases run out and put the task
 * back, a lost claim records nothing, start-up recovery and the sweep leave a live holder's task alone.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDataDir } from '../data-dir.ts';
import { readBlob } from '../results/blob-store.ts';
import { openEmbeddedBackends, type EmbeddedBackends } from './embedded-backend.ts';
import { TaskStore } from './store.ts';

const opened: EmbeddedBackends[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const b of opened.splice(0)) await b.tasks.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const dataDir = () => { const d = fs.mkdtempSync(path.join(os.tmpdir(), 'atelier-backend-')); dirs.push(d); return d; };
const open = (dir = dataDir()) => { const b = openEmbeddedBackends(lockDataDir(dir)); opened.push(b); return b; };
const image = (n = 3) => ({ bytes: Uint8Array.from({ length: n }, (_, i) => i + 1), format: 'png' as const, maxPixels: 1 });
const LEASE = 60_000;

describe('embedded task backend', () => {
  it('hands each queued task to one claim, oldest first, and none when the queue is empty', async () => {
    const { tasks } = open();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await tasks.submit('ai-beard-removal', { i }, { image: image() })).id);
    const a = await tasks.claim('engine-a', LEASE);
    const b = await tasks.claim('engine-b', LEASE);
    const c = await tasks.claim('engine-a', LEASE);
    expect([a?.id, b?.id, c?.id]).toEqual(ids);
    expect(await tasks.claim('engine-b', LEASE)).toBeUndefined();
    expect(a!.status).toBe(1);
    expect(a!.attempts).toBe(1);
    expect(new Set([a!.claim, b!.claim, c!.claim]).size).toBe(3);
    expect(await tasks.pendingCount()).toBe(3);
    expect(await tasks.complete(a!, ['0123456789abcdef0123456789abcdef.png'])).toBe(true);
    expect(await tasks.pendingCount()).toBe(2);
  });

  it('never gives one task to two processes claiming at once', async () => {
    const dir = dataDir();
    const store = new TaskStore(dir);
    const ids = new Set<string>();
    for (let i = 0; i < 60; i++) ids.add(store.create('ai-beard-removal', {}, { image: image(1) }).id);
    store.close();
    const storeModule = new URL('./store.ts', import.meta.url).href;
    const claimer = (name: string) => new Promise<string[]>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e',
        `const { TaskStore } = await import(${JSON.stringify(storeModule)});
         const store = new TaskStore(process.argv[1]);
         const got = [];
         for (let t; (t = store.claim(process.argv[2], 60000)); ) got.push(t.id);
         store.close();
         console.log(JSON.stringify(got));`, dir, name], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (d) => { out += d; });
      child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`claimer ${name} exited ${code}: ${out}`))));
    });
    const claimed = (await Promise.all(['a', 'b', 'c'].map(claimer))).flat();
    expect(claimed.length).toBe(ids.size);
    expect(new Set(claimed)).toEqual(ids);
  });

  it('puts a task back when its lease runs out, counting the attempt; the old claim then records nothing', async () => {
    const { tasks } = open();
    const { id } = await tasks.submit('ai-beard-removal', {}, { image: image() });
    const t0 = Date.now();
    const first = (await tasks.claim('engine-a', 1000, t0))!;
    expect(await tasks.requeueExpired(t0 + 999)).toBe(0);
    expect(await tasks.renew(first, 1000, t0 + 900)).toBe(true); // now holds until t0 + 1900
    expect(await tasks.requeueExpired(t0 + 1500)).toBe(0);
    expect(await tasks.requeueExpired(t0 + 2000)).toBe(1);
    expect(await tasks.find(id)).toMatchObject({ status: 0, attempts: 1 });

    const second = (await tasks.claim('engine-b', LEASE))!;
    expect(second.id).toBe(id);
    expect(second.attempts).toBe(2);
    expect(await tasks.renew(first, 1000)).toBe(false);
    expect(await tasks.complete(first, ['0123456789abcdef0123456789abcdef.png'])).toBe(false);
    expect(await tasks.fail(first, { status: 500, code: 'PROCESSING_FAILURE', message: 'x' })).toBe(false);
    await tasks.release(first, true);
    expect(await tasks.find(id)).toMatchObject({ status: 1, attempts: 2 }); // still the second claim's
    expect(await tasks.complete(second, ['0123456789abcdef0123456789abcdef.png'])).toBe(true);
    expect(await tasks.find(id)).toMatchObject({ status: 2, results: ['0123456789abcdef0123456789abcdef.png'] });
  });

  it('releases a claim back to the queue, with or without its attempt', async () => {
    const { tasks } = open();
    const { id } = await tasks.submit('ai-beard-removal', {}, { image: image() });
    await tasks.release((await tasks.claim('engine-a', LEASE))!, true);
    expect(await tasks.find(id)).toMatchObject({ status: 0, attempts: 0 });
    await tasks.release((await tasks.claim('engine-a', LEASE))!, false);
    expect(await tasks.find(id)).toMatchObject({ status: 0, attempts: 1 });
  });

  it('recovers at start only the tasks of other holders (the folder lock proves them stopped)', async () => {
    const { tasks } = open();
    for (let i = 0; i < 2; i++) await tasks.submit('ai-beard-removal', {}, { image: image() });
    const mine = (await tasks.claim('engine-now', LEASE))!;
    const earlier = (await tasks.claim('engine-before', LEASE))!;
    expect(await tasks.recoverInterrupted('engine-now')).toBe(1);
    expect(await tasks.find(earlier.id)).toMatchObject({ status: 0, attempts: 1 });
    expect((await tasks.find(mine.id))!.status).toBe(1);
  });

  it('sweeps old tasks and their inputs, but not one under a lease that holds', async () => {
    const { tasks, inputs } = open();
    const stalled = await tasks.submit('ai-beard-removal', {}, { image: image() });
    const running = await tasks.submit('ai-beard-removal', {}, { image: image() });
    const queued = await tasks.submit('ai-beard-removal', {}, { image: image() });
    const now = Date.now() + 1;
    await tasks.claim('engine-a', 1, now - 10); // `stalled`, the oldest: its lease ran out at once
    const held = (await tasks.claim('engine-a', LEASE))!;
    expect(held.id).toBe(running.id);
    expect(await tasks.sweep(0, now)).toBe(2);
    expect(await tasks.find(stalled.id)).toBeUndefined();
    expect(await tasks.find(queued.id)).toBeUndefined();
    expect(await readBlob(inputs, stalled.images.image.key)).toBeUndefined();
    expect((await tasks.find(running.id))!.status).toBe(1);
    expect(await readBlob(inputs, running.images.image.key)).toEqual(Buffer.from([1, 2, 3]));
  });

  it('stores inputs as blobs named by key, dropped when the outcome is recorded', async () => {
    const { tasks, inputs } = open();
    const task = await tasks.submit('ai-beard-removal', { beard: 'Goatee' }, { image: image(), 'image-template': image(5) });
    expect(task.images.image.key).toBe(`${task.id}/image`);
    expect(task.images['image-template'].key).toBe(`${task.id}/image_template`);
    expect(await readBlob(inputs, task.images['image-template'].key)).toHaveLength(5);
    const claimed = (await tasks.claim('engine-a', LEASE))!;
    await tasks.fail(claimed, { status: 422, code: 'ERROR_NO_FACE_IN_FILE', message: 'no face' });
    expect(await readBlob(inputs, task.images.image.key)).toBeUndefined();
    expect(fs.readdirSync(inputs.dir)).toEqual([]);
  });

  it('reads rows from before keys, which named their inputs by path', async () => {
    const dir = dataDir();
    const first = open(dir); // makes the table as it is now
    await first.tasks.close();
    opened.splice(opened.indexOf(first), 1);
    const id = '0123456789abcdef0123456789abcdef';
    fs.mkdirSync(path.join(dir, 'task-inputs', id), { recursive: true });
    fs.writeFileSync(path.join(dir, 'task-inputs', id, 'image'), Buffer.from([9, 8, 7]));
    const db = new Database(path.join(dir, 'tasks.sqlite'));
    const images = { image: { file: path.join('/an/older/place', 'task-inputs', id, 'image'), format: 'png', maxPixels: 1 } };
    db.prepare("INSERT INTO tasks (id, slug, status, params, images, created_at, updated_at, attempts) VALUES (?, 'ai-beard-removal', 0, '{}', ?, ?, ?, 0)")
      .run(id, JSON.stringify(images), Date.now(), Date.now());
    db.close();
    const { tasks, inputs } = open(dir);
    const claimed = (await tasks.claim('engine-a', LEASE))!;
    expect(claimed.images.image).toEqual({ key: `${id}/image`, format: 'png', maxPixels: 1 });
    expect(await readBlob(inputs, claimed.images.image.key)).toEqual(Buffer.from([9, 8, 7]));
  });
});
