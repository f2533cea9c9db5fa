/** A result's Cache-Control max-age is the time left before the sweeper deletes it, never the fixed 24 hours. */
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { get, solidPng, startTestEngine, type TestEngine } from '../helpers.ts';

let e: TestEngine;
beforeAll(async () => { e = await startTestEngine({ retentionMs: 60_000 }); });
afterAll(async () => { await e.close(); });

const maxAge = (cc: string | null) => Number(/max-age=(\d+)/.exec(cc ?? '')?.[1]);

it('says max-age up to the end of the retention, counted from the file time', async () => {
  const name = await e.app.services.results.save({ data: await solidPng(8, 8), format: 'png' });
  const fresh = await get(e, `/results/${name}`, {});
  expect(fresh.status).toBe(200);
  expect(fresh.headers.get('cache-control')).toMatch(/^private, max-age=\d+/);
  expect(maxAge(fresh.headers.get('cache-control'))).toBeLessThanOrEqual(60);
  expect(maxAge(fresh.headers.get('cache-control'))).toBeGreaterThanOrEqual(55);

  const file = e.app.services.results.pathOf(name)!;
  const past = new Date(Date.now() - 45_000);
  fs.utimesSync(file, past, past);
  const older = maxAge((await get(e, `/results/${name}`, {})).headers.get('cache-control'));
  expect(older).toBeLessThanOrEqual(15);
  expect(older).toBeGreaterThanOrEqual(10);

  const expired = new Date(Date.now() - 120_000); // not swept yet
  fs.utimesSync(file, expired, expired);
  const late = await get(e, `/results/${name}`, {});
  expect(late.headers.get('cache-control')).toMatch(/max-age=0\b/);
  expect(late.headers.get('cache-control')).not.toMatch(/immutable/);
});
