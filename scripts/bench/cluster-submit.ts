/**
 * Where a cluster request's time goes (issue 36): starts Redis and Ceph's S3 gateway on loopback as the
 * cluster test does, then times, alone and many times over, each step a submit takes (Redis round trip,
 * the pending count, BullMQ's add, an input written to S3 or to Redis), a task poll (BullMQ's two reads
 * against the backend's one script) and a result read (S3 GET against the engine's cache of copies), and the
 * endpoints themselves on one embedded engine and two cluster engines (result cache off, and on: the
 * default), alternating requests so all see the same machine.
 *
 *   nice -n 19 npx tsx scripts/bench/cluster-submit.ts [repetitions=40]
 *
 * ATELIER_BENCH_SERVICES=<file> uses services already up (a JSON file: { env, redisUrl, s3 }) instead.
 *
 * Prints medians and p95 per step and per endpoint, with the load average before and after.
 */
import fs from 'node:fs';
import os from 'node:os';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Job, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import {
  CachedBlobStore, httpForm as form, httpGet as get, httpPost as post, INPUT_KEY, prepareBucket, readBlob, RedisTaskBackend, RESULT_NAME,
  s3Client, S3BlobStore, type SharedServices, solidPng, spawnEngineProcess, startSharedServices, TEST_KEY, testDataDir, type TestEngine,
} from '../../engine/for-scripts.ts';

const N = Number(process.argv[2] ?? 40);
const SYNC = '/api/portrait/effects/face-beauty';
const ASYNC = '/api/portrait/editing/ai-beard-removal';
const QUERY = '/api/common/query-async-task-result';

const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { p50: +at(0.5).toFixed(2), p95: +at(0.95).toFixed(2), min: +s[0].toFixed(2), n: s.length };
};
async function timeEach(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    out.push(performance.now() - t0);
  }
  return out;
}

const children: ChildProcess[] = [];
async function startEngine(name: string, env: Record<string, string>): Promise<TestEngine> {
  const { url } = await spawnEngineProcess(name, testDataDir(), TEST_KEY, { ATELIER_MAX_QUEUED_TASKS: '1000', ...env }, children);
  return { url } as TestEngine;
}

// ATELIER_BENCH_SERVICES: a JSON file ({ env, redisUrl, s3 }) naming services already up, to measure again without a restart.
const given = process.env.ATELIER_BENCH_SERVICES;
const shared: Pick<SharedServices, 'env' | 'redisUrl' | 's3' | 'stop'> = given
  ? { ...JSON.parse(fs.readFileSync(given, 'utf8')), stop: async () => {} }
  : await startSharedServices(testDataDir('atelier-bench-cluster-'));
