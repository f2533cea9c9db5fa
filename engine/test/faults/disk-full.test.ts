/**
 * A full disk under a real engine process (data folder on a small tmpfs, see small-disk.ts): the process
 * stays up and does not spin, submits answer 503 with Retry-After and leave nothing behind, /healthz says
 * the storage is full, queued tasks wait, and work resumes once space returns, without a restart.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { form, get, pollTask, post, solidPng, until, type TestEngine } from '../helpers.ts';
import { cpuSeconds, fillDisk, smallDiskUnavailable, startSmallDiskEngine, type SmallDiskEngine } from './small-disk.ts';

const BEARD_REMOVAL = '/api/portrait/editing/ai-beard-removal';
const slowTasks = { ATELIER_TEST_EFFECTS: JSON.stringify({ 'ai-beard-removal': 'test-slow' }) };
const engines: SmallDiskEngine[] = [];
afterEach(async () => { await Promise.all(engines.splice(0).map((d) => d.stop())); });

const start = async (env: Record<string, string>) => {
  const d = await startSmallDiskEngine(24, { ...slowTasks, ...env });
  engines.push(d);
  return d;
};
const health = async (e: TestEngine) => (await get(e, '/healthz', {})).body;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function submit(d: SmallDiskEngine, image: Buffer, n = 1): Promise<string[]> {
  const ids = [];
  for (let i = 0; i < n; i++) {
    const r = await post(d.e, BEARD_REMOVAL, form({ image }));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    ids.push(r.body.task_id as string);
  }
  return ids;
}

const expectAlive = (d: SmallDiskEngine) =>
  expect(d.alive(), `the engine died (${d.child.exitCode ?? d.child.signalCode}): ${d.stderr().slice(-2000)}`).toBe(true);

/** Alive, and over `ms` of waiting on the full disk it spends well under half a core: no tight retry loop. */
async function expectWaitingQuietly(d: SmallDiskEngine, ms = 4000) {
  const before = cpuSeconds(d.child.pid!);
  await sleep(ms);
  expectAlive(d);
  expect(cpuSeconds(d.child.pid!) - before).toBeLessThan(ms / 1000 / 2);
}

async function expectRefused(d: SmallDiskEngine, image: Buffer) {
  const r = await post(d.e, BEARD_REMOVAL, form({ image }));
  expect(r.status, JSON.stringify(r.body)).toBe(503);
  expect(r.body.error_detail.code).toBe('ERROR_INSUFFICIENT_RESOURCES');
  expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
}

/** task-inputs holds only accepted tasks' folders, each with its whole input: nothing of a refused submit. */
function expectOnlyInputsOf(d: SmallDiskEngine, ids: string[], image: Buffer) {
  const dir = path.join(d.dataDir, 'task-inputs');
  for (const f of fs.readdirSync(dir)) {
    expect(ids).toContain(f);
    expect(fs.readFileSync(path.join(dir, f, 'image'))).toEqual(image);
  }
}

async function expectFullHealth(d: SmallDiskEngine) {
  const h = await health(d.e);
  expect(h.status).toBe('storage_full');
  expect(h.storage.state).toBe('full');
  expect(h.storage.message).toMatch(/\S/);
}

/** Every task completes with its result; then the storage is ok, a new task runs and nothing is left over. */
async function expectAllDone(d: SmallDiskEngine, ids: string[], image: Buffer) {
  for (const id of ids) {
    const done = await pollTask(d.e, id, 60_000);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.task_status).toBe(2);
    expect(done.body.data.result_urls).toHaveLength(1);
  }
  await until('/healthz to say the storage is ok', async () => (await health(d.e)).status === 'ok', 10_000);
  expect((await health(d.e)).storage.state).toBe('ok');
  const [again] = await submit(d, image);
  expect((await pollTask(d.e, again)).body.task_status).toBe(2);
  expect(fs.readdirSync(path.join(d.dataDir, 'task-inputs'))).toEqual([]);
  expect(fs.readdirSync(path.join(d.dataDir, 'results')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
}

describe.skipIf(smallDiskUnavailable)(`a full disk${smallDiskUnavailable ? ` (skipped: ${smallDiskUnavailable})` : ''}`, () => {
  it('keeps the engine up with tasks queued, refuses submits 503 and runs the queue once space returns', async () => {
    const d = await start({ ATELIER_MIN_FREE_MB: '2' });
    const img = await solidPng(10, 20); // 1 s per task on the one worker
    const ids = await submit(d, img, 6);
    const fill = fillDisk(d.root);
    await sleep(2000); // the running task ends on the full disk (unfixed, the queue then retried the next task on one stack until V8 aborted)
    await expectWaitingQuietly(d);

    await expectFullHealth(d);
    await expectRefused(d, img);
    expectOnlyInputsOf(d, ids, img);
    // Nothing was lost: every task is still pending, or done with its result.
    for (const id of ids) {
      const r = await get(d.e, `/api/common/query-async-task-result?task_id=${id}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }

    fs.rmSync(fill);
    await expectAllDone(d, ids, img);
  });

  it('without a reserve, the failing writes themselves: submits answer 503 leaving no folder or partial file, the queue retries calmly', async () => {
    const d = await start({ ATELIER_MIN_FREE_MB: '0' }); // no statfs check: every write is tried
    const small = await solidPng(10, 20);
    const [first] = await submit(d, small);
    expect((await pollTask(d.e, first)).body.task_status).toBe(2);
    const ids = await submit(d, small, 3);

    const fill = fillDisk(d.root);
    // 32 KB left: a larger upload starts to be written, then runs out of space.
    fs.truncateSync(fill, fs.statSync(fill).size - 32 * 1024);
    const noise = await sharp(randomBytes(150 * 150 * 3), { raw: { width: 150, height: 150, channels: 3 } }).png().toBuffer();
    expect(noise.length).toBeGreaterThan(64 * 1024);
    await expectRefused(d, noise);
    expectOnlyInputsOf(d, ids, small);
    // Nothing left: even a tiny upload finds no room.
    const more = fillDisk(path.join(d.root, 'more'));
    await expectRefused(d, small);
    expectOnlyInputsOf(d, ids, small);
    await expectWaitingQuietly(d);
    await expectFullHealth(d);

    fs.rmSync(fill);
    fs.rmSync(more);
    await expectAllDone(d, ids, small);
  });
});
