/**
 * A 16th effect needs only the files docs/adding-an-effect.md lists: this one (an image flip) has them here,
 * under engine/test, and the engine serves it over HTTP like the contract's own endpoints. Its endpoint comes
 * in through config.extraEndpoints and its module through extraEffects, standing in for its line in
 * contract/index.ts and its folder under engine/effects.
 */
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { configFromEnv } from '../../config.ts';
import { form, get, post, startTestEngine, TEST_KEY, testDataDir, type TestEngine } from '../helpers.ts';
import flipEndpoint from './endpoint.ts';

const flipEffect = new URL('./effect.ts', import.meta.url).href;
const engines: TestEngine[] = [];
afterAll(async () => { for (const e of engines) await e.close(); });

/** Three by two blocks of 16 px (the endpoint's smallest side), each its own colour. */
const PIXELS = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 0], [0, 255, 255], [255, 0, 255]];
const B = 16;
const photo = () => sharp(Buffer.from(PIXELS.flat()), { raw: { width: 3, height: 2, channels: 3 } })
  .resize(3 * B, 2 * B, { kernel: 'nearest' }).png().toBuffer();
/** Each block's colour, read at its centre. */
const pixelsOf = async (png: Buffer) => {
  const { data } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  return PIXELS.map((_, i) => { const o = (((i / 3 | 0) * B + B / 2) * 3 * B + (i % 3) * B + B / 2) * 3; return [...data.subarray(o, o + 3)]; });
};

describe('a 16th effect added from the files the guide lists', () => {
  it('is served over HTTP: validated, run on a worker, answered as its result shape says, in the OpenAPI document and /healthz', async () => {
    const e = await startTestEngine({ extraEndpoints: [flipEndpoint], extraEffects: { [flipEndpoint.slug]: flipEffect } });
    engines.push(e);

    const across = await post(e, flipEndpoint.path, form({ image: await photo() }));
    expect(across.status, JSON.stringify(across.body)).toBe(200);
    expect(across.body.error_detail.code).toBe('');
    expect(await pixelsOf(Buffer.from(across.body.result_image, 'base64'))).toEqual([PIXELS[2], PIXELS[1], PIXELS[0], PIXELS[5], PIXELS[4], PIXELS[3]]);

    const down = await post(e, flipEndpoint.path, form({ image: await photo(), direction: 'vertical' }));
    expect(await pixelsOf(Buffer.from(down.body.result_image, 'base64'))).toEqual([...PIXELS.slice(3), ...PIXELS.slice(0, 3)]);

    const wrong = await post(e, flipEndpoint.path, form({ image: await photo(), direction: 'sideways' }));
    expect([wrong.status, wrong.body.error_detail.code]).toEqual([400, 'ERROR_INVALID_PARAMETER']);
    expect(wrong.body.error_detail.message).toContain('direction');
    expect((await post(e, flipEndpoint.path, form({ image: await photo() }), { 'service-api-key': 'wrong' })).status).toBe(401);

    const doc = (await get(e, '/openapi.json', {})).body;
    expect(doc.paths[flipEndpoint.path].post.operationId).toBe(flipEndpoint.slug);
    expect((await get(e, '/healthz', {})).body.effects[flipEndpoint.slug]).toBe('available');
  });

  it('without its effect module answers 501, and the engine says so in its log at start', async () => {
    const lines: string[] = [];
    const config = { ...configFromEnv({}), dataDir: testDataDir(), workers: 1, modelThreads: 1, apiKeys: [TEST_KEY], extraEndpoints: [flipEndpoint] };
    const app = await buildApp(config, config.apiKeys, { level: 'info', stream: { write: (line: string) => { lines.push(line); } } });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    engines.push({ app, url, dataDir: config.dataDir, close: () => app.close() });

    const warning = lines.map((l) => JSON.parse(l)).find((l) => l.slug === flipEndpoint.slug);
    expect(warning).toMatchObject({ level: 40, msg: 'endpoint has no effect module; it answers 501 ERROR_AI_NOT_AVAILABLE' });
    const r = await post(engines[engines.length - 1], flipEndpoint.path, form({ image: await photo() }));
    expect([r.status, r.body.error_detail.code]).toEqual([501, 'ERROR_AI_NOT_AVAILABLE']);
  });
});
