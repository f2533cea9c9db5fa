// @vitest-environment node
import { EventEmitter } from 'node:events';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer } from 'vite';
import type { ProxyOptions } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { engineTarget, proxiedPaths, readApiKey, studioProxy } from './proxy.config.ts';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'studio-proxy-'));
  dirs.push(d);
  return d;
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Runs the configure hook on a stand-in proxy and returns the headers it adds to one incoming request. */
function headersFor(entry: ProxyOptions): Record<string, string> {
  const proxy = new EventEmitter();
  entry.configure!(proxy as never, entry);
  const req = { headers: {} as Record<string, string> };
  proxy.emit('start', req, {}, entry.target);
  return req.headers;
}

describe('studio proxy config', () => {
  it('forwards the engine paths to the engine, keeping Host and adding x-forwarded-*', () => {
    const proxy = studioProxy({});
    expect(Object.keys(proxy)).toEqual(['/api', '/results', '/healthz', '/docs', '/openapi.json']);
    for (const p of proxiedPaths) expect(proxy[p]).toMatchObject({ target: 'http://127.0.0.1:8787', changeOrigin: false, xfwd: true });
    expect(engineTarget({ ATELIER_ENGINE_PORT: '9100' })).toBe('http://127.0.0.1:9100');
    expect(engineTarget({ ATELIER_API_URL: 'http://engine:1234', ATELIER_ENGINE_PORT: '9100' })).toBe('http://engine:1234');
  });

  it('adds the key from ATELIER_API_KEY', () => {
    expect(headersFor(studioProxy({ ATELIER_API_KEY: 'from-env' })['/api'])).toEqual({ 'service-api-key': 'from-env' });
  });

  it('reads the local engine key file at request time, so the engine may start after Vite', () => {
    const dataDir = tempDir();
    const entry = studioProxy({ ATELIER_DATA_DIR: dataDir })['/api'];
    expect(headersFor(entry)).toEqual({});
    writeFileSync(path.join(dataDir, 'api-key'), 'k-123\nsecond line ignored\n');
    expect(headersFor(entry)).toEqual({ 'service-api-key': 'k-123' });
    writeFileSync(path.join(dataDir, 'api-key'), 'k-rotated\n');
    expect(headersFor(entry)).toEqual({ 'service-api-key': 'k-rotated' });
  });

  it('defaults the key file to ./data/api-key under the working directory', () => {
    const cwd = tempDir();
    mkdirSync(path.join(cwd, 'data'));
    writeFileSync(path.join(cwd, 'data', 'api-key'), '  spaced-key  \n');
    expect(readApiKey({}, cwd)).toBe('spaced-key');
    expect(readApiKey({ ATELIER_API_KEY: 'env-wins' }, cwd)).toBe('env-wins');
    expect(readApiKey({}, tempDir())).toBeUndefined();
  });

  it('works end to end through a Vite server: key added, Host kept, x-forwarded-host set', async () => {
    let seen: { url?: string; headers: IncomingHttpHeaders } | undefined;
    const engine = createHttpServer((req, res) => {
      seen = { url: req.url, headers: req.headers };
      res.setHeader('content-type', 'application/json');
      res.end('{"status":"ok"}');
    });
    await new Promise<void>((r) => engine.listen(0, '127.0.0.1', r));
    const enginePort = (engine.address() as AddressInfo).port;
    const dataDir = tempDir();
    writeFileSync(path.join(dataDir, 'api-key'), 'file-key\n');
    const proxy = studioProxy({ ATELIER_ENGINE_PORT: String(enginePort), ATELIER_DATA_DIR: dataDir });
    const vite = await createServer({ configFile: false, root: tempDir(), logLevel: 'silent', server: { port: 0, host: '127.0.0.1', proxy } });
    await vite.listen();
    try {
      const port = (vite.httpServer!.address() as AddressInfo).port;
      const res = await fetch(`http://127.0.0.1:${port}/healthz`, { headers: { 'service-api-key': 'from-the-browser' } });
      expect(await res.json()).toEqual({ status: 'ok' });
      expect(seen?.url).toBe('/healthz');
      expect(seen?.headers['service-api-key']).toBe('file-key');
      expect(seen?.headers.host).toBe(`127.0.0.1:${port}`);
      expect(seen?.headers['x-forwarded-host']).toBe(`127.0.0.1:${port}`);
      expect(seen?.headers['x-forwarded-proto']).toBe('http');

      // curl sends Expect: 100-continue with bodies over 1 MB; the key must reach the engine there too.
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path: '/api/upload', method: 'POST',
          headers: { expect: '100-continue', 'content-length': 5 } });
        req.on('continue', () => req.end('hello'));
        req.on('response', (res) => { res.resume(); res.on('end', () => resolve(res.statusCode ?? 0)); });
        req.on('error', reject);
      });
      expect(status).toBe(200);
      expect(seen?.url).toBe('/api/upload');
      expect(seen?.headers.expect).toBe('100-continue');
      expect(seen?.headers['service-api-key']).toBe('file-key');
    } finally {
      await vite.close();
      await new Promise((r) => engine.close(r));
    }
  }, 20_000);
});

