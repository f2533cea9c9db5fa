/**
 * Answers the engine gives before it has read a whole upload (501 effect not provided, 413 too large,
 * 401 wrong key) must reach clients of the studio's proxy intact, whatever the client: node:http
 * streaming its body (as axios does), curl, fetch. Through a real Vite server with studioProxy().
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studioProxy } from '../../proxy.config.ts';
import { notBuilt, solidPng, startTestEngine, waitReady, TEST_KEY, type TestEngine } from './helpers.ts';

const MB = 1024 * 1024;
/** An effect the test engine switches off. */
const NOT_BUILT = notBuilt.path;
const COMMODITY = '/api/cutout/general/commodity-background-removal';

let engine: TestEngine;
const dirs: string[] = [];
const vites: ViteDevServer[] = [];
let good: string; // studio URL whose proxy adds the right key
let wrong: string; // studio URL whose proxy adds a wrong key
let bodyFile: string;
let multipart: { body: Buffer; type: string };

async function studio(key: string): Promise<string> {
  const root = mkdtempSync(path.join(tmpdir(), 'studio-root-'));
  dirs.push(root);
  const proxy = studioProxy({ ATELIER_API_URL: engine.url, ATELIER_API_KEY: key });
  const vite = await createServer({ configFile: false, root, logLevel: 'silent', server: { port: 0, host: '127.0.0.1', proxy } });
  await vite.listen();
  vites.push(vite);
  return `http://127.0.0.1:${(vite.httpServer!.address() as AddressInfo).port}`;
}

/** A 12 MB multipart body: a real PNG followed by padding, in the `image` part. */
async function bigUpload() {
  const boundary = '----atelier-early-answer';
  const image = Buffer.concat([await solidPng(64, 64), Buffer.alloc(12 * MB)]);
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`),
    image,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

beforeAll(async () => {
  engine = await startTestEngine({ disabledEffects: [notBuilt.slug] });
  // Let the workers finish loading their models: closing the engine during the load has aborted the process (Napi::Error).
  await waitReady(engine);
  multipart = await bigUpload();
  const dir = mkdtempSync(path.join(tmpdir(), 'early-answer-'));
  dirs.push(dir);
  bodyFile = path.join(dir, 'body.bin');
  writeFileSync(bodyFile, multipart.body);
  good = await studio(TEST_KEY);
  wrong = await studio('not-the-key');
});

afterAll(async () => {
  for (const v of vites) await v.close();
  await engine?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Answer { status: number; text: string }

/** node:http, writing the body in 64 KB chunks with backpressure, as axios and most node clients do. */
function nodeHttp(url: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST',
      headers: { 'content-type': multipart.type, 'content-length': multipart.body.length } });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    // Once answered, a write error (the peer closed while we were still sending) is not the outcome.
    req.on('error', (err) => { if (!answered) reject(err); });
    const { body } = multipart;
    let at = 0;
    const pump = () => {
      while (at < body.length) {
        const chunk = body.subarray(at, at + 64 * 1024);
        at += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

function curl(url: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    execFile('curl', ['-sS', '-X', 'POST', '-H', `content-type: ${multipart.type}`, '--data-binary', `@${bodyFile}`,
      '-w', '\n%{http_code}', '--max-time', '60', url], { maxBuffer: 4 * MB }, (err, stdout, stderr) => {
      const nl = stdout.lastIndexOf('\n');
      const status = Number(stdout.slice(nl + 1));
      if (err && !status) return reject(new Error(`curl failed: ${stderr || err.message}`));
      resolve({ status, text: stdout.slice(0, nl) });
    });
  });
}

async function fetchClient(url: string): Promise<Answer> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': multipart.type }, body: new Uint8Array(multipart.body) });
  return { status: res.status, text: await res.text() };
}

const clients: [string, (url: string) => Promise<Answer>][] = [['node:http', nodeHttp], ['curl', curl], ['fetch', fetchClient]];
const cases: [string, () => string, string, number, string][] = [
  ['an effect not provided yet', () => good, NOT_BUILT, 501, 'ERROR_AI_NOT_AVAILABLE'],
  ['a file over the size limit', () => good, COMMODITY, 413, 'FILE_SIZE_EXCEEDS_LIMIT'],
  ['a wrong key', () => wrong, COMMODITY, 401, 'ERROR_INVALID_API_KEY'],
];

describe('early answers through the studio proxy, 12 MB uploads', () => {
  for (const [what, base, route, status, code] of cases) {
    for (const [client, send] of clients) {
      it(`${what}: ${client} gets ${status} ${code}`, async () => {
        const r = await send(`${base()}${route}`);
        expect(r.status, r.text).toBe(status);
        const body = JSON.parse(r.text);
        expect(body.error_detail.code).toBe(code);
        expect(body.request_id).toMatch(/\S/);
        expect(body.log_id).toMatch(/\S/);
        // The proxy added its key (a wrong one here), whatever the client: never "missing".
        if (status === 401) expect(body.error_detail.message).toMatch(/does not hold a valid key/);
      });
    }
  }

  it('keeps the engine serving afterwards', async () => {
    const res = await fetch(`${good}/healthz`);
    expect(res.status).toBe(200);
  });
});
