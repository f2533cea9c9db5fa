/**
 * The BullMQ task backend's guarantees on a real redis-server (loopback, a free port, no persistence):
 * exclusive claims, renewals, outcomes only under the task's own claim, a count over every engine, takeover
 * of a task whose lease ran out, and the third interruption failing the task as the embedded queue does.
 * Inputs go to a disk blob store here; the cluster test (engine/test/cluster.test.ts) runs the S3 one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Job, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBlob } from '../results/blob-store.ts';
import { DiskBlobStore } from '../results/disk-blob-store.ts';
import { freePort, requirePrograms } from '../test/cluster-services.ts';
import { RedisTaskBackend } from './redis-backend.ts';
import { RedisTaskMirror } from './redis-mirror.ts';
import { INPUT_KEY } from './store.ts';

const LEASE_MS = 1000;
let redis: ChildProcess;
let url: string;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atelier-redis-backend-'));
const backends: RedisTaskBackend[] = [];
const inputs = new DiskBlobStore(path.join(dir, 'inputs'), INPUT_KEY, { durable: false });
inputs.init();

beforeAll(async () => {
  requirePrograms();
  const port = await freePort();
  redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  url = `redis://127.0.0.1:${port}`;
  await new Promise((r) => setTimeout(r, 300));
});

afterAll(async () => {
  await Promise.all(backends.map((b) => b.close().catch(() => {})));
  redis?.kill('SIGTERM');
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Each test on its own Redis database, so one's tasks are not another's. */
async function open(db: number, opts: { retentionMs?: number; now?: () => number; mirrorEntries?: number } = {}): Promise<RedisTaskBackend> {
  const b = await RedisTaskBackend.open({ url: `${url}/${db}`, leaseMs: LEASE_MS, retentionMs: 3600_000, inputs, ...opts });
  backends.push(b);
  return b;
}

const image = { bytes: new Uint8Array([1, 2, 3]), format: 'png' as const, maxPixels: 100 };

