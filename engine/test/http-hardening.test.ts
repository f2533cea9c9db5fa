/** The engine over real HTTP, against inputs a fuzzer sends: odd queries, methods, corrupt images, raw sockets. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, startTestEngine, waitReady, type TestEngine } from './helpers.ts';

const QUERY = '/api/common/query-async-task-result';
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
