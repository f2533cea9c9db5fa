/** The engine over real HTTP, against inputs a fuzzer sends: odd queries, methods, corrupt images, raw sockets. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { decodeImage } from '../image/decode.ts';
import { httpLayerOptions } from '../plugins/envelope.ts';
import { fixture, form, get, post, solidPng, startTestEngine, waitReady, TEST_KEY, type TestEngine } from './helpers.ts';

const QUERY = '/api/common/query-async-task-result';
const COMMODITY = '/api/cutout/general/commodity-background-removal';
const CROPPING = '/api/image/editing/image-cropping';
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

describe('corrupt image data', () => {
  const small = () => sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 60, g: 160, b: 90 } } });
  const cut = (b: Buffer, share: number) => b.subarray(0, Math.floor(b.length * share));
  const crc32 = (b: Buffer) => {
    let c = ~0;
    for (const x of b) { c ^= x; for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1)); }
    return ~c >>> 0;
  };

  /** A 64x64 JPEG whose frame header (SOF) claims 1999x1999: the scan data runs out after 64x64. */
  async function headerLiesJpeg(): Promise<Buffer> {
    const b = Buffer.from(await small().jpeg().toBuffer());
    for (let i = 2; i < b.length; i += 2 + b.readUInt16BE(i + 2)) {
      const m = b[i + 1];
      if (m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc) {
        b.writeUInt16BE(1999, i + 5);
        b.writeUInt16BE(1999, i + 7);
        return b;
      }
    }
    throw new Error('no SOF marker');
  }
  /** A 64x64 PNG whose IHDR (with a valid CRC) claims 1999x1999. */
  async function headerLiesPng(): Promise<Buffer> {
    const b = Buffer.from(await small().png().toBuffer());
    b.writeUInt32BE(1999, 16);
    b.writeUInt32BE(1999, 20);
    b.writeUInt32BE(crc32(b.subarray(12, 29)), 29);
    return b;
  }
  /** A 64x64 lossy WEBP whose VP8 frame header claims 1999x1999. */
  async function headerLiesWebp(): Promise<Buffer> {
    const b = Buffer.from(await small().webp().toBuffer());
    expect(b.toString('latin1', 12, 16)).toBe('VP8 ');
    b.writeUInt16LE(1999, 26);
    b.writeUInt16LE(1999, 28);
    return b;
  }

  it('answers 422 for truncated photos and for headers that claim more pixels than the data holds', async () => {
    const jpeg = fixture('obama_official_portrait.jpg');
    const png = fixture('product_coffee_cup.png');
    const webp = await sharp(png).webp().toBuffer();
    const cases: Record<string, Buffer> = {
      'truncated JPEG': cut(jpeg, 0.6),
      'JPEG cut just before its end': cut(jpeg, 0.98),
      'truncated PNG': cut(png, 0.6),
      'truncated WEBP': cut(webp, 0.6),
      'header-lies JPEG': await headerLiesJpeg(),
      'header-lies PNG': await headerLiesPng(),
      'header-lies WEBP': await headerLiesWebp(),
      // A PNG whose image data is a valid zlib stream of too few rows.
      'short IDAT PNG': await (async () => {
        const ok = Buffer.from(await small().png().toBuffer());
        const idat = Buffer.concat([Buffer.from('IDAT'), deflateSync(Buffer.alloc(10 * (1 + 64 * 3)))]);
        const len = Buffer.alloc(4); len.writeUInt32BE(idat.length - 4);
        const crc = Buffer.alloc(4); crc.writeUInt32BE(crc32(idat));
        const iend = ok.subarray(ok.length - 12);
        return Buffer.concat([ok.subarray(0, 33), len, idat, crc, iend]);
      })(),
    };
    for (const [what, bytes] of Object.entries(cases)) {
      const r = await post(e, CROPPING, form({ image: bytes, width: '32', height: '32' }));
      expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(422);
      expectError(r, 422, 'FILE_DECODING_FAILURE');
    }
  });

  it('still decodes whole photos, EXIF-rotated and WEBP ones included', async () => {
    const names = ['obama_official_portrait.jpg', 'obama_official_exif_orientation6.jpg', 'product_coffee_cup.png', 'astronaut_eileen_collins.png'];
    for (const name of names) {
      const bytes = fixture(name);
      const format = name.endsWith('.jpg') ? 'jpeg' : 'png';
      const img = await decodeImage(bytes, format, 4096 * 4096);
      expect(img.width * img.height, name).toBeGreaterThan(0);
    }
    const webp = await sharp(fixture('product_coffee_cup.png')).webp().toBuffer();
    expect((await decodeImage(webp, 'webp', 4096 * 4096)).width).toBe(600);
  });
});

