/** Result URLs are built on an origin the client cannot choose: configuration, a trusted proxy, or the socket. */
import http from 'node:http';
import FormData from 'form-data';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { configFromEnv } from '../config.ts';
import { solidPng, startTestEngine, testInvertEffect, TEST_KEY, type TestEngine } from './helpers.ts';

const COMMODITY = '/api/cutout/general/commodity-background-removal';
const BEARD_REMOVAL = '/api/portrait/editing/ai-beard-removal';
const QUERY = '/api/common/query-async-task-result';
const testEffects = { 'commodity-background-removal': testInvertEffect, 'ai-beard-removal': testInvertEffect };
const SPOOFED = { host: 'evil.example', 'x-forwarded-host': 'evil.example:443', 'x-forwarded-proto': 'https' };

const engines: TestEngine[] = [];
const start = async (o = {}) => { const e = await startTestEngine({ extraEffects: testEffects, ...o }); engines.push(e); return e; };
afterEach(async () => { await Promise.all(engines.splice(0).map((e) => e.close())); });

/** A request whose Host and forwarded headers are exactly as given (fetch would not send our Host). */
function request(e: TestEngine, method: string, path: string, headers: Record<string, string>, body?: FormData): Promise<any> {
  const { hostname, port } = new URL(e.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, method, path, headers: { 'service-api-key': TEST_KEY, ...headers, ...body?.getHeaders() } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve(JSON.parse(text)));
    });
    req.on('error', reject);
    if (body) req.end(body.getBuffer()); else req.end();
  });
}
const upload = async () => { const f = new FormData(); f.append('image', await solidPng(40, 30), 'p.png'); return f; };

async function taskUrl(e: TestEngine, headers: Record<string, string>): Promise<string> {
  const { task_id } = await request(e, 'POST', BEARD_REMOVAL, headers, await upload());
  for (;;) {
    const r = await request(e, 'GET', `${QUERY}?task_id=${task_id}`, headers);
    if (r.task_status === 2) return r.data.result_urls[0];
    await new Promise((res) => setTimeout(res, 100));
  }
}

describe('result URL origin', () => {
  it('ignores Host and X-Forwarded-* from a peer that is not trusted: the address it connected to', async () => {
    const e = await start();
    const sync = await request(e, 'POST', COMMODITY, SPOOFED, await upload());
    expect(new URL(sync.data.image_url).origin).toBe(e.url);
    expect(new URL(await taskUrl(e, SPOOFED)).origin).toBe(e.url);
  });

  it('believes the forwarded host and proto of a trusted proxy', async () => {
    const e = await start({ trustProxy: ['loopback'] });
    const headers = { 'x-forwarded-host': 'studio.example:4173', 'x-forwarded-proto': 'https' };
    const sync = await request(e, 'POST', COMMODITY, headers, await upload());
    expect(new URL(sync.data.image_url).origin).toBe('https://studio.example:4173');
    expect(new URL(await taskUrl(e, headers)).origin).toBe('https://studio.example:4173');
    // Even from a trusted peer, only a scheme and a host[:port] are taken.
    const odd = await request(e, 'POST', COMMODITY, { 'x-forwarded-host': 'a.example/evil?x=', 'x-forwarded-proto': 'javascript' }, await upload());
    expect(new URL(odd.data.image_url).origin).toBe(e.url);
  });

  it('does not trust a proxy that is not on the list', async () => {
    const e = await start({ trustProxy: ['10.1.2.3'] });
    const sync = await request(e, 'POST', COMMODITY, SPOOFED, await upload());
    expect(new URL(sync.data.image_url).origin).toBe(e.url);
  });

  it('puts every URL on ATELIER_PUBLIC_URL when it is set, path prefix included', async () => {
    const e = await start({ publicUrl: 'https://photos.example.com/atelier/', trustProxy: ['loopback'] });
    const sync = await request(e, 'POST', COMMODITY, SPOOFED, await upload());
    expect(sync.data.image_url).toMatch(/^https:\/\/photos\.example\.com\/atelier\/results\/[a-f0-9]{32}\.png$/);
    expect(await taskUrl(e, SPOOFED)).toMatch(/^https:\/\/photos\.example\.com\/atelier\/results\//);
  });

  it('refuses to start on a public URL that is not an http(s) URL', async () => {
    for (const publicUrl of ['photos.example.com', 'ftp://photos.example.com']) {
      await expect(buildApp({ ...configFromEnv({}), publicUrl, apiKeys: [TEST_KEY] }, [TEST_KEY])).rejects.toThrow(/ATELIER_PUBLIC_URL/);
    }
  });

  it('reads the settings from the environment', () => {
    const c = configFromEnv({ ATELIER_PUBLIC_URL: 'https://a.example', ATELIER_TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' });
    expect(c.publicUrl).toBe('https://a.example');
    expect(c.trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8']);
    expect(configFromEnv({}).trustProxy).toEqual([]);
    expect(configFromEnv({}).acceptSdkKeyHeader).toBe(true);
    expect(configFromEnv({ ATELIER_ACCEPT_SDK_KEY_HEADER: '0' }).acceptSdkKeyHeader).toBe(false);
  });
});
