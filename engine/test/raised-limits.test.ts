/**
 * Raised image limits (ATELIER_MAX_IMAGE_SIDE, ATELIER_MAX_IMAGE_MB): the interface's limits by default; a
 * self-hoster's raise lets a phone photo's product cutout come back at the photo's own size.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { endpointList } from '../../contract/index.ts';
import { configFromEnv } from '../config.ts';
import { withRaisedLimits } from '../http/raised-limits.ts';
import { fixture, form, get, post, startTestEngine, waitReady, type TestEngine } from './helpers.ts';

const COMMODITY = '/api/cutout/general/commodity-background-removal';
const product = endpointList.find((x) => x.slug === 'commodity-background-removal')!;
const MB = 1024 * 1024;
const limitsOf = (e: typeof product) => (e.fields.image as { limits: { maxSide: number; maxBytes: number; minSide: number } }).limits;

describe('withRaisedLimits', () => {
  it('raises a lower side and size bound, keeps formats and the minimum side', () => {
    const raised = withRaisedLimits(product, { maxSide: 4096, maxBytes: 20 * MB });
    expect(limitsOf(raised)).toMatchObject({ maxSide: 4096, maxBytes: 20 * MB, minSide: limitsOf(product).minSide });
    expect(raised.fields.return_form).toBe(product.fields.return_form);
    expect(limitsOf(product).maxSide).toBe(1999);
  });

  it('never lowers a bound, and leaves an endpoint with nothing to raise as it is', () => {
    const apparel = endpointList.find((x) => x.slug === 'apparel-background-removal')!;
    expect(withRaisedLimits(apparel, { maxSide: 1000, maxBytes: MB })).toBe(apparel);
    expect(withRaisedLimits(product, {})).toBe(product);
  });

  it('is read from ATELIER_MAX_IMAGE_SIDE and ATELIER_MAX_IMAGE_MB, unset by default', () => {
    expect(configFromEnv({}).raisedLimits).toEqual({ maxSide: undefined, maxBytes: undefined });
    expect(configFromEnv({ ATELIER_MAX_IMAGE_SIDE: '8000', ATELIER_MAX_IMAGE_MB: '25' }).raisedLimits).toEqual({ maxSide: 8000, maxBytes: 25 * MB });
  });
});

describe('a 4032x3024 phone photo through the product cutout', () => {
  let raised: TestEngine, plain: TestEngine;
  let photo: Buffer;
  beforeAll(async () => {
    [raised, plain] = await Promise.all([
      startTestEngine({ raisedLimits: { maxSide: 4096, maxBytes: 20 * MB } }),
      startTestEngine(),
    ]);
    await Promise.all([waitReady(raised), waitReady(plain)]);
    photo = await sharp(fixture('product_coffee_cup.png')).resize(4032, 3024).jpeg({ quality: 90 }).toBuffer();
  }, 180_000);
  afterAll(async () => { await Promise.all([raised?.close(), plain?.close()]); });

  it('says so in /healthz, where clients read how large a photo they may send', async () => {
    expect((await get(raised, '/healthz', {})).body.image_limits).toEqual({ max_side: 4096, max_bytes: 20 * MB });
    expect((await get(plain, '/healthz', {})).body).not.toHaveProperty('image_limits');
  });

  it('is refused under the interface\'s limits', async () => {
    const r = await post(plain, COMMODITY, form({ image: photo }));
    expect(r.status).toBe(413);
    expect(r.body.error_detail.code).toBe('FILE_RESOLUTION_EXCEEDS_LIMITS');
  });

  it('comes back at its own size with the limits raised', async () => {
    const r = await post(raised, COMMODITY, form({ image: photo }));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const png = (await get(raised, new URL(r.body.data.image_url).pathname, {})).body as Buffer;
    const meta = await sharp(png).metadata();
    expect([meta.width, meta.height, meta.channels]).toEqual([4032, 3024, 4]);
  }, 180_000);
});
