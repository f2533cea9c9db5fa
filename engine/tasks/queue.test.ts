/**
 * The queue over the backends' interfaces, with a pool that runs when told: a run whose task was taken over
 * after its lease ran out records nothing and leaves no result behind; the queue claims no more than its
 * places; a stop leaves queued tasks queued.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { lockDataDir } from '../data-dir.ts';
import type { EffectOutput } from '../pipeline/effect.ts';
import { ResultStore } from '../results/store.ts';
import { StorageMonitor } from '../storage.ts';
import type { WorkerPool } from '../workers/pool.ts';
import { openEmbeddedBackends, type EmbeddedBackends } from './embedded-backend.ts';
import { TaskQueue } from './queue.ts';

const opened: { backends: EmbeddedBackends; queue: TaskQueue; dir: string }[] = [];
afterEach(async () => {
  for (const { backends, queue, dir } of opened.splice(0)) {
    queue.interrupt();
    await backends.tasks.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** A pool whose runs wait until `finish` is called; `started` counts them. */
function heldPool() {
  const waiting: (() => void)[] = [];
  const output: EffectOutput = { images: { result: { data: Buffer.from('not really a png'), format: 'png' } } };
  const pool = {
    started: 0,
    run: () => { pool.started++; return new Promise<EffectOutput>((resolve) => waiting.push(() => resolve(output))); },
    finish: () => { for (const f of waiting.splice(0)) f(); },
  };
  return pool;
}

function start(concurrency = 1) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atelier-queue-'));
  const backends = openEmbeddedBackends(lockDataDir(dir));
  const pool = heldPool();
  const results = new ResultStore(backends.results);
  const queue = new TaskQueue(backends.tasks, backends.inputs, pool as unknown as WorkerPool, results,
    new StorageMonitor(backends.dirs, 0), { holder: 'this-engine', concurrency, timeoutMs: 60_000 });
  opened.push({ backends, queue, dir });
  const submit = () => backends.tasks.submit('ai-beard-removal', {}, { image: { bytes: new Uint8Array([1, 2]), format: 'png', maxPixels: 1 } });
  return { ...backends, pool, queue, submit };
}

const until = async (what: () => boolean) => {
  for (let i = 0; i < 200 && !what(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(what()).toBe(true);
};

it('records a run and its results under its claim', async () => {
  const { tasks, results, pool, queue, submit } = start();
  const { id } = await submit();
  queue.start();
  await until(() => pool.started === 1);
  pool.finish();
  await queue.whenIdle();
  await until(() => tasks.get(id)?.status === 2);
  const done = tasks.get(id)!;
  expect(done.results).toHaveLength(1);
  expect(fs.readdirSync(results.dir)).toEqual(done.results);
});

it('drops the outcome of a run whose task was taken over after its lease ran out', async () => {
  const { tasks, results, pool, queue, submit } = start();
  const { id } = await submit();
  queue.start();
  await until(() => pool.started === 1);
  expect(await tasks.requeueExpired(Date.now() + 3600_000)).toBe(1); // as if this engine had stalled past its lease
  const other = (await tasks.claim('another-engine', 60_000))!;
  expect(other.id).toBe(id);
  pool.finish();
  await queue.whenIdle();
  await until(() => fs.readdirSync(results.dir).length === 0); // the result it saved is removed
  expect(tasks.get(id)).toMatchObject({ status: 1, attempts: 2 }); // still the other engine's
  expect(await tasks.complete(other, [])).toBe(true);
});

it('claims no more tasks than its places, and none after a stop', async () => {
  const { tasks, pool, queue, submit } = start(2);
  const ids = [];
  for (let i = 0; i < 4; i++) ids.push((await submit()).id);
  queue.start();
  await until(() => pool.started === 2);
  queue.pump();
  await new Promise((r) => setTimeout(r, 50));
  expect(pool.started).toBe(2);
  expect(ids.map((id) => tasks.get(id)!.status)).toEqual([1, 1, 0, 0]);
  queue.stop();
  pool.finish();
  await queue.whenIdle();
  expect(ids.map((id) => tasks.get(id)!.status)).toEqual([2, 2, 0, 0]);
  expect(pool.started).toBe(2);
});