describe('form parts that are not the endpoint\'s', () => {
  const MB = 1024 * 1024;

  it('ignores a file part that is no image field of the endpoint, however large, as it ignores unknown text fields', async () => {
    const f = form({ image: await solidPng(64, 64), return_form: 'sepia' });
    f.append('attachment', new Blob([new Uint8Array(4 * MB)]), 'big.bin');
    f.append('notes', 'x'.repeat(1000));
    const r = await post(e, COMMODITY, f);
    // Read to the end: the answer is about return_form, not about the size of a part nobody asked for.
    expectError(r, 400, 'ERROR_INVALID_PARAMETER');
    expect(r.body.error_detail.message).toContain('return_form');

    const ok = form({ image: await solidPng(64, 64), return_form: 'mask' });
    ok.append('thumbnail', new Blob([new Uint8Array(5 * MB)]), 'thumb.jpg');
    const done = await post(e, COMMODITY, ok);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data.image_url).toMatch(/\/results\//);
  });

  it('still refuses an image field over its limit, by name', async () => {
    const f = form({ image: Buffer.concat([await solidPng(64, 64), Buffer.alloc(3 * MB + 10)]) });
    const r = await post(e, COMMODITY, f);
    expectError(r, 413, 'FILE_SIZE_EXCEEDS_LIMIT');
    expect(r.body.error_detail.message).toMatch(/^image is larger than 3 MB/);
  });
});

/** Sends bytes on a fresh socket and reads one HTTP response (by Content-Length, or to the socket's end). */
function rawRequest(url: string, bytes: string | Buffer, timeoutMs = 5000): Promise<{ status: number; headers: Record<string, string>; text: string; closed: boolean }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(bytes));
    let buf = Buffer.alloc(0);
    let closed = false;
    const parse = (final: boolean) => {
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return final ? reject(new Error(`no response head in ${JSON.stringify(buf.toString())}`)) : undefined;
      const [statusLine, ...lines] = buf.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) { const i = l.indexOf(':'); headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim(); }
      const body = buf.subarray(end + 4);
      const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
      if (!final && (length === undefined || body.length < length)) return;
      clearTimeout(timer);
      socket.destroy();
      resolve({ status: Number(statusLine.split(' ')[1]), headers, text: body.subarray(0, length ?? body.length).toString(), closed });
    };
    const timer = setTimeout(() => { socket.destroy(); reject(new Error(`no complete response in ${timeoutMs} ms: ${JSON.stringify(buf.toString())}`)); }, timeoutMs);
    socket.on('data', (d) => { buf = Buffer.concat([buf, d]); parse(false); });
    socket.on('end', () => { closed = true; parse(true); });
    socket.on('error', () => { /* a reset after the answer; 'close' follows */ });
    socket.on('close', () => { closed = true; parse(true); });
  });
}

describe('errors of the HTTP layer itself', () => {
  const head = (lines: string[]) => lines.join('\r\n') + '\r\n\r\n';
  const cases: [string, string, number, string][] = [
    ['a malformed request line', 'GARBAGE\r\n\r\n', 400, 'ERROR_INVALID_PARAMETER'],
    ['an unknown HTTP version', head(['GET /healthz HTTP/9.9', 'Host: x']), 400, 'ERROR_INVALID_PARAMETER'],
    ['a space in a header name', head(['GET /healthz HTTP/1.1', 'Host: x', 'Bad Header: y']), 400, 'ERROR_INVALID_PARAMETER'],
    ['Content-Length and Transfer-Encoding together', head([`POST ${COMMODITY} HTTP/1.1`, 'Host: x', 'Content-Length: 5', 'Transfer-Encoding: chunked']) + '0\r\n\r\n', 400, 'ERROR_INVALID_PARAMETER'],
    ['a Content-Length that is no number', head([`POST ${COMMODITY} HTTP/1.1`, 'Host: x', 'Content-Length: abc']), 400, 'ERROR_INVALID_PARAMETER'],
    ['headers over the size limit', head(['GET /healthz HTTP/1.1', 'Host: x', `X-Big: ${'a'.repeat(20_000)}`]), 431, 'ERROR_INVALID_PARAMETER'],
    ['a request line over the size limit', head([`GET /healthz?${'a'.repeat(20_000)} HTTP/1.1`, 'Host: x']), 431, 'ERROR_INVALID_PARAMETER'],
    ['a bad percent-escape in the path', head(['GET /api/%zz HTTP/1.1', 'Host: x', `service-api-key: ${TEST_KEY}`]), 400, 'ERROR_INVALID_PARAMETER'],
    ['a path parameter over its length limit', head([`GET /results/${'a'.repeat(300)}.png HTTP/1.1`, 'Host: x']), 404, 'ERROR_AI_NOT_EXISTS'],
    ['an HTTP/1.1 request without Host', head(['GET /healthz HTTP/1.1']), 400, 'ERROR_INVALID_PARAMETER'],
    ['a JSON body over the body limit', head([`POST ${COMMODITY} HTTP/1.1`, 'Host: x', `service-api-key: ${TEST_KEY}`, 'Content-Type: application/json', 'Content-Length: 2000000']) + `{"a":"${'x'.repeat(1_999_992)}"}`, 413, 'FILE_SIZE_EXCEEDS_LIMIT'],
  ];
  for (const [what, bytes, status, code] of cases) {
    it(`answers ${what} with ${status} and the envelope`, async () => {
      const r = await rawRequest(e.url, bytes);
      expect(r.headers['content-type'], r.text).toMatch(/^application\/json/);
      expectError({ status: r.status, body: JSON.parse(r.text) }, status, code);
    });
  }

  it('answers a request that timed out with 408 and the envelope (node\'s timeout, driven directly)', () => {
    let written = '';
    let destroyed = false;
    const socket = { destroyed: false, writable: true, write: (s: string) => { written += s; }, destroy: () => { destroyed = true; } };
    const timeout = Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
    httpLayerOptions.clientErrorHandler!.call(e.app, timeout as never, socket as never);
    expect(written).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    const body = JSON.parse(written.slice(written.indexOf('\r\n\r\n') + 4));
    expect(body.error_detail).toMatchObject({ code: 'ERROR_INVALID_PARAMETER', message: expect.stringContaining('in time') });
    expect(destroyed).toBe(true);
  });

  it('keeps serving after answering a malformed request', async () => {
    await rawRequest(e.url, 'GARBAGE\r\n\r\n');
    expect((await get(e, '/healthz', {})).status).toBe(200);
  });
});

