/** The engine over real HTTP: the error rows (docs/interface.md#error-codes) that apply so far, and the input rules. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { encode as encodeBmp } from 'bmp-ts';
import { endpointList } from '../../contract/index.ts';
import { fixture, form, get, notBuilt, post, solidPng, startTestEngine, waitReady, TEST_KEY, type TestEngine } from './helpers.ts';

const COMMODITY = '/api/cutout/general/commodity-background-removal';
let e: TestEngine;

beforeAll(async () => { e = await startTestEngine({ disabledEffects: [notBuilt.slug] }); await waitReady(e); });
afterAll(async () => { await e.close(); });

const expectError = (r: { status: number; body: any }, status: number, code: string) => {
  expect(r.status).toBe(status);
  expect(r.body.error_detail.code).toBe(code);
  expect(r.body.error_detail.code_message).not.toBe('');
  expect(r.body.error_detail.message).not.toBe('');
  expect(r.body.request_id).toMatch(/\S/);
  expect(r.body.log_id).toMatch(/\S/);
};

describe('authentication', () => {
  it('answers 401 on every endpoint, the task query included, without the right key', async () => {
    for (const ep of endpointList) {
      const url = ep.method === 'GET' ? `${ep.path}?task_id=x` : ep.path;
      const missing = await fetch(`${e.url}${url}`, { method: ep.method });
      expect(missing.status, ep.slug).toBe(401);
      expect((await missing.json()).error_detail.message).toMatch(/missing/);
      const wrong = await fetch(`${e.url}${url}`, { method: ep.method, headers: { 'service-api-key': TEST_KEY + 'x' } });
      expect(wrong.status, ep.slug).toBe(401);
      expect((await wrong.json()).error_detail.code).toBe('ERROR_INVALID_API_KEY');
    }
  });

  it('serves health without a key', async () => {
    const r = await get(e, '/healthz', {});
    expect(r.status).toBe(200);
    expect(r.body.ready).toBe(true);
    expect(r.body.models['isnet-medium'].state).toMatch(/^(loadable|loading|loaded)$/);
    expect(r.body.effects['commodity-background-removal']).toBe('available');
    expect(r.body.effects['face-analyzer']).toBe('available');
    expect(r.body.effects[notBuilt.slug]).toBe('not_available');
  });
});

describe('routing', () => {
  it('404 for unknown paths, 405 for a wrong method, 501 for an effect not provided (or switched off)', async () => {
    expectError(await get(e, '/api/cutout/general/nothing-here'), 404, 'ERROR_AI_NOT_EXISTS');
    expectError(await get(e, COMMODITY), 405, 'ERROR_METHOD_NOT_ALLOWED');
    const missing = await post(e, notBuilt.path, form({ image: await solidPng(64, 64) }));
    expectError(missing, 501, 'ERROR_AI_NOT_AVAILABLE');
    expect(missing.body.error_detail.message).toContain(notBuilt.slug);
  });

  it('gives every response a fresh request_id and log_id', async () => {
    const a = await get(e, '/api/nothing');
    const b = await get(e, '/api/nothing');
    expect(a.body.request_id).not.toBe(b.body.request_id);
    expect(a.body.log_id).not.toBe(b.body.log_id);
  });

  it('serves an OpenAPI document generated from the contract, and a docs page', async () => {
    const doc = (await get(e, '/openapi.json', {})).body;
    expect(Object.keys(doc.paths).sort()).toEqual(endpointList.map((x) => x.path).sort());
    expect(doc.paths[COMMODITY].post.requestBody.content['multipart/form-data'].schema.properties.return_form.enum).toEqual(['mask', 'whiteBK', 'crop']);
    const page = await fetch(`${e.url}/docs/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger');
  });
});

describe('input validation', () => {
  it('names a missing field', async () => {
    const r = await post(e, COMMODITY, form({ return_form: 'mask' }));
    expectError(r, 400, 'MISSING_PARAMETERS');
    expect(r.body.error_detail.message).toContain('image');
  });

  it('names a wrong value and lists what is allowed', async () => {
    const r = await post(e, COMMODITY, form({ image: await solidPng(64, 64), return_form: 'sepia' }));
    expectError(r, 400, 'ERROR_INVALID_PARAMETER');
    expect(r.body.error_detail.message).toMatch(/return_form.*mask, whiteBK, crop.*sepia/);
  });

  it('refuses a body that is not multipart', async () => {
    expectError(await post(e, COMMODITY, '{"image":"x"}', { 'content-type': 'application/json' }), 400, 'ERROR_INVALID_PARAMETER');
  });

  it('decides the format from the bytes, not the name', async () => {
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    const r = await post(e, COMMODITY, form({ image: gif }, 'photo.png'));
    expectError(r, 415, 'UNSUPPORTED_FILE_TYPES');
    expect(r.body.error_detail.message).toMatch(/GIF.*JPEG, PNG, BMP/);
    const webp = await sharp(await solidPng(32, 32)).webp().toBuffer();
    expectError(await post(e, COMMODITY, form({ image: webp }, 'photo.jpg')), 415, 'UNSUPPORTED_FILE_TYPES');
    expectError(await post(e, COMMODITY, form({ image: Buffer.from('hello, not an image') })), 415, 'UNSUPPORTED_FILE_TYPES');
  });

  it('refuses an upload over the size limit while streaming', async () => {
    const big = Buffer.concat([await solidPng(64, 64), Buffer.alloc(3 * 1024 * 1024 + 10)]);
    const r = await post(e, COMMODITY, form({ image: big }));
    expectError(r, 413, 'FILE_SIZE_EXCEEDS_LIMIT');
    expect(r.body.error_detail.message).toContain('3 MB');
  });

  it('refuses a resolution outside the bounds', async () => {
    const r = await post(e, COMMODITY, form({ image: await solidPng(2000, 40) }));
    expectError(r, 413, 'FILE_RESOLUTION_EXCEEDS_LIMITS');
    expect(r.body.error_detail.message).toContain('2000x40');
  });

  it('refuses a decompression bomb from its header, without decoding it', async () => {
    // A valid 1x1 PNG whose IHDR is rewritten to claim 100000x100000 pixels.
    const png = Buffer.from(await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } }).png().toBuffer());
    png.writeUInt32BE(100_000, 16);
    png.writeUInt32BE(100_000, 20);
    const before = process.memoryUsage().rss;
    const r = await post(e, COMMODITY, form({ image: png }));
    expectError(r, 413, 'FILE_RESOLUTION_EXCEEDS_LIMITS');
    expect(r.body.error_detail.message).toContain('100000x100000');
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  });

  it('answers 422 for bytes that claim a format but do not decode', async () => {
    const png = await solidPng(64, 64);
    const broken = Buffer.concat([png.subarray(0, 33), Buffer.alloc(200, 7)]);
    expectError(await post(e, COMMODITY, form({ image: broken })), 422, 'FILE_DECODING_FAILURE');
    const jpeg = await sharp(await solidPng(64, 64)).jpeg().toBuffer();
    expectError(await post(e, COMMODITY, form({ image: jpeg.subarray(0, 40) })), 422, 'FILE_DECODING_FAILURE');
  });

  it('refuses 16-bit-per-channel (64-bit) PNG for products, as the image limits say (docs/interface.md#image-limits)', async () => {
    const png16 = await sharp(await solidPng(64, 64)).ensureAlpha().toColourspace('rgb16').png().toBuffer();
    expect(png16[24]).toBe(16);
    expectError(await post(e, COMMODITY, form({ image: png16 })), 415, 'UNSUPPORTED_FILE_TYPES');
  });
});

describe('images in, images out', () => {
  it('accepts BMP, which libvips cannot read', async () => {
    const { data, info } = await sharp(fixture('product_coffee_cup.png')).resize(200).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    // bmp-ts wants ABGR byte order.
    const abgr = Buffer.alloc(data.length);
    for (let i = 0; i < data.length; i += 4) { abgr[i] = 255; abgr[i + 1] = data[i + 2]; abgr[i + 2] = data[i + 1]; abgr[i + 3] = data[i]; }
    const bmp = encodeBmp({ data: abgr, width: info.width, height: info.height, bitPP: 24 }).data;
    const r = await post(e, COMMODITY, form({ image: bmp, return_form: 'mask' }));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const mask = await get(e, new URL(r.body.data.image_url).pathname, {});
    const meta = await sharp(mask.body as Buffer).metadata();
    expect([meta.width, meta.height]).toEqual([info.width, info.height]);
  });

  it('applies EXIF orientation before processing', async () => {
    const rotated = await sharp(await solidPng(120, 60)).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const r = await post(e, COMMODITY, form({ image: rotated }));
    expect(r.status).toBe(200);
    const out = (await get(e, new URL(r.body.data.image_url).pathname, {})).body as Buffer;
    const meta = await sharp(out).metadata();
    expect([meta.width, meta.height]).toEqual([60, 120]);
    expect(meta.orientation).toBeUndefined();
  });

  it('returns result URLs that need no key, on the engine\'s own address unless a proxy is trusted', async () => {
    const r = await post(e, COMMODITY, form({ image: fixture('product_coffee_cup.png') }),
      { 'x-forwarded-host': 'studio.example:4173', 'x-forwarded-proto': 'https' });
    expect(r.status).toBe(200);
    const url = new URL(r.body.data.image_url);
    expect(url.origin).toBe(e.url);
    expect(url.pathname).toMatch(/^\/results\/[a-f0-9]{32}\.png$/);
    const file = await get(e, url.pathname, {});
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
  });

  it('lets no result path escape the data folder', async () => {
    for (const p of ['/results/..%2Ftasks.sqlite', '/results/..%2F..%2Fetc%2Fpasswd', '/results/api-key', '/results/%2e%2e']) {
      const r = await get(e, p, {});
      expect(r.status, p).toBe(404);
    }
  });
});
