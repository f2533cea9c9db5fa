/** Models load on first use, per worker; /healthz says where each stands, and a failed load is plain to see. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fixture, form, get, post, solidPng, startTestEngine, testDataDir, waitReady, type TestEngine } from './helpers.ts';
import { modelHealth } from '../routes/health.ts';

const COMMODITY = '/api/cutout/general/commodity-background-removal';
const FACE_BEAUTY = '/api/portrait/effects/face-beauty';
const broken = new URL('./effects/test-broken-model.ts', import.meta.url).href;

let e: TestEngine;
beforeAll(async () => {
  e = await startTestEngine({ workers: 2, extraEffects: { 'face-beauty': broken } });
  await waitReady(e);
});
afterAll(async () => { await e.close(); });

describe('lazy model loading', () => {
  it('starts with no model loaded, each catalog model loadable', async () => {
    const h = (await get(e, '/healthz', {})).body;
    expect(h.ready).toBe(true);
    expect(h.models['isnet-medium']).toEqual({ state: 'loadable' });
    expect(h.models.human).toEqual({ state: 'loadable' });
    expect(h.models['isnet-small']).toEqual({ state: 'loadable' });
  });

  it('loads an effect\'s models in the worker that first runs it, and only those', async () => {
    const r = await post(e, COMMODITY, form({ image: fixture('product_coffee_cup.png'), return_form: 'mask' }));
    expect(r.status).toBe(200);
    const h = (await get(e, '/healthz', {})).body;
    expect(h.models['isnet-medium']).toEqual({ state: 'loaded', workers: 1 });
    expect(h.models.human).toEqual({ state: 'loadable' });
  });

  it('answers 501 naming the model when it cannot load, reports why in /healthz, and tries again next time', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await post(e, FACE_BEAUTY, form({ image: await solidPng(64, 64) }));
      expect(r.status).toBe(501);
      expect(r.body.error_detail.code).toBe('ERROR_AI_NOT_AVAILABLE');
      expect(r.body.error_detail.message).toContain('test-broken');
      expect(r.body.error_detail.message).not.toContain('protobuf'); // the reason is for the operator, in /healthz
    }
    const h = (await get(e, '/healthz', {})).body;
    expect(h.models['test-broken']).toEqual({ state: 'failed', message: 'protobuf parsing failed' });
    // The other models are untouched, and the engine keeps serving.
    expect((await post(e, COMMODITY, form({ image: fixture('product_coffee_cup.png'), return_form: 'mask' }))).status).toBe(200);
  });
});

describe('preloaded networks', () => {
  it('opens ATELIER_PRELOAD_MODELS in the model host once the engine is up, with no request, and serves from it', async () => {
    // One of a family too: the face parser converted for one input side.
    const p = await startTestEngine({ preloadModels: ['isnet-medium', 'bisenet-face-parsing@384'] });
    try {
      await waitReady(p);
      let states: unknown[] = [];
      for (const until = Date.now() + 60_000; Date.now() < until; await new Promise((r) => setTimeout(r, 200))) {
        const models = (await get(p, '/healthz', {})).body.models;
        states = [models['isnet-medium'], models['bisenet-face-parsing@384']];
        if (states.every((s) => s && (s as { state: string }).state !== 'loading')) break;
      }
      expect(states).toEqual([{ state: 'loaded', workers: 1 }, { state: 'loaded', workers: 1 }]);
      expect((await get(p, '/healthz', {})).body.models['isnet-small']).toEqual({ state: 'loadable' });
      const r = await post(p, COMMODITY, form({ image: fixture('product_coffee_cup.png'), return_form: 'mask' }));
      expect(r.status).toBe(200);
      // The host and the worker that ran it.
      expect((await get(p, '/healthz', {})).body.models['isnet-medium']).toEqual({ state: 'loaded', workers: 2 });
    } finally {
      await p.close();
    }
  });
});

describe('optimised networks kept in the data folder', () => {
  it('answers the same bytes from a network opened from its optimised copy as from its weights', async () => {
    const cutout = async (overrides: Parameters<typeof startTestEngine>[0]) => {
      const p = await startTestEngine(overrides);
      try {
        const r = await post(p, COMMODITY, form({ image: fixture('product_coffee_cup.png'), return_form: 'whiteBK' }));
        expect(r.status).toBe(200);
        return Buffer.from(await (await fetch(r.body.data.image_url)).arrayBuffer());
      } finally {
        await p.close();
      }
    };
    const fromWeights = await cutout({ optimizedModelDir: false });
    const dataDir = testDataDir();
    const saving = await cutout({ dataDir, optimizedModelDir: undefined });
    const kept = readdirSync(path.join(dataDir, 'optimized-models'));
    expect(kept).toEqual([expect.stringMatching(/^isnet-medium\.[0-9a-f]{16}\.onnx$/)]);
    const fromCopy = await cutout({ dataDir, optimizedModelDir: undefined });
    expect(readdirSync(path.join(dataDir, 'optimized-models'))).toEqual(kept);
    expect(saving.equals(fromWeights)).toBe(true);
    expect(fromCopy.equals(fromWeights)).toBe(true);
  }, 300_000); // three engines, each opening ISNet cold
});

describe('modelHealth', () => {
  it('prefers loaded, then loading, then a reported failure, then the file check', () => {
    expect(modelHealth([{ state: 'failed', message: 'x' }, { state: 'loaded' }], undefined)).toEqual({ state: 'loaded', workers: 1 });
    expect(modelHealth([{ state: 'failed', message: 'x' }, { state: 'loading' }], undefined)).toEqual({ state: 'loading' });
    expect(modelHealth([{ state: 'failed', message: 'oom' }], undefined)).toEqual({ state: 'failed', message: 'oom' });
    expect(modelHealth([], 'isnet-medium weights missing')).toEqual({ state: 'failed', message: 'isnet-medium weights missing' });
    expect(modelHealth([], undefined)).toEqual({ state: 'loadable' });
  });
});
