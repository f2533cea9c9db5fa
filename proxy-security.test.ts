// @vitest-environment node
/**
 * The studio's proxy lends the engine's key to whoever reaches it, so it must not lend it to other sites'
 * pages: a page anywhere could otherwise post to http://127.0.0.1:4173/api/... from the user's browser and
 * run effects with the key. Through real Vite servers (dev and preview) configured by vite.config.ts, with a
 * stand-in engine that records what reaches it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer, preview } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const KEY = 'proxy-security-key';
let engine: ReturnType<typeof createHttpServer>;
let reached: { method?: string; url?: string; headers: IncomingHttpHeaders }[] = [];
const root = mkdtempSync(path.join(tmpdir(), 'studio-proxy-security-'));
const saved = { port: process.env.ATELIER_ENGINE_PORT, key: process.env.ATELIER_API_KEY, url: process.env.ATELIER_API_URL };

beforeAll(async () => {
  engine = createHttpServer((req, res) => {
    reached.push({ method: req.method, url: req.url, headers: req.headers });
    req.resume();
    req.on('end', () => { res.setHeader('content-type', 'application/json'); res.end('{"task_id":"t-1"}'); });
  });
  await new Promise<void>((r) => engine.listen(0, '127.0.0.1', r));
  // vite.config.ts reads these when Vite loads it.
  process.env.ATELIER_ENGINE_PORT = String((engine.address() as AddressInfo).port);
  process.env.ATELIER_API_KEY = KEY;
  delete process.env.ATELIER_API_URL;
});
afterAll(async () => {
  await new Promise((r) => engine.close(r));
  for (const [name, v] of [['ATELIER_ENGINE_PORT', saved.port], ['ATELIER_API_KEY', saved.key], ['ATELIER_API_URL', saved.url]] as const) {
    if (v === undefined) delete process.env[name]; else process.env[name] = v;
  }
  rmSync(root, { recursive: true, force: true });
});

interface Answer { status: number; headers: IncomingHttpHeaders; body: string }

/** A raw HTTP request, so that Host, Origin and Sec-Fetch-* are exactly what a browser (or an attacker) sends. */
function send(port: number, method: string, urlPath: string, headers: OutgoingHttpHeaders = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path: urlPath, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const configFile = path.resolve(import.meta.dirname, 'vite.config.ts');
const servers = {
  dev: async () => {
    const s = await createServer({ configFile, root, logLevel: 'silent', server: { port: 0, host: '127.0.0.1', watch: null }, optimizeDeps: { noDiscovery: true } });
    await s.listen();
    return { port: (s.httpServer!.address() as AddressInfo).port, close: () => s.close() };
  },
  preview: async () => {
    const s = await preview({ configFile, root, logLevel: 'silent', preview: { port: 0, host: '127.0.0.1' } });
    return { port: (s.httpServer.address() as AddressInfo).port, close: () => s.close() };
  },
};

const EFFECT = '/api/portrait/editing/ai-hair-loss-simulation';
const multipart = { 'content-type': 'multipart/form-data; boundary=x' };
const formBody = '--x\r\ncontent-disposition: form-data; name="level"\r\n\r\nman_5\r\n--x--\r\n';

describe.each(Object.keys(servers) as (keyof typeof servers)[])('the studio proxy under vite %s', (kind) => {
  let studio: { port: number; close: () => Promise<void> };
  beforeAll(async () => { studio = await servers[kind](); }, 60_000);
  afterAll(() => studio?.close());
  const own = () => `http://127.0.0.1:${studio.port}`;

  /** Sends the request and returns its answer and what reached the engine for it. */
  async function through(method: string, urlPath: string, headers: OutgoingHttpHeaders, body?: string) {
    reached = [];
    const answer = await send(studio.port, method, urlPath, headers, body);
    return { answer, reached: reached.slice() };
  }

  const expectRefused = ({ answer, reached: r }: Awaited<ReturnType<typeof through>>) => {
    expect(r).toEqual([]); // never reached the engine, with the key or without
    expect(answer.status).toBe(403);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    const body = JSON.parse(answer.body);
    expect(body).toMatchObject({ request_id: expect.any(String), log_id: expect.any(String), error_detail: { code: 'ERROR_INVALID_API_KEY', code_message: expect.any(String) } });
    expect(body.error_detail.message).toMatch(/other site|origin/i);
  };

  it('refuses a cross-site POST (an Origin of another site, as every browser sends on a cross-origin POST) before the key is added', async () => {
    expectRefused(await through('POST', EFFECT, { ...multipart, origin: 'http://evil.example' }, formBody));
    expectRefused(await through('POST', EFFECT, { ...multipart, origin: 'http://evil.example', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' }, formBody));
  });

  it('refuses Sec-Fetch-Site cross-site or same-site (another port of this host is the same site), and Origin null', async () => {
    expectRefused(await through('POST', EFFECT, { ...multipart, 'sec-fetch-site': 'cross-site' }, formBody));
    expectRefused(await through('POST', EFFECT, { ...multipart, origin: 'http://127.0.0.1:9999', 'sec-fetch-site': 'same-site' }, formBody));
    expectRefused(await through('POST', EFFECT, { ...multipart, origin: 'http://localhost:9999' }, formBody));
    expectRefused(await through('POST', EFFECT, { ...multipart, origin: 'null', 'sec-fetch-site': 'cross-site' }, formBody));
    expectRefused(await through('POST', EFFECT, { ...multipart, origin: 'null' }, formBody));
    // A cross-site read of a task's result or of /results is refused as well.
    expectRefused(await through('GET', '/api/common/query-async-task-result?task_id=t-1', { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' }));
    expectRefused(await through('GET', '/results/x.png', { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'image' }));
  });

  it("forwards the studio's own requests with the key: a same-origin POST (Origin sent), GETs and <img> loads, a typed address", async () => {
    const post = await through('POST', EFFECT, { ...multipart, origin: own(), 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' }, formBody);
    expect(post.answer.status).toBe(200);
    expect(JSON.parse(post.answer.body)).toEqual({ task_id: 't-1' });
    expect(post.reached).toMatchObject([{ method: 'POST', url: EFFECT, headers: { 'service-api-key': KEY, origin: own() } }]);
    // The studio opened as localhost on the same port: Origin and Host agree.
    const local = await through('POST', EFFECT, { ...multipart, host: `localhost:${studio.port}`, origin: `http://localhost:${studio.port}`, 'sec-fetch-site': 'same-origin' }, formBody);
    expect(local.reached[0]?.headers['service-api-key']).toBe(KEY);
    for (const [p, h] of [
      ['/healthz', { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' }],
      ['/results/x.png', { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'image', 'sec-fetch-mode': 'no-cors' }],
      ['/docs', { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' }],
    ] as const) {
      const r = await through('GET', p, h);
      expect(r.answer.status, p).toBe(200);
      expect(r.reached[0]?.headers['service-api-key'], p).toBe(KEY);
    }
  });

  it('forwards requests with neither Origin nor Sec-Fetch-Site (curl, the SDKs pointed at the studio)', async () => {
    const r = await through('POST', EFFECT, multipart, formBody);
    expect(r.answer.status).toBe(200);
    expect(r.reached[0]?.headers['service-api-key']).toBe(KEY);
  });

  it('refuses a DNS-rebound name (Host not this machine), though the browser calls it same-origin', async () => {
    const host = `rebind.evil.example:${studio.port}`;
    const r = await through('POST', EFFECT, { ...multipart, host, origin: `http://${host}`, 'sec-fetch-site': 'same-origin' }, formBody);
    expect(r.reached).toEqual([]);
    expect(r.answer.status).toBe(403);
  });

  it('answers no CORS: a page on another localhost port gets no Access-Control-Allow-Origin, preflight or not', async () => {
    const origin = 'http://localhost:9999';
    const preflight = await send(studio.port, 'OPTIONS', EFFECT, { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const page = await send(studio.port, 'GET', '/', { origin });
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
    const api = await send(studio.port, 'GET', '/healthz', { origin });
    expect(api.headers['access-control-allow-origin']).toBeUndefined();
  });
});
