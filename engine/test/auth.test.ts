/**
 * The key is enforced per route: no spelling of a contract path reaches an effect without it. Requests go
 * out on raw sockets (node:http sends the path as written; fetch would normalise it first).
 */
import http from 'node:http';
import FormData from 'form-data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointList } from '../../contract/index.ts';
import { solidPng, startTestEngine, testInvertEffect, TEST_KEY, type TestEngine } from './helpers.ts';

const COMMODITY = '/api/cutout/general/commodity-background-removal';
const BEARD_REMOVAL = '/api/portrait/editing/ai-beard-removal';
const QUERY = '/api/common/query-async-task-result';
// The test processor stands in for a real effect on one sync and one async path, so a bypass would answer 200.
const testEffects = { 'commodity-background-removal': testInvertEffect, 'ai-beard-removal': testInvertEffect };

let e: TestEngine;
let png: Buffer;
beforeAll(async () => {
  e = await startTestEngine({ extraEffects: testEffects });
  png = await solidPng(40, 30);
});
afterAll(async () => { await e.close(); });

interface RawAnswer { status: number; body: string }

/** One request with the path exactly as given. */
function raw(method: string, rawPath: string, headers: Record<string, string> = {}, body?: FormData): Promise<RawAnswer> {
  const { hostname, port } = new URL(e.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, method, path: rawPath, headers: { ...headers, ...body?.getHeaders() } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    if (body) req.end(body.getBuffer()); else req.end();
  });
}

const withImage = () => { const f = new FormData(); f.append('image', png, 'photo.png'); return f; };
const encodeAll = (s: string) => [...s].map((c) => (c === '/' ? c : `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`)).join('');

/** Spellings of one path that a router or a proxy might take for it. */
function spellings(p: string): string[] {
  const tail = p.slice('/api'.length);
  const segs = p.split('/').filter(Boolean);
  return [
    `/%61pi${tail}`, `/%41PI${tail}`, `/%2561pi${tail}`, `/a%70i${tail}`, encodeAll(p),
    `/api${tail.replace(/\//g, '%2F')}`, `/api${tail.replace(/\//g, '%2f')}`, `/%2Fapi${tail}`,
    `//api${tail}`, `/api/${tail}`, `${p.replace(/\//g, '//')}`,
    `/./api${tail}`, `/api/.${tail}`, `/x/../api${tail}`, `/api/x/..${tail}`, `/%2e/api${tail}`, `/api/%2e%2e/api${tail}`,
    `/api;x${tail}`, `/api;${tail}`, `${p};`, `${p};jsessionid=1`, `/${segs[0]};/${segs.slice(1).join('/')}`,
    `/API${tail}`, `/Api${tail}`, p.toUpperCase(), `${p}/`, `${p}%20`, `${p}%00`, `${p}#x`, `/api\\${tail.slice(1)}`,
  ];
}

describe('authentication is bound to the routes', () => {
  it('the router does decode spellings (so a prefix check on the URL text could be walked around)', async () => {
    const r = await raw('POST', `/%61pi${COMMODITY.slice(4)}`, { 'service-api-key': TEST_KEY }, withImage());
    expect(r.status).toBe(200);
  });

  it('answers 401 or 404, never 2xx, to every spelling of every contract path without a key', async () => {
    const seen = new Map<number, number>();
    for (const ep of endpointList) {
      const query = ep.method === 'GET' ? '?task_id=0123456789abcdef0123456789abcdef' : '';
      for (const p of [ep.path, ...spellings(ep.path)]) {
        const r = await raw(ep.method, p + query, {}, ep.method === 'POST' ? withImage() : undefined);
        expect([401, 404], `${ep.method} ${p} answered ${r.status}: ${r.body}`).toContain(r.status);
        if (r.status === 401) expect(JSON.parse(r.body).error_detail.code).toBe('ERROR_INVALID_API_KEY');
        seen.set(r.status, (seen.get(r.status) ?? 0) + 1);
      }
    }
    // Both outcomes occur: some spellings are the route itself (401), others are no route (404).
    expect(seen.get(401)).toBeGreaterThan(endpointList.length);
    expect(seen.get(404)).toBeGreaterThan(0);
  });

  it('guards the wrong-method answers of contract paths too', async () => {
    for (const p of [COMMODITY, `/%61pi${COMMODITY.slice(4)}`]) {
      const r = await raw('GET', p);
      expect(r.status, p).toBe(401);
    }
  });

  it('leaves health, docs and results open', async () => {
    expect((await raw('GET', '/healthz')).status).toBe(200);
    expect((await raw('GET', '/openapi.json')).status).toBe(200);
    expect((await raw('GET', '/results/0123456789abcdef0123456789abcdef.png')).status).toBe(404);
  });
});

describe('the AILabTools SDK key header', () => {
  /** A client shaped like the official Node SDK: form-data multipart, `ailabapi-api-key`, polling on task_status. */
  async function sdkCall(path: string, key: string): Promise<{ status: number; body: any }> {
    const r = await raw('POST', path, { 'ailabapi-api-key': key }, withImage());
    return { status: r.status, body: JSON.parse(r.body) };
  }
  async function sdkPoll(taskId: string, key: string) {
    for (let i = 0; i < 300; i++) {
      const r = await raw('GET', `${QUERY}?task_id=${taskId}`, { 'ailabapi-api-key': key });
      const body = JSON.parse(r.body);
      if (body.task_status === 2 || r.status !== 200) return { status: r.status, body };
      await new Promise((res) => setTimeout(res, 100));
    }
    throw new Error('the task did not complete');
  }

  it('is accepted as the key: a sync cutout, an async task and its polling', async () => {
    const sync = await sdkCall(COMMODITY, TEST_KEY);
    expect(sync.status).toBe(200);
    expect(sync.body.data.image_url).toMatch(/\/results\/[a-f0-9]{32}\.png$/);

    const submitted = await sdkCall(BEARD_REMOVAL, TEST_KEY);
    expect(submitted.status).toBe(200);
    const done = await sdkPoll(submitted.body.task_id, TEST_KEY);
    expect(done.body.task_status).toBe(2);
    expect(done.body.data.result_urls).toHaveLength(1);
  });

  it('is checked like the key: a wrong one is 401, and service-api-key wins when both are sent', async () => {
    const wrong = await sdkCall(COMMODITY, 'not-the-key');
    expect(wrong.status).toBe(401);
    expect(wrong.body.error_detail.message).toContain('ailabapi-api-key');
    const both = await raw('POST', COMMODITY, { 'service-api-key': 'not-the-key', 'ailabapi-api-key': TEST_KEY }, withImage());
    expect(both.status).toBe(401);
  });

  it('can be switched off', async () => {
    const strict = await startTestEngine({ extraEffects: testEffects, acceptSdkKeyHeader: false });
    try {
      const { hostname, port } = new URL(strict.url);
      const status = await new Promise<number>((resolve, reject) => {
        const f = withImage();
        const req = http.request({ host: hostname, port, method: 'POST', path: COMMODITY, headers: { 'ailabapi-api-key': TEST_KEY, ...f.getHeaders() } },
          (res) => { res.resume(); resolve(res.statusCode ?? 0); });
        req.on('error', reject);
        req.end(f.getBuffer());
      });
      expect(status).toBe(401);
    } finally {
      await strict.close();
    }
  });
});