describe('security headers', () => {
  it('sends X-Content-Type-Options: nosniff on every kind of answer', async () => {
    const name = await e.app.services.results.save({ data: await solidPng(8, 8), format: 'png' });
    const answers: [string, Headers | Record<string, string>][] = [];
    for (const path of ['/healthz', '/openapi.json', `/results/${name}`, '/results/nothing.png', '/api/nothing', `${QUERY}?task_id=x`, '/docs', '/docs/static/swagger-ui.css']) {
      answers.push([path, (await get(e, path)).headers]);
    }
    answers.push(['405', (await fetch(`${e.url}${COMMODITY}`, { method: 'OPTIONS', headers: KEY })).headers]);
    answers.push(['401', (await fetch(`${e.url}${COMMODITY}`, { method: 'POST' })).headers]);
    answers.push(['bad URL', (await rawRequest(e.url, 'GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n')).headers]);
    answers.push(['431', (await rawRequest(e.url, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`)).headers]);
    for (const [what, headers] of answers) {
      const value = headers instanceof Headers ? headers.get('x-content-type-options') : headers['x-content-type-options'];
      expect(value, what).toBe('nosniff');
    }
  });

  it('serves results and API answers under a CSP that allows nothing', async () => {
    const name = await e.app.services.results.save({ data: await solidPng(8, 8), format: 'png' });
    for (const path of [`/results/${name}`, '/api/nothing', '/healthz']) {
      const csp = (await get(e, path)).headers.get('content-security-policy') ?? '';
      expect(csp, path).toMatch(/default-src 'none'/);
      expect(csp, path).toMatch(/(^|; )sandbox(;|$)/);
    }
  });

  it('serves /docs under a CSP that lets its own scripts and styles load, and every asset it names loads', async () => {
    for (const path of ['/docs', '/docs/']) {
      const page = await fetch(`${e.url}${path}`);
      expect(page.status).toBe(200);
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).toMatch(/script-src 'self'/);
      expect(csp).toMatch(/style-src 'self'/);
      expect(csp).toMatch(/default-src 'none'/);
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|sandbox/);
      const html = await page.text();
      // No inline script or style, which that policy would block.
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(html).not.toMatch(/<style|\sstyle=/);
      const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => new URL(m[1], `${e.url}${path}`));
      expect(assets.length).toBeGreaterThanOrEqual(5);
      for (const url of assets) {
        const res = await fetch(url);
        expect(res.status, url.pathname).toBe(200);
        expect(res.headers.get('content-type'), url.pathname).toMatch(/css|javascript|image/);
        await res.arrayBuffer();
      }
    }
    // The initializer points the UI at the spec, which must load too.
    const init = await (await fetch(`${e.url}/docs/static/swagger-initializer.js`)).text();
    const spec = await fetch(`${e.url}/docs/json`);
    expect(init).toContain('json');
    expect((await spec.json()).paths[COMMODITY]).toBeDefined();
  });
});
