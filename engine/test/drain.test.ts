/** SIGTERM on a real engine process: the drain keeps answering while in-flight work finishes. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { testDataDir, form, get, pollTask, post, solidPng, startTestEngine, testSlowEffect, until, waitReady, TEST_KEY, type TestEngine } from './helpers.ts';

const FACE_BEAUTY = '/api/portrait/effects/face-beauty';
const BEARD_REMOVAL = '/api/portrait/editing/ai-beard-removal';
const children: ChildProcess[] = [];
const engines: TestEngine[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  await Promise.all(engines.splice(0).map((e) => e.close().catch(() => {})));
});

/** Starts engine-process.ts with test-slow on face-beauty (sync) and ai-beard-removal (async). */
async function engineProcess(env: Record<string, string> = {}) {
  const dataDir = testDataDir();
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./engine-process.ts', import.meta.url).pathname], {
    env: {
      ...process.env, ATELIER_DATA_DIR: dataDir, ATELIER_API_KEYS: TEST_KEY, ATELIER_ENGINE_PORT: '0', ATELIER_WORKERS: '1',
      ATELIER_TEST_EFFECTS: JSON.stringify({ 'face-beauty': 'test-slow', 'ai-beard-removal': 'test-slow' }), ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`the engine exited (${code}): ${out}`)));
  });
  const e = { url, dataDir } as TestEngine;
  await waitReady(e);
  return { e, child, exit, dataDir };
}


const health = async (e: TestEngine) => (await get(e, '/healthz', {})).body;
const taskStatuses = (dataDir: string) => {
  const db = new Database(path.join(dataDir, 'tasks.sqlite'), { readonly: true });
  try { return Object.fromEntries((db.prepare('SELECT id, status FROM tasks').all() as { id: string; status: number }[]).map((r) => [r.id, r.status])); }
  finally { db.close(); }
};

describe('SIGTERM drain', () => {
  it('answers 503 with Retry-After and reports shutting_down while in-flight work finishes; queued tasks stay queued', async () => {
    const { e, child, exit, dataDir } = await engineProcess({ ATELIER_DRAIN_TIMEOUT_MS: '120000' });
    const inFlight = post(e, FACE_BEAUTY, form({ image: await solidPng(100, 20) })); // 10 s on the one worker
    inFlight.catch(() => {}); // awaited below; an early failure of the test must not leave it unhandled
    await until('the request to run', async () => (await health(e)).workers.idle === 0);
    const tasks = [];
    for (let i = 0; i < 2; i++) tasks.push((await post(e, BEARD_REMOVAL, form({ image: await solidPng(20, 20) }))).body.task_id as string);

    child.kill('SIGTERM');
    await until('/healthz to say shutting_down', async () => (await health(e)).status === 'shutting_down');
    const refused = await post(e, FACE_BEAUTY, form({ image: await solidPng(20, 20) }));
    expect(refused.status).toBe(503);
    expect(refused.body.error_detail.code).toBe('ERROR_INSUFFICIENT_RESOURCES');
    expect(refused.body.request_id).toMatch(/\S/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // An upload still being sent when the 503 comes must get the 503 too, not a broken connection.
    const big = await post(e, FACE_BEAUTY, form({ image: Buffer.alloc(3_000_000, 1) }));
    expect(big.status).toBe(503);

    const done = await inFlight;
    expect(done.status).toBe(200);
    expect(done.body.data.image_url).toMatch(/\/results\//);
    expect(await exit).toBe(0);

    // The first task may have run during the drain; the second was never started and is still queued.
    const statuses = taskStatuses(dataDir);
    expect(statuses[tasks[1]]).toBe(0);
    const next = await startTestEngine({ dataDir, extraEffects: { 'ai-beard-removal': testSlowEffect } });
    engines.push(next);
    for (const id of tasks) {
      const r = await pollTask(next, id, 60_000);
      expect(r.body.task_status, id).toBe(2);
      expect(r.body.data.result_urls).toHaveLength(1);
    }
  });

  it('stops draining after ATELIER_DRAIN_TIMEOUT_MS; the task it cut off runs again at the next start', async () => {
    const { e, child, exit, dataDir } = await engineProcess({ ATELIER_DRAIN_TIMEOUT_MS: '1000' });
    const inFlight = post(e, FACE_BEAUTY, form({ image: await solidPng(600, 20) })).catch((err) => err as Error); // a minute
    await until('the request to run', async () => (await health(e)).workers.idle === 0);
    const task = (await post(e, BEARD_REMOVAL, form({ image: await solidPng(20, 20) }))).body.task_id as string;
    const killed = Date.now();
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(Date.now() - killed).toBeLessThan(30_000); // far less than the minute the request needed
    expect(await inFlight).toBeInstanceOf(Error); // cut off
    const next = await startTestEngine({ dataDir, extraEffects: { 'ai-beard-removal': testSlowEffect } });
    engines.push(next);
    expect((await pollTask(next, task, 60_000)).body.task_status).toBe(2);
  });
});
