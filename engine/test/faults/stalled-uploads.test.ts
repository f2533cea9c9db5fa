/**
 * Issue 31.4 and 31.5: uploads that stall or crawl are cut off with 408 in the envelope after a bounded,
 * configurable time; uploads under way at once are bounded; an async submit counts against the queue's
 * limit from admission, not once its body is in.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { form, get, post, solidPng, startTestEngine, testInvertEffect, until, type TestEngine } from '../helpers.ts';
import { slowUpload, type SlowUpload } from './slow-client.ts';

const FACE_BEAUTY = '/api/portrait/effects/face-beauty';
const BEARD_REMOVAL = '/api/portrait/editing/ai-beard-removal';
const engines: TestEngine[] = [];
const uploads: SlowUpload[] = [];
const start = async (o = {}) => {
  const e = await startTestEngine({ extraEffects: { 'face-beauty': testInvertEffect, 'ai-beard-removal': testInvertEffect }, ...o });
  engines.push(e);
  return e;
};
const open = (...args: Parameters<typeof slowUpload>) => { const u = slowUpload(...args); uploads.push(u); return u; };
afterEach(async () => {
  for (const u of uploads.splice(0)) u.abort();
  await Promise.all(engines.splice(0).map((e) => e.close().catch(() => {})));
});
const health = async (e: TestEngine) => (await get(e, '/healthz', {})).body;

describe('stalled uploads', () => {
  it('cuts off silent sync uploads with 408 in the envelope, giving their places back', async () => {
    const e = await start({ uploadIdleTimeoutMs: 1000, maxWaitingJobs: 4 });
    const img = await solidPng(40, 30);
    const t0 = Date.now();
    const silent = Array.from({ length: 4 }, () => open(e, FACE_BEAUTY, img));
    await until('the four to be admitted', async () => (await health(e)).workers.waiting === 4, 10_000);
    const answers = await Promise.all(silent.map((u) => u.answer));
    const took = Date.now() - t0;
    for (const a of answers) {
      expect(a.status).toBe(408);
      expect(a.body.error_detail?.code).toBe('ERROR_INVALID_PARAMETER');
      expect(a.body.error_detail?.message).toMatch(/stalled/);
    }
    expect(took).toBeLessThan(8000);
    expect((await health(e)).workers.waiting).toBe(0);
    expect((await post(e, FACE_BEAUTY, form({ image: img }))).status).toBe(200);
  });

  it('cuts off a silent async upload the same way, and queues no task for it', async () => {
    const e = await start({ uploadIdleTimeoutMs: 1000 });
    const a = await open(e, BEARD_REMOVAL, await solidPng(40, 30)).answer;
    expect(a.status).toBe(408);
    expect((await health(e)).tasks.pending).toBe(0);
  });

  it('keeps an upload that pauses less than the idle bound', async () => {
    const e = await start({ uploadIdleTimeoutMs: 1500 });
    const u = open(e, FACE_BEAUTY, await solidPng(40, 30));
    u.trickle(10, 500);
    await new Promise((r) => setTimeout(r, 3000));
    expect(u.answered).toBeUndefined();
    expect((await u.finish()).status).toBe(200);
  });

  it('cuts off a crawling upload (never idle) once the whole request has taken too long', async () => {
    const e = await start({ uploadIdleTimeoutMs: 10_000, requestTimeoutMs: 2000 });
    const u = open(e, FACE_BEAUTY, await solidPng(40, 30));
    u.trickle(1, 200);
    const a = await u.answer;
    expect(a.status).toBe(408);
    expect(a.body.error_detail?.message).toMatch(/not received in time/);
    await until('its place to come back', async () => (await health(e)).workers.waiting === 0, 5000);
  });
});

describe('uploads under way at once', () => {
  it('are bounded: the excess of sync and async uploads get 429 with Retry-After', async () => {
    const e = await start({ maxUploads: 3 });
    const img = await solidPng(40, 30);
    const all = [FACE_BEAUTY, BEARD_REMOVAL, FACE_BEAUTY, BEARD_REMOVAL, FACE_BEAUTY, BEARD_REMOVAL].map((p) => {
      const u = open(e, p, img);
      u.trickle(100, 200);
      return u;
    });
    // All six are uploading at once before any finishes; the refused ones' bodies are read and dropped
    // (never kept) before their answer, so the answer reaches the client whole.
    await new Promise((r) => setTimeout(r, 1000));
    const answers = await Promise.all(all.map((u) => u.finish()));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 429, 429, 429]);
    for (const a of answers.filter((x) => x.status === 429)) {
      expect(a.body.error_detail?.code).toBe('EXCEEDING_LIMITS');
      expect(a.body.error_detail?.message).toMatch(/uploads are already under way/);
      expect(Number(a.retryAfter)).toBeGreaterThan(0);
    }
  });
});

describe('the queued-tasks limit', () => {
  it('counts async submits from admission: with the limit at 3, five of eight slow uploads are refused', async () => {
    const e = await start({ maxQueuedTasks: 3 });
    const img = await solidPng(40, 30);
    const all = Array.from({ length: 8 }, () => {
      const u = open(e, BEARD_REMOVAL, img);
      u.trickle(100, 200);
      return u;
    });
    await new Promise((r) => setTimeout(r, 1000));
    const answers = await Promise.all(all.map((u) => u.finish()));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.body.error_detail?.code).toBe('EXCEEDING_LIMITS');
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
  });
});
