import { afterEach, describe, expect, it, vi } from 'vitest';
import { getHealth } from './get-health.ts';

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
});
