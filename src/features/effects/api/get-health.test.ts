import { afterEach, describe, expect, it, vi } from 'vitest';
import { limits } from '../../../../contract/limits.ts';
import { raiseLimits } from '../../upload/utils/raised-limits.ts';
import { getHealth, raisedImageLimits } from './get-health.ts';

const answer = (status: number, body: unknown) => vi.fn(async () => new Response(JSON.stringify(body), { status }));

afterEach(() => { vi.unstubAllGlobals(); });

describe('getHealth', () => {
  it('reads ready: false as starting, and models still to load as ready (they load on first use)', async () => {
    vi.stubGlobal('fetch', answer(200, { status: 'ok', ready: false }));
    expect((await getHealth()).state).toBe('loading');
    vi.stubGlobal('fetch', answer(200, { status: 'ok', ready: true, models: { 'isnet-medium': { state: 'loadable' } } }));
    expect((await getHealth()).state).toBe('ready');
  });

  it('is unknown while the engine shuts down, offline when it does not answer', async () => {
    vi.stubGlobal('fetch', answer(200, { status: 'shutting_down', ready: true }));
    expect((await getHealth()).state).toBe('unknown');
    vi.stubGlobal('fetch', vi.fn(async () => { throw new TypeError('fetch failed'); }));
    expect((await getHealth()).state).toBe('offline');
  });

  it('reads storage_full as an engine that answers, with its disk full', async () => {
    vi.stubGlobal('fetch', answer(200, { status: 'storage_full', ready: true, storage: { state: 'full' } }));
    expect(await getHealth()).toEqual({ state: 'ready', effects: undefined, storageFull: true });
    vi.stubGlobal('fetch', answer(200, { status: 'ok', ready: true }));
    expect((await getHealth()).storageFull).toBeUndefined();
  });

  it('reads the limits a self-hoster raised, which raise an effect\'s own and never lower them', async () => {
    vi.stubGlobal('fetch', answer(200, { status: 'ok', ready: true, image_limits: { max_side: 8000, max_bytes: 25 * 2 ** 20 } }));
    const { imageLimits } = await getHealth();
    expect(imageLimits).toEqual({ maxSide: 8000, maxBytes: 25 * 2 ** 20 });
    expect(raisedImageLimits()).toEqual(imageLimits);
    const own = limits.product;
    expect(raiseLimits(own, imageLimits)).toEqual({ ...own, maxSide: 8000, maxBytes: 25 * 2 ** 20 });
    expect(raiseLimits(own, { maxSide: 100 })).toBe(own);
    vi.stubGlobal('fetch', answer(200, { status: 'ok', ready: true, image_limits: { max_side: 'big' } }));
    expect((await getHealth()).imageLimits).toBeUndefined();
    expect(raisedImageLimits()).toBeUndefined();
  });
});
