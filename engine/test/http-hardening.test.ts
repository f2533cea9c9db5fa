/** The engine over real HTTP, against inputs a fuzzer sends: odd queries, methods, corrupt images, raw sockets. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, solidPng, startTestEngine, waitReady, TEST_KEY, type TestEngine } from './helpers.ts';

const QUERY = '/api/common/query-async-task-result';
const COMMODITY = '/api/cutout/general/commodity-background-removal';
const KEY = { 'service-api-key': TEST_KEY };
let e: TestEngine;

beforeAll(async () => { e = await startTestEngine(); await waitReady(e); });
afterAll(async () => { await e.close(); });

const expectError = (r: { status: number; body: any }, status: number, code: string) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.error_detail.code).toBe(code);
  expect(r.body.error_detail.code_message).not.toBe('');
  expect(r.body.error_detail.message).not.toBe('');
  expect(r.body.request_id).toMatch(/\S/);
  expect(r.body.log_id).toMatch(/\S/);
};

describe('query parameters', () => {
  it('refuses a repeated task_id with 400 naming it, whatever the values', async () => {
    for (const q of ['task_id=a&task_id=b', 'task_id=a&task_id=', 'task_id=&task_id=', 'task_id=a&task_id=a&task_id=a']) {
      const r = await get(e, `${QUERY}?${q}`);
      expectError(r, 400, 'ERROR_INVALID_PARAMETER');
      expect(r.body.error_detail.message, q).toMatch(/task_id/);
    }
  });

  it('still treats a single, empty or unknown-only query as before', async () => {
    expectError(await get(e, `${QUERY}?task_id=${'0'.repeat(32)}`), 404, 'ERROR_TASK_NOT_EXISTS');
    expectError(await get(e, `${QUERY}?task_id=`), 400, 'MISSING_PARAMETERS');
    expectError(await get(e, `${QUERY}?other=1&other=2`), 400, 'MISSING_PARAMETERS');
    expectError(await get(e, `${QUERY}?__proto__=x&constructor=y`), 400, 'MISSING_PARAMETERS');
  });
});

describe('methods', () => {
  /** One request by method; a HEAD answer has no body to parse, so the status and headers come back alone. */
  const call = async (method: string, path: string) => {
    const res = await fetch(`${e.url}${path}`, { method, headers: KEY });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
  };

  it('answers OPTIONS on a known path with 405 and Allow, and keeps 404 for unknown paths', async () => {
    const result = await e.app.services.results.save({ data: await solidPng(8, 8), format: 'png' });
    const cases: [string, string][] = [
      [COMMODITY, 'POST'], [QUERY, 'GET, HEAD'], ['/healthz', 'GET, HEAD'], [`/results/${result}`, 'GET, HEAD'], ['/openapi.json', 'GET, HEAD'],
    ];
    for (const [path, allow] of cases) {
      const r = await call('OPTIONS', path);
      expectError(r, 405, 'ERROR_METHOD_NOT_ALLOWED');
      expect(r.headers.get('allow'), path).toBe(allow);
      expect(r.body.error_detail.message, path).toContain(allow);
    }
    expectError(await call('OPTIONS', '/api/cutout/general/nothing-here'), 404, 'ERROR_AI_NOT_EXISTS');
  });

  it('puts Allow on every 405 for a wrong method', async () => {
    for (const m of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const r = await call(m, COMMODITY);
      expectError(r, 405, 'ERROR_METHOD_NOT_ALLOWED');
      expect(r.headers.get('allow'), m).toBe('POST');
    }
    for (const m of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const r = await call(m, `${QUERY}?task_id=x`);
      expectError(r, 405, 'ERROR_METHOD_NOT_ALLOWED');
      expect(r.headers.get('allow'), m).toBe('GET, HEAD');
    }
    const r = await call('DELETE', '/healthz');
    expectError(r, 405, 'ERROR_METHOD_NOT_ALLOWED');
    expect(r.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers HEAD as GET would, without a body, and 405 with Allow where GET is not served', async () => {
    const png = await solidPng(8, 8);
    const name = await e.app.services.results.save({ data: png, format: 'png' });
    const file = await call('HEAD', `/results/${name}`);
    expect(file.status).toBe(200);
    expect(file.text).toBe('');
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('content-length')).toBe(String(png.length));
    const health = await call('HEAD', '/healthz');
    expect([health.status, health.text]).toEqual([200, '']);
    expect((await call('HEAD', `${QUERY}?task_id=${'0'.repeat(32)}`)).status).toBe(404);
    expect((await call('HEAD', '/results/' + '0'.repeat(32) + '.png')).status).toBe(404);
    const post = await call('HEAD', COMMODITY);
    expect([post.status, post.text, post.headers.get('allow')]).toEqual([405, '', 'POST']);
  });
});
