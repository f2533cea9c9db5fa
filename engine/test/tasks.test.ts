/** The async task machinery, proved with a test-only processor registered by these tests. */
import { afterEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { form, get, pollTask, post, solidPng, startTestEngine, testInvertEffect, type TestEngine } from './helpers.ts';
import { TaskStore } from '../tasks/store.ts';

const BEARD_REMOVAL = '/api/portrait/editing/ai-beard-removal';
const QUERY = '/api/common/query-async-task-result';
const withTestProcessor = { extraEffects: { 'ai-beard-removal': testInvertEffect } };
const engines: TestEngine[] = [];
const start = async (o = {}) => { const e = await startTestEngine({ ...withTestProcessor, ...o }); engines.push(e); return e; };
afterEach(async () => { await Promise.all(engines.splice(0).map((e) => e.close().catch(() => {}))); });

describe('async tasks', () => {
  it('queues, runs on a worker and answers the result URLs at task_status 2', async () => {
    const e = await start();
    const submitted = await post(e, BEARD_REMOVAL, form({ image: await solidPng(40, 30) }));
    expect(submitted.status).toBe(200);
    expect(submitted.body.task_id).toMatch(/^[a-f0-9]{32}$/);
    expect(submitted.body.error_detail.code).toBe('');
    const first = await get(e, `${QUERY}?task_id=${submitted.body.task_id}`);
    expect([0, 1]).toContain(first.body.task_status);
    expect(first.body.data).toBeUndefined();
    const done = await pollTask(e, submitted.body.task_id);
    expect(done.status).toBe(200);
    expect(done.body.task_status).toBe(2);
    expect(done.body.data.result_urls).toHaveLength(1);
    const img = await get(e, new URL(done.body.data.result_urls[0]).pathname, {});
    const { data } = await sharp(img.body as Buffer).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBe(255 - 230); // the light corner, inverted
  });

  it('completes a failed task with its error, so polling until 2 stops', async () => {
    const e = await start();
    const { body } = await post(e, BEARD_REMOVAL, form({ image: await solidPng(20, 30) }));
    const done = await pollTask(e, body.task_id);
    expect(done.status).toBe(422);
    expect(done.body.task_status).toBe(2);
    expect(done.body.data).toBeUndefined();
    expect(done.body.error_detail.code).toBe('ERROR_NO_FACE_IN_FILE');
    // The envelope's members in the order every answer has them, the task's between log_id and error_detail.
    expect(Object.keys(done.body)).toEqual(['request_id', 'log_id', 'task_id', 'task_status', 'error_detail']);
    expect(done.body.task_id).toBe(body.task_id);
  });

  it('fails a task whose worker dies, replaces the worker and keeps serving', async () => {
    const e = await start();
    const crash = await post(e, BEARD_REMOVAL, form({ image: await solidPng(21, 30) }));
    const crashed = await pollTask(e, crash.body.task_id);
    expect(crashed.body.error_detail.code).toBe('PROCESSING_FAILURE');
    expect(crashed.body.error_detail.message).not.toMatch(/\/|at /); // nothing internal
    const ok = await post(e, BEARD_REMOVAL, form({ image: await solidPng(40, 30) }));
    expect((await pollTask(e, ok.body.task_id)).body.task_status).toBe(2);
  });

  it('answers 404 ERROR_TASK_NOT_EXISTS for unknown ids and 400 without one', async () => {
    const e = await start();
    const r = await get(e, `${QUERY}?task_id=0123456789abcdef0123456789abcdef`);
    expect(r.status).toBe(404);
    expect(r.body.error_detail.code).toBe('ERROR_TASK_NOT_EXISTS');
    expect((await get(e, `${QUERY}?task_id=../../etc`)).status).toBe(404);
    const missing = await get(e, QUERY);
    expect(missing.status).toBe(400);
    expect(missing.body.error_detail.code).toBe('MISSING_PARAMETERS');
  });

  it('answers 429 with Retry-After when the queue is full', async () => {
    const e = await start({ maxQueuedTasks: 2 });
    const img = await solidPng(40, 30);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await post(e, BEARD_REMOVAL, form({ image: img })));
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0].body.error_detail.code).toBe('EXCEEDING_LIMITS');
    expect(Number(refused[0].headers.get('retry-after'))).toBeGreaterThan(0);
    for (const a of answers.filter((x) => x.status === 200)) expect((await pollTask(e, a.body.task_id)).body.task_status).toBe(2);
  });

  it('runs every queued or interrupted task again after a restart', async () => {
    const first = await start({ workers: 1 });
    const img = await solidPng(40, 30);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await post(first, BEARD_REMOVAL, form({ image: img }))).body.task_id);
    await new Promise((r) => setTimeout(r, 100)); // the first task is now processing, the others queued
    await first.close();
    engines.splice(engines.indexOf(first), 1);
    const store = new TaskStore(first.dataDir);
    const statuses = ids.map((id) => store.get(id)!.status);
    store.close();
    expect(statuses.filter((s) => s < 2).length).toBeGreaterThan(0); // some work was cut off by the stop

    const second = await start({ dataDir: first.dataDir });
    for (const id of ids) {
      const done = await pollTask(second, id);
      expect(done.body.task_status, id).toBe(2);
      expect(done.body.data.result_urls).toHaveLength(1);
    }
  });

  it('finishes in-flight requests on close', async () => {
    const e = await start({ extraEffects: { 'face-beauty': testInvertEffect } });
    const img = await solidPng(40, 30);
    const inFlight = post(e, '/api/portrait/effects/face-beauty', form({ image: img }));
    await new Promise((r) => setTimeout(r, 100));
    const closing = e.close();
    const r = await inFlight;
    expect(r.status).toBe(200);
    expect(r.body.data.image_url).toMatch(/\/results\//);
    await closing;
  });
});

describe('overload and time budget', () => {
  it('completes a task that overruns its time budget with 504 AI_SERVICE_TIMEOUT', async () => {
    const e = await start({ asyncTimeoutMs: 100 });
    const { body } = await post(e, BEARD_REMOVAL, form({ image: await solidPng(40, 30) }));
    const done = await pollTask(e, body.task_id);
    expect(done.status).toBe(504);
    expect(done.body.task_status).toBe(2);
    expect(done.body.error_detail.code).toBe('AI_SERVICE_TIMEOUT');
  });

  it('answers 503 with Retry-After while shutting down', async () => {
    const e = await start();
    e.app.services.closing = true;
    const r = await post(e, BEARD_REMOVAL, form({ image: await solidPng(40, 30) }));
    expect(r.status).toBe(503);
    expect(r.body.error_detail.code).toBe('ERROR_INSUFFICIENT_RESOURCES');
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    e.app.services.closing = false;
  });
});

describe('task store', () => {
  it('deletes tasks and their inputs after the retention time', async () => {
    const e = await start();
    await e.close();
    const store = new TaskStore(e.dataDir);
    const t = store.create('ai-beard-removal', {}, { image: { bytes: new Uint8Array([1, 2, 3]), format: 'png', maxPixels: 1 } });
    expect(store.sweep(24 * 3600_000, Date.now())).toBe(0);
    expect(store.sweep(24 * 3600_000, Date.now() + 25 * 3600_000)).toBe(1);
    expect(store.get(t.id)).toBeUndefined();
    store.close();
  });
});
