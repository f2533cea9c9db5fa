/**
 * A sync client that leaves frees its worker within a second or two, even when the step under way does not
 * look at the abort signal (a model run on the model host, a long loop): the pool used to wait for the
 * worker's answer at the next step boundary, which kept the worker busy for the rest of the step (~12 s for
 * a product photo's ISNet run on two cores).
 */
import { afterEach, expect, it } from 'vitest';
import { fixture, form, solidPng, startTestEngine, TEST_KEY, waitReady, type TestEngine } from '../helpers.ts';

const FACE_BEAUTY = '/api/portrait/effects/face-beauty';
const COMMODITY = '/api/cutout/general/commodity-background-removal';
const testStuckEffect = new URL('../effects/test-stuck.ts', import.meta.url).href;
const engines: TestEngine[] = [];
afterEach(async () => { await Promise.all(engines.splice(0).map((e) => e.close())); });

const workers = async (e: TestEngine) => (await (await fetch(`${e.url}/healthz`)).json()).workers as { idle: number; size: number; waiting: number };

/** Sends the image, waits until its job runs (no worker idle) plus `runFor` ms, leaves; answers how long its worker stayed busy. */
async function leaveAndTime(e: TestEngine, path: string, image: Buffer, runFor: number): Promise<number> {
  const client = new AbortController();
  const sent = fetch(`${e.url}${path}`, { method: 'POST', body: form({ image }), headers: { 'service-api-key': TEST_KEY }, signal: client.signal }).catch(() => undefined);
  while ((await workers(e)).idle !== 0) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, runFor));
  const left = Date.now();
  client.abort();
  await sent;
  for (;;) {
    const w = await workers(e);
    if (w.idle === w.size) return Date.now() - left;
    if (Date.now() - left > 60_000) return Infinity;
    await new Promise((r) => setTimeout(r, 50));
  }
}

it('frees the worker of a client gone during a step that ignores the signal, and serves the next request', async () => {
  const e = await startTestEngine({ workers: 1, extraEffects: { 'face-beauty': testStuckEffect } });
  engines.push(e);
  await waitReady(e);
  for (const width of [30, 31]) { // awaiting (a model run) | blocking the thread (a loop)
    const busyFor = await leaveAndTime(e, FACE_BEAUTY, await solidPng(width, 20), 500);
    expect(busyFor, `width ${width}: the worker stayed busy ${busyFor} ms after its client left`).toBeLessThan(2_500);
    await waitReady(e); // a replaced worker takes jobs again
    const t = Date.now();
    const next = await fetch(`${e.url}${FACE_BEAUTY}`, { method: 'POST', body: form({ image: await solidPng(16, 16) }), headers: { 'service-api-key': TEST_KEY } });
    expect(next.status).toBe(200);
    expect(Date.now() - t).toBeLessThan(5_000);
  }
});

it('frees the worker of a client gone during a real model run (product background removal)', async () => {
  const e = await startTestEngine({ workers: 1 });
  engines.push(e);
  await waitReady(e);
  const photo = fixture('product_coffee_cup.png');
  const warm = await fetch(`${e.url}${COMMODITY}`, { method: 'POST', body: form({ image: photo }), headers: { 'service-api-key': TEST_KEY } });
  expect(warm.status).toBe(200); // the model is loaded: what follows is the run itself
  const busyFor = await leaveAndTime(e, COMMODITY, photo, 1_000);
  expect(busyFor, `the worker stayed busy ${busyFor} ms after its client left`).toBeLessThan(2_500);
});
