/**
 * Sync requests and the worker pool: the waiting-job limit holds while bodies are still uploading, and
 * the work of a client that has gone is dropped or stopped.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { get, post, form, solidPng, startTestEngine, testInvertEffect, testSlowEffect, waitReady, TEST_KEY, type TestEngine } from './helpers.ts';

const FACE_BEAUTY = '/api/portrait/effects/face-beauty';
const engines: TestEngine[] = [];
const start = async (o = {}) => { const e = await startTestEngine(o); engines.push(e); return e; };
const uploads: { abort(): void }[] = [];
afterEach(async () => {
  for (const u of uploads.splice(0)) u.abort(); // an upload left trickling would hold the close open
  await Promise.all(engines.splice(0).map((e) => e.close().catch(() => {})));
});

interface Answer { status: number; retryAfter: string | undefined; body: any }

/**
 * A multipart upload sent by hand, like a client on a slow link: the image goes out at once, then a
 * padding field trickles in (1 KB every 100 ms) until finish() closes the form or abort() drops the socket.
 */
function slowUpload(e: TestEngine, path: string, image: Buffer) {
  const b = `atelier${randomBytes(8).toString('hex')}`;
  const req = http.request(`${e.url}${path}`, {
    method: 'POST',
    headers: { 'service-api-key': TEST_KEY, 'content-type': `multipart/form-data; boundary=${b}` },
  });
  req.on('error', () => {}); // abort() and early answers end the socket under the writer
  req.write(`--${b}\r\ncontent-disposition: form-data; name="image"; filename="a.png"\r\ncontent-type: image/png\r\n\r\n`);
  req.write(image);
  req.write(`\r\n--${b}\r\ncontent-disposition: form-data; name="note"\r\n\r\n`);
  const drip = setInterval(() => { if (!req.destroyed) req.write('x'.repeat(1024)); }, 100);
  let answered: Answer | undefined;
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      clearInterval(drip);
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        answered = { status: res.statusCode!, retryAfter: res.headers['retry-after'] as string | undefined, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') };
        resolve(answered);
      });
      res.on('error', reject);
    });
  });
  const upload = {
    answer,
    get answered() { return answered; },
    finish() { clearInterval(drip); if (!req.destroyed) req.end(`\r\n--${b}--\r\n`); return answer; },
    abort() { clearInterval(drip); req.destroy(); },
  };
  uploads.push(upload);
  return upload;
}

async function until(what: string, ok: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await ok()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const health = async (e: TestEngine) => (await get(e, '/healthz', {})).body;

describe('sync admission', () => {
  it('counts slow uploads against the waiting limit: the excess get 429 with Retry-After while still uploading', async () => {
    const e = await start({ workers: 1, maxWaitingJobs: 2, extraEffects: { 'face-beauty': testInvertEffect } });
    const img = await solidPng(40, 30);
    const clients: ReturnType<typeof slowUpload>[] = [];
    for (let i = 0; i < 8; i++) {
      clients.push(slowUpload(e, FACE_BEAUTY, img));
      await new Promise((r) => setTimeout(r, 50));
    }
    // Six of the eight should be turned away while their bodies still trickle in; without a place
    // reserved at admission none is, and all eight end up waiting for the one worker.
    await until('six early refusals', () => clients.filter((u) => u.answered).length >= 6, 15_000).catch(() => {});
    const answers = await Promise.all(clients.map((u) => u.finish()));
    const refused = answers.filter((a) => a.status === 429);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 429, 429, 429, 429, 429, 429]);
    expect(refused[0].body.error_detail.code).toBe('EXCEEDING_LIMITS');
    expect(Number(refused[0].retryAfter)).toBeGreaterThan(0);
    expect((await health(e)).workers.waiting).toBe(0);
  });

  it('gives the place back after a validation error, an aborted upload and a timeout (success: above)', async () => {
    const e = await start({ workers: 1, maxWaitingJobs: 1, syncTimeoutMs: 100, extraEffects: { 'face-beauty': testInvertEffect } });
    const img = await solidPng(40, 30);
    const invalid = await post(e, FACE_BEAUTY, form({ image: img, sharp: '5' }));
    expect(invalid.status).toBe(400);
    const dropped = slowUpload(e, FACE_BEAUTY, img);
    await until('the dropped upload to be admitted', async () => (await health(e)).workers.waiting === 1);
    dropped.abort();
    await until('its place to come back', async () => (await health(e)).workers.waiting === 0);
    const timedOut = await post(e, FACE_BEAUTY, form({ image: img })); // test-invert pauses 300 ms; the budget is 100
    expect(timedOut.status).toBe(504);
    const last = slowUpload(e, FACE_BEAUTY, img);
    await until('the last upload to be admitted', async () => (await health(e)).workers.waiting === 1);
    expect(last.answered).toBeUndefined();
    expect((await last.finish()).status).toBe(504);
    expect((await health(e)).workers.waiting).toBe(0);
  });
});

describe('clients that leave', () => {
  it('drops the waiting jobs and stops the running ones of clients gone after uploading; later requests are served', async () => {
    const e = await start({ workers: 2, extraEffects: { 'face-beauty': testSlowEffect } });
    await waitReady(e);
    const minute = await solidPng(600, 30); // test-slow: 60 s each, 4 minutes of work for two workers
    const clients = Array.from({ length: 8 }, () => new AbortController());
    const sent = clients.map((c) => fetch(`${e.url}${FACE_BEAUTY}`, {
      method: 'POST', body: form({ image: minute }), headers: { 'service-api-key': TEST_KEY }, signal: c.signal,
    }).catch(() => undefined));
    await until('both workers busy and six jobs waiting', async () => {
      const { workers } = await health(e);
      return workers.idle === 0 && workers.waiting === 6;
    });
    for (const c of clients) c.abort();
    await Promise.all(sent);
    // Nobody is left to answer: the workers should be free again long before the minute one job takes.
    await until('the workers to be idle with nothing waiting', async () => {
      const { workers } = await health(e);
      return workers.idle === 2 && workers.waiting === 0;
    }, 30_000);
    const next = await post(e, FACE_BEAUTY, form({ image: await solidPng(16, 16) }));
    expect(next.status).toBe(200);
  });
});