try {
  console.log(`services up; load average ${load()}`);
  const steps: Record<string, number[]> = {};
  const redis = new Redis(shared.redisUrl, { maxRetriesPerRequest: null });
  const s3 = s3Client({ ...shared.s3, region: 'us-east-1', forcePathStyle: true });
  const inputs = new S3BlobStore(s3, shared.s3.bucket, 'inputs/', INPUT_KEY);
  const queue = new Queue('bench', { connection: redis, prefix: 'atelier-bench' });
  const small = await solidPng(5, 8);
  const photo = randomBytes(300 * 1024);
  const key = () => `${randomBytes(16).toString('hex')}/image`;
  // As an engine's start does: the bucket made, and its first write (Ceph makes its data pool there) done.
  await prepareBucket(s3, shared.s3.bucket, ['inputs/', 'results/'], 24 * 3600_000);
  steps['first S3 PUT after the start\'s'] = await timeEach(1, async () => { await inputs.save(key(), small); });
  steps['first queue.add (script load)'] = await timeEach(1, () => queue.add('x', { slug: 'x' }, { jobId: `a${randomBytes(15).toString('hex')}` }));
  for (let round = 0; round < N; round++) {
    const add = async (name: string, fn: () => Promise<unknown>) => { (steps[name] ??= []).push(...await timeEach(1, fn)); };
    await add('redis PING', () => redis.ping());
    await add('pending count (getJobCounts x4 states)', () => queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active'));
    await add('queue.add', () => queue.add('x', { slug: 'x', params: {}, images: { image: { key: key() } } }, { jobId: `a${randomBytes(15).toString('hex')}`, removeOnComplete: { age: 86400 } }));
    await add(`S3 PUT ${small.length} B`, () => inputs.save(key(), small));
    await add('S3 PUT 300 KB', () => inputs.save(key(), photo));
    await add(`redis SET ${small.length} B`, () => redis.set(`atelier-bench:in:${key()}`, small, 'PX', 60_000));
    await add('redis SET 300 KB', () => redis.set(`atelier-bench:in:${key()}`, photo, 'PX', 60_000));
    await add(`redis MULTI SET ${small.length} B + queue.add`, async () => {
      const k = key();
      await redis.multi().set(`atelier-bench:in:${k}`, small, 'PX', 60_000).exec();
      await queue.add('x', { slug: 'x' }, { jobId: `a${randomBytes(15).toString('hex')}` });
    });
  }
  // A task poll and a result read, as an engine makes them: the backend on the engines' own queue (its task
  // removed before the engines start), BullMQ's reads as the poll made them before, the store and its cache.
  const backend = await RedisTaskBackend.open({ url: shared.redisUrl, leaseMs: 60_000, retentionMs: 24 * 3600_000, inputs });
  const tasksQueue = new Queue('tasks', { connection: redis, prefix: 'atelier' });
  const task = await backend.submit('bench', {}, { image: { bytes: small, format: 'png', maxPixels: 1 } });
  const results = new S3BlobStore(s3, shared.s3.bucket, 'results/', RESULT_NAME);
  const cached = new CachedBlobStore(results, { maxBytes: 64 << 20, retentionMs: 24 * 3600_000 });
  const result = `${randomBytes(16).toString('hex')}.png`;
  await cached.save(result, photo);
  for (let round = 0; round < N; round++) {
    const add = async (name: string, fn: () => Promise<unknown>) => { (steps[name] ??= []).push(...await timeEach(1, fn)); };
    await add('task poll: Job.fromId + getState (before)', async () => { const job = await Job.fromId(tasksQueue, task.id); if (!job?.finishedOn) await job!.getState(); });
    await add('task poll: backend.find (one script)', () => backend.find(task.id));
    await add('result read 300 KB: S3 GET', () => readBlob(results, result));
    await add('result read 300 KB: cached copy', () => readBlob(cached, result));
  }
  await tasksQueue.obliterate({ force: true });
  await tasksQueue.close();
  await backend.close();
  console.log('[steps, ms]');
  for (const [k, v] of Object.entries(steps)) console.log(`  ${k.padEnd(42)} ${JSON.stringify(stats(v))}`);
  await queue.obliterate({ force: true });
  await queue.close();
  redis.disconnect();
  s3.destroy();

  console.log(`engines starting; load average ${load()}`);
  // The cluster engine reading every result from the store (its cache off), and with its cache of copies (the default).
  const [emb, uncached, cluster] = await Promise.all([
    startEngine('embedded', {}), startEngine('cluster, no result cache', { ...shared.env, ATELIER_RESULT_CACHE_MB: '0' }), startEngine('cluster', shared.env),
  ]);
  const modes = { embedded: emb, 'cluster, result cache off': uncached, cluster } as const;
  type Mode = keyof typeof modes;
  const names = Object.keys(modes) as Mode[];
  const eps = Object.fromEntries(names.map((m) => [m, {} as Record<string, number[]>])) as Record<Mode, Record<string, number[]>>;
  const time = async <T>(mode: Mode, label: string, fn: () => Promise<T>) => {
    const t0 = performance.now();
    const r = await fn();
    (eps[mode][label] ??= []).push(performance.now() - t0);
    return r;
  };
  // One warm-up request of each kind per engine, not counted.
  for (const e of Object.values(modes)) { await post(e, ASYNC, form({ image: small })); await post(e, SYNC, form({ image: small })); }
  const ids = Object.fromEntries(names.map((m) => [m, [] as string[]])) as Record<Mode, string[]>;
  const order = (i: number) => names.map((_, j) => names[(i + j) % names.length]);
  for (let i = 0; i < N; i++) {
    for (const mode of order(i)) {
      const r = await time(mode, 'POST async', () => post(modes[mode], ASYNC, form({ image: small })));
      if (r.status !== 200) throw new Error(`${mode}: ${r.status} ${JSON.stringify(r.body)}`);
      ids[mode].push(r.body.task_id);
      await new Promise((res) => setTimeout(res, 20));
    }
  }
  for (let i = 0; i < Math.ceil(N / 2); i++) {
    for (const mode of order(i)) {
      const r = await time(mode, 'POST sync', () => post(modes[mode], SYNC, form({ image: small })));
      if (r.status !== 200) throw new Error(`${mode}: sync ${r.status}`);
      const url = new URL(r.body.data.image_url).pathname;
      // Reads and polls are a few ms each: several per turn, so their medians rest on more than the load's noise.
      for (let k = 0; k < 2; k++) await time(mode, 'GET /results/…', async () => { const res = await fetch(`${modes[mode].url}${url}`); await res.arrayBuffer(); });
      for (let k = 0; k < 4; k++) await time(mode, 'GET task result', () => get(modes[mode], `${QUERY}?task_id=${ids[mode][(i + k * 7) % ids[mode].length]}`));
    }
  }
  console.log(`[endpoints, ms: one engine each, one worker, requests taking turns] load average ${load()}`);
  for (const label of Object.keys(eps.embedded)) {
    const e = stats(eps.embedded[label]);
    console.log(`  ${label}`);
    for (const m of names) {
      const c = stats(eps[m][label]);
      console.log(`    ${m.padEnd(30)} ${JSON.stringify(c)}  p50 ratio to embedded ${(c.p50 / e.p50).toFixed(2)}`);
    }
  }
} finally {
  for (const c of children) c.kill('SIGKILL');
  await shared.stop();
}
process.exit(0);
