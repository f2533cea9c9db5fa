/**
 * A wrong method answers 405 with Allow whatever its body: the body is not parsed first (a JSON, XML or
 * broken body used to fail its content-type parser with 400 before the 405 route ran).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestEngine, TEST_KEY, type TestEngine } from '../helpers.ts';

const COMMODITY = '/api/cutout/general/commodity-background-removal';
const QUERY = '/api/common/query-async-task-result';
let e: TestEngine;
beforeAll(async () => { e = await startTestEngine(); });
afterAll(async () => { await e.close(); });

const bodies: [string, string][] = [
  ['application/json', '{"image": "abc"}'],
  ['application/json', '{not json'],
  ['application/xml', '<image/>'],
  ['text/plain', 'hello'],
  ['application/octet-stream', 'x'.repeat(2 * 1024 * 1024)],
  ['application/x-www-form-urlencoded', 'image=abc'],
  ['multipart/form-data', 'no boundary'],
  ['not a media type', 'x'],
];

it('answers 405 with Allow to a wrong method, whatever the body and its content type', async () => {
  for (const [path, methods, allow] of [[COMMODITY, ['PUT', 'PATCH', 'DELETE'], 'POST'], [QUERY, ['POST', 'PUT', 'PATCH', 'DELETE'], 'GET, HEAD']] as const) {
    for (const method of methods) {
      for (const [type, body] of bodies) {
        const res = await fetch(`${e.url}${path}`, { method, body, headers: { 'service-api-key': TEST_KEY, 'content-type': type } });
        const answer = await res.json();
        const what = `${method} ${path} with ${type} ${body.slice(0, 20)}: ${JSON.stringify(answer)}`;
        expect(res.status, what).toBe(405);
        expect(answer.error_detail.code, what).toBe('ERROR_METHOD_NOT_ALLOWED');
        expect(res.headers.get('allow'), what).toBe(allow);
      }
    }
  }
});

it('still answers 401 before 405 without a key, and 400 to a right method with a wrong body', async () => {
  const res = await fetch(`${e.url}${COMMODITY}`, { method: 'PUT', body: '{}', headers: { 'content-type': 'application/json' } });
  expect(res.status).toBe(401);
  const post = await fetch(`${e.url}${COMMODITY}`, { method: 'POST', body: '{}', headers: { 'service-api-key': TEST_KEY, 'content-type': 'application/json' } });
  expect(post.status).toBe(400);
});