describe('RedisTaskBackend', () => {
  it('claims exclusively across engines, records an outcome only under its own claim, and counts over all engines', async () => {
    const [one, two] = [await open(1), await open(1)];
    expect(one.ownerOf('k')).toBe(two.ownerOf('k'));
    const task = await one.submit('slug-a', { x: 1 }, { image }, one.ownerOf('k'));
    expect(task.id).toMatch(/^[a-f0-9]{32}$/);
    expect(await two.pendingCount()).toBe(1);
    expect(await inputs.open(`${task.id}/image`)).toBeDefined();
    expect((await two.find(task.id))?.status).toBe(0);
    const claims = await Promise.all([one.claim('engine-1', LEASE_MS), two.claim('engine-2', LEASE_MS)]);
    const got = claims.filter((c) => c !== undefined);
    expect(got).toHaveLength(1);
    expect(got[0]!.attempts).toBe(1);
    expect((await one.find(task.id))?.status).toBe(1);
    const holder = claims[0] ? one : two;
    expect(await holder.renew(got[0]!, LEASE_MS)).toBe(true);
    expect(await holder.complete(got[0]!, ['0123456789abcdef0123456789abcdef.png'])).toBe(true);
    const done = await two.find(task.id);
    expect(done).toMatchObject({ status: 2, results: ['0123456789abcdef0123456789abcdef.png'], owner: one.ownerOf('k'), params: { x: 1 } });
    expect(await two.pendingCount()).toBe(0);
    // The outcome went with the inputs.
    expect(await inputs.open(`${task.id}/image`)).toBeUndefined();
    expect(await holder.fail(got[0]!, { status: 500, code: 'PROCESSING_FAILURE', message: 'late' })).toBe(false);
    expect(await one.find('0'.repeat(31) + 'f')).toBeUndefined();
  });

  it('gives a task whose lease ran out to another engine, refuses the old claim, and fails the third interruption', async () => {
    const [one, two] = [await open(2), await open(2)];
    const task = await one.submit('slug-b', {}, { image });
    const first = (await one.claim('engine-1', LEASE_MS))!;
    expect(first.id).toBe(task.id);
    // engine-1 stops renewing (as if killed): the stalled check puts the task back, and engine-2 takes it.
    const second = await waitForClaim(two, 'engine-2');
    expect(second.id).toBe(task.id);
    expect(second.attempts).toBe(2);
    expect(await one.complete(first, [])).toBe(false);
    expect(await one.renew(first, LEASE_MS)).toBe(false);
    // A third interruption: the next claim comes past the attempt limit, which the queue answers with
    // PROCESSING_FAILURE, as embedded (queue.ts; here the failure is recorded by hand).
    expect((await waitForClaim(one, 'engine-1')).attempts).toBe(3);
    const fourth = await waitForClaim(two, 'engine-2');
    expect(fourth.attempts).toBeGreaterThan(3);
    expect(await two.fail(fourth, { status: 500, code: 'PROCESSING_FAILURE', message: 'slug-b could not finish after 3 attempts' })).toBe(true);
    expect(await one.find(task.id)).toMatchObject({ status: 2, error: { code: 'PROCESSING_FAILURE', message: 'slug-b could not finish after 3 attempts' } });
  }, 60_000);

  it('puts a released task back with its attempt given back', async () => {
    const one = await open(3);
    const task = await one.submit('slug-c', {}, {});
    const claimed = (await one.claim('engine-1', LEASE_MS))!;
    await one.release(claimed, true);
    expect((await one.find(task.id))?.status).toBe(0);
    const again = (await one.claim('engine-1', LEASE_MS))!;
    expect(again.id).toBe(task.id);
    expect(again.attempts).toBe(1);
    expect(await one.complete(again, [])).toBe(true);
  });

  it('answers a poll (one script) as BullMQ\'s own reads of the job and its state do, in every state', async () => {
    // `one` runs the tasks (and so keeps the finished ones in memory); `reader` reads each state by the script.
    const [one, reader] = [await open(5), await open(5)];
    const queue = new Queue('tasks', { connection: new Redis(`${url}/5`, { maxRetriesPerRequest: null }), prefix: 'atelier' });
    // The task as the backend answered it before FIND_TASK: the job's hash, then its state (two round trips).
    const byBull = async (id: string) => {
      const job = await Job.fromId(queue, id);
      if (!job) return undefined;
      const state = job.finishedOn ? 'finished' : await job.getState();
      const status = state === 'active' ? 1 : ['finished', 'completed', 'failed'].includes(state) ? 2 : 0;
      const row: Record<string, unknown> = { id, slug: job.data.slug, status, params: job.data.params, images: job.data.images, createdAt: job.timestamp, owner: job.data.owner, attempts: job.attemptsStarted - (job.data.refunds ?? 0) };
      if (status === 2) Object.assign(row, 'results' in job.returnvalue ? { results: job.returnvalue.results } : { error: job.returnvalue.error });
      return row;
    };
    const seen: number[] = [];
    const same = async (id: string) => {
      const [mine, read, bull] = [await one.find(id), await reader.find(id), await byBull(id)];
      expect(read).toEqual(bull);
      expect(mine).toEqual(bull);
      seen.push(mine!.status);
    };
    const a = await one.submit('slug-e', { n: 1 }, { image }, one.ownerOf('k'));
    const b = await one.submit('slug-e', {}, {});
    await same(a.id); // waiting
    const claimA = (await one.claim('engine-1', LEASE_MS))!;
    await same(a.id); // active
    await one.complete(claimA, ['0123456789abcdef0123456789abcdef.jpg']);
    await same(a.id); // done with results
    const claimB = (await one.claim('engine-1', LEASE_MS))!;
    await one.release(claimB, true);
    await same(b.id); // back in the queue, its attempt given back
    const againB = (await one.claim('engine-1', LEASE_MS))!;
    await one.fail(againB, { status: 400, code: 'ERROR_NO_FACE_DETECTED', message: 'no face' });
    await same(b.id); // done with an error
    expect(seen).toEqual([0, 1, 2, 0, 2]);
    expect(await one.find(a.id)).toMatchObject({ status: 2, results: ['0123456789abcdef0123456789abcdef.jpg'], params: { n: 1 }, attempts: 1 });
    expect(await one.find(b.id)).toMatchObject({ status: 2, error: { code: 'ERROR_NO_FACE_DETECTED' }, attempts: 1 });
    expect(await one.find('f'.repeat(32))).toBeUndefined();
    await queue.close();
  });

  it('answers a finished task from memory, for ten minutes at most and never past its retention', async () => {
    let now = Date.now();
    const one = await open(6, { now: () => now });
    const two = await open(6, { now: () => now });
    const direct = new Redis(`${url}/6`);
    // The job gone from Redis behind the backends' backs (as after a flush): only memory still answers it.
    const drop = async (id: string) => { await direct.del(`atelier:tasks:${id}`); await direct.zrem('atelier:tasks:completed', id); };
    try {
      const a = await one.submit('slug-f', {}, { image }, one.ownerOf('k'));
      expect((await one.find(a.id))?.status).toBe(0);
      const claimA = (await one.claim('engine-1', LEASE_MS))!;
      expect((await one.find(a.id))?.status).toBe(1); // read again, not the 0 of before
      expect(await one.complete(claimA, ['0123456789abcdef0123456789abcdef.png'])).toBe(true);
      // The finishing engine answers as Redis does; the other engine keeps what its poll found.
      const fromRedis = await two.find(a.id);
      expect(fromRedis).toMatchObject({ status: 2, results: ['0123456789abcdef0123456789abcdef.png'] });
      expect(await one.find(a.id)).toEqual(fromRedis);
      await drop(a.id);
      const b = await one.submit('slug-f', {}, {});
      expect(await one.find(a.id)).toEqual(fromRedis);
      expect(await two.find(a.id)).toEqual(fromRedis);
      const third = await open(6, { now: () => now });
      expect(await third.find(a.id)).toBeUndefined();
      // A failed task too; and ten minutes later both are read from Redis again.
      const claimB = (await one.claim('engine-1', LEASE_MS))!;
      expect(await one.fail(claimB, { status: 400, code: 'ERROR_NO_FACE_DETECTED', message: 'no face' })).toBe(true);
      await drop(b.id);
      expect(await one.find(b.id)).toMatchObject({ status: 2, error: { code: 'ERROR_NO_FACE_DETECTED' } });
      now += 10 * 60_000;
      expect(await one.find(a.id)).toBeUndefined();
      expect(await two.find(a.id)).toBeUndefined();
      expect(await one.find(b.id)).toBeUndefined();

      // Never past the retention counted from the submission, nor past a sweep of that age.
      now = Date.now();
      const short = await open(6, { retentionMs: 60_000, now: () => now });
      const doneAndDropped = async () => {
        const t = await short.submit('slug-f', {}, {});
        const claimed = (await short.claim('engine-2', LEASE_MS))!;
        expect(claimed.id).toBe(t.id);
        expect(await short.complete(claimed, [])).toBe(true);
        await drop(t.id);
        expect((await short.find(t.id))?.status).toBe(2);
        return t;
      };
      const c = await doneAndDropped();
      now = c.createdAt + 1;
      await short.sweep(0);
      expect(await short.find(c.id)).toBeUndefined();
      const d = await doneAndDropped();
      now = d.createdAt + 59_999;
      expect((await short.find(d.id))?.status).toBe(2);
      now = d.createdAt + 60_000;
      expect(await short.find(d.id)).toBeUndefined();
    } finally {
      direct.disconnect();
    }
  });

  it('stages inputs in Redis within its budget, moves a waiting task\'s to the store after the answer, and reads them wherever they are', async () => {
    const store = new DiskBlobStore(path.join(dir, 'ingress'), INPUT_KEY, { durable: false });
    store.init();
    const b = await RedisTaskBackend.open({ url: `${url}/4`, leaseMs: LEASE_MS, retentionMs: 3600_000, inputs: store, ingressBytes: 10 });
    backends.push(b);
    const direct = new Redis(`${url}/4`);
    try {
      const staged = await b.submit('slug-d', {}, { image });
      const key = `${staged.id}/image`;
      // Answered with the input in Redis; the move has not begun (it waits for the answer's turn to end).
      expect(await direct.getBuffer(`atelier:input:${key}`)).toEqual(Buffer.from(image.bytes));
      expect(await readBlob(b.inputs, key)).toEqual(Buffer.from(image.bytes));
      // Its task still waits: the input goes to the store and leaves Redis.
      const end = Date.now() + 10_000;
      while (await direct.exists(`atelier:input:${key}`) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      expect(await direct.exists(`atelier:input:${key}`)).toBe(0);
      expect(await readBlob(store, key)).toEqual(Buffer.from(image.bytes));
      expect(await readBlob(b.inputs, key)).toEqual(Buffer.from(image.bytes));
      // Over the budget (10 bytes): straight to the store, as without the ingress.
      const big = { ...image, bytes: new Uint8Array(20).fill(7) };
      const direct2 = await b.submit('slug-d', {}, { image: big });
      expect(await direct.exists(`atelier:input:${direct2.id}/image`)).toBe(0);
      expect(await readBlob(store, `${direct2.id}/image`)).toEqual(Buffer.from(big.bytes));
      // Outcomes delete the inputs wherever they are.
      for (const id of [staged.id, direct2.id]) {
        const c = (await b.claim('engine-1', LEASE_MS))!;
        expect(c.id).toBe(id);
        expect(await b.complete(c, [])).toBe(true);
        expect(await b.inputs.open(`${id}/image`)).toBeUndefined();
      }
      // A staged input whose task was claimed before its move stays in Redis for the claimant, then goes with the outcome.
      const quick = await b.submit('slug-d', {}, { image });
      const claimed = (await b.claim('engine-1', LEASE_MS))!;
      expect(claimed.id).toBe(quick.id);
      expect(await readBlob(b.inputs, `${quick.id}/image`)).toEqual(Buffer.from(image.bytes));
      expect(await b.complete(claimed, [])).toBe(true);
      await new Promise((r) => setTimeout(r, 300));
      expect(await direct.exists(`atelier:input:${quick.id}/image`)).toBe(0);
      expect(await store.open(`${quick.id}/image`)).toBeUndefined();
    } finally {
      direct.disconnect();
    }
  });

  it('answers queued and processing tasks from the queue\'s events, every field as a Redis read gives it, and a task stalled back to the queue as queued', async () => {
    const [reader, runner] = [await open(7), await open(7)];
    const plain = await open(7, { mirrorEntries: 0 }); // every poll read from Redis: the reference
    const task = await runner.submit('slug-g', { n: 2 }, { image }, runner.ownerOf('k'));
    // Each poll's answer and where it came from.
    const poll = async (id: string) => {
      const before = { ...reader.polls };
      const got = await reader.find(id);
      expect(got).toEqual(await plain.find(id));
      const from = (['done', 'mirror', 'redis'] as const).find((k) => reader.polls[k] > before[k]);
      return { status: got?.status, attempts: got?.attempts, from };
    };
    expect(await poll(task.id)).toEqual({ status: 0, attempts: 0, from: 'redis' });
    await current(reader);
    expect(await poll(task.id)).toEqual({ status: 0, attempts: 0, from: 'mirror' });
    const first = (await runner.claim('engine-1', LEASE_MS))!;
    await current(reader);
    expect(await poll(task.id)).toEqual({ status: 1, attempts: 1, from: 'mirror' }); // the 'active' event applied
    // Released with its attempt given back (data changed, then back to the queue): read again.
    await runner.release(first, true);
    await current(reader);
    expect(await poll(task.id)).toEqual({ status: 0, attempts: 0, from: 'redis' });
    // Claimed, then its engine stops renewing: the stalled check puts it back, and the mirror answers it queued again.
    (await runner.claim('engine-1', LEASE_MS))!;
    await current(reader);
    expect(await poll(task.id)).toEqual({ status: 1, attempts: 1, from: 'mirror' });
    const end = Date.now() + 10_000;
    while ((await reader.find(task.id))?.status !== 0 && Date.now() < end) await sleep(50);
    expect(await poll(task.id)).toMatchObject({ status: 0, attempts: 1 });
    // Finished on another engine: answered from memory, with the outcome the event carried.
    const again = await waitForClaim(runner, 'engine-1');
    await current(reader);
    expect(await poll(task.id)).toEqual({ status: 1, attempts: 2, from: 'mirror' });
    expect(await runner.complete(again, ['0123456789abcdef0123456789abcdef.png'])).toBe(true);
    await current(reader);
    expect(await poll(task.id)).toEqual({ status: 2, attempts: 2, from: 'done' });
  }, 30_000);

  it('never answers an engine\'s poll with an older state than another engine\'s answer before it', async () => {
    const [reader, runner] = [await open(10), await open(10)];
    const plain = await open(10, { mirrorEntries: 0 });
    // Each change is made by `runner` and then read at once through `reader`, which holds the task; then
    // again once the reader is parked, from the mirror.
    const same = async (id: string, status: number) => {
      const got = await reader.find(id);
      expect(got).toEqual(await plain.find(id));
      expect(got?.status).toBe(status);
      if (status === 2) return;
      await current(reader);
      const mirrored = reader.polls.mirror;
      expect(await reader.find(id)).toEqual(got);
      expect(reader.polls.mirror).toBe(mirrored + 1);
    };
    for (let i = 0; i < 12; i++) {
      const t = await runner.submit('slug-j', { i }, {});
      await same(t.id, 0);
      const c = (await runner.claim('engine-1', LEASE_MS))!;
      await same(t.id, 1);
      await runner.release(c, true);
      await same(t.id, 0);
      const again = (await runner.claim('engine-1', LEASE_MS))!;
      await same(t.id, 1);
      expect(await runner.complete(again, [])).toBe(true);
      await same(t.id, 2);
    }
  }, 30_000);

  it('reads Redis whenever the event reader may have missed an event: between two reads, while its connection is down, after events trimmed unread', async () => {
    const reader = await open(8);
    const eventsId = (await clients(8)).find((c) => c.name === 'atelier-events')!.id;
    const runner = await open(8);
    const plain = await open(8, { mirrorEntries: 0 });
    const others = new Set((await clients(8)).filter((c) => c.name === 'atelier-events' && c.id !== eventsId).map((c) => c.id));
    const direct = new Redis(`${url}/8`);
    try {
      const [a, b, c] = [await runner.submit('slug-h', {}, {}), await runner.submit('slug-h', {}, {}), await runner.submit('slug-h', {}, {})];
      for (const t of [a, b, c]) expect((await reader.find(t.id))?.status).toBe(0);
      await current(reader);
      // Between reads: an event wakes the reader, and a claim made by hand (one script, as BullMQ's) lands
      // before its next XREAD is parked.
      await direct.pipeline()
        .xadd('atelier:tasks:events', '*', 'event', 'noise')
        .eval(`redis.call('LREM', KEYS[1], 0, ARGV[1]); redis.call('LPUSH', KEYS[2], ARGV[1]); redis.call('HINCRBY', KEYS[3], 'ats', 1)
          redis.call('XADD', KEYS[4], '*', 'event', 'active', 'jobId', ARGV[1], 'prev', 'waiting')`,
        4, 'atelier:tasks:wait', 'atelier:tasks:active', `atelier:tasks:${a.id}`, 'atelier:tasks:events', a.id)
        .exec();
      expect(await reader.find(a.id)).toEqual({ ...(await plain.find(a.id)), status: 1 });
      await current(reader);
      const fromMirror = reader.polls.mirror;
      expect((await reader.find(a.id))?.status).toBe(1);
      expect(reader.polls.mirror).toBe(fromMirror + 1);
      await direct.multi().lrem('atelier:tasks:active', 0, a.id).lpush('atelier:tasks:wait', a.id).exec(); // put back (the hand-made claim has no lock)
      await direct.xadd('atelier:tasks:events', '*', 'event', 'waiting', 'jobId', a.id, 'prev', 'active');
      // Connection down: the reader's socket closed by Redis, then a claim.
      await current(reader);
      expect((await reader.find(b.id))?.status).toBe(0);
      await direct.client('KILL', 'ID', eventsId);
      const claimed = (await runner.claim('engine-1', LEASE_MS))!;
      expect((await reader.find(claimed.id))?.status).toBe(1);
      expect(await reader.find(claimed.id)).toEqual(await plain.find(claimed.id));
      // Trimmed unread: down again, another claim, its events trimmed before the reader is back.
      await current(reader);
      const next = (await clients(8)).find((x) => x.name === 'atelier-events' && x.id !== eventsId && !others.has(x.id))!.id;
      const waiting = [a, b, c].find((t) => t.id !== claimed.id && t.id !== a.id)!;
      await current(reader);
      expect((await reader.find(waiting.id))?.status).toBe(0);
      await direct.client('KILL', 'ID', next);
      await runner.claim('engine-1', LEASE_MS);
      const taken = (await plain.find(waiting.id))?.status === 1 ? waiting : a;
      await direct.xtrim('atelier:tasks:events', 'MAXLEN', 0);
      await sleep(300);
      await current(reader);
      expect(await reader.find(taken.id)).toEqual(await plain.find(taken.id));
      expect((await reader.find(taken.id))?.status).toBe(1);
    } finally {
      direct.disconnect();
    }
  }, 30_000);

  it('keeps no task read as of an event older than one it has already applied', async () => {
    const conn = new Redis(`${url}/11`, { maxRetriesPerRequest: null });
    const direct = new Redis(`${url}/11`);
    const mirror = new RedisTaskMirror<object>(conn, 'atelier:tasks:events', { entries: 10, maxAgeMs: 5000, blockMs: 1000, now: Date.now }, () => {});
    try {
      const before = await direct.xadd('atelier:tasks:events', '*', 'event', 'noise') as string;
      await mirror.start();
      const entry = (id: string) => ({ id, status: 0 as const, data: {}, timestamp: 0, ats: 0 });
      mirror.put(entry('y'), before);
      expect(mirror.has('y')).toBe(true); // nothing later applied yet
      mirror.drop('y');
      const after = await direct.xadd('atelier:tasks:events', '*', 'event', 'noise') as string;
      // Once the reader has applied `after`, an entry as of `before` could miss a later event: not kept.
      const end = Date.now() + 5000;
      for (;;) {
        mirror.put(entry('y'), before);
        if (!mirror.has('y')) break;
        mirror.drop('y');
        if (Date.now() > end) throw new Error('an entry as of an older event was still kept 5 s after a later one');
        await sleep(5);
      }
      mirror.put(entry('x'), after);
      expect(mirror.has('x')).toBe(true);
    } finally {
      await mirror.close();
      direct.disconnect();
    }
  });

  it('keeps at most its entry budget, each for five seconds from its Redis read', async () => {
    let now = Date.now();
    const reader = await open(9, { mirrorEntries: 2, now: () => now });
    const runner = await open(9);
    const tasks = [await runner.submit('slug-i', {}, {}), await runner.submit('slug-i', {}, {}), await runner.submit('slug-i', {}, {})];
    for (const t of tasks) await reader.find(t.id);
    await current(reader);
    const from = async (id: string) => {
      const before = { ...reader.polls };
      await reader.find(id);
      return reader.polls.mirror > before.mirror ? 'mirror' : 'redis';
    };
    expect([await from(tasks[2].id), await from(tasks[1].id), await from(tasks[0].id)]).toEqual(['mirror', 'mirror', 'redis']);
    now += 4999;
    expect(await from(tasks[0].id)).toBe('mirror'); // read again just above, 4999 ms ago
    now += 1;
    expect(await from(tasks[0].id)).toBe('redis');
  });

  it('stops the start plainly when Redis does not answer', async () => {
    const port = await freePort();
    await expect(RedisTaskBackend.open({ url: `redis://127.0.0.1:${port}`, leaseMs: LEASE_MS, retentionMs: 1000, inputs, connectTimeoutMs: 1500 }))
      .rejects.toThrow(/did not answer/);
  });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `b`'s event reader has an XREAD parked (the mirror may answer). */
async function current(b: RedisTaskBackend) {
  const mirror = (b as unknown as { mirror: { current(): boolean } }).mirror;
  const end = Date.now() + 5000;
  while (!mirror.current()) {
    if (Date.now() > end) throw new Error('the event reader was not parked within 5 s');
    await sleep(5);
  }
}

/** The server's clients on database `db`: id and name. */
async function clients(db: number) {
  const direct = new Redis(url);
  try {
    const list = (await direct.client('LIST')) as string;
    return list.trim().split('\n').map((line) => Object.fromEntries(line.split(' ').map((kv) => kv.split('=') as [string, string])))
      .filter((c) => c.db === String(db)).map((c) => ({ id: c.id, name: c.name }));
  } finally {
    direct.disconnect();
  }
}

async function waitForClaim(b: RedisTaskBackend, holder: string) {
  const end = Date.now() + 20_000;
  while (Date.now() < end) {
    const c = await b.claim(holder, LEASE_MS);
    if (c) return c;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('no claim within 20 s');
}
