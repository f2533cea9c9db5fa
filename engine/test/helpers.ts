/** Starts a real engine on a free loopback port with a temporary data folder, for tests over HTTP. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { buildApp } from '../app.ts';
import { configFromEnv, type EngineConfig } from '../config.ts';
import type { FastifyInstance } from 'fastify';
import { endpointList } from '../../contract/index.ts';
import { effectModules } from '../effects/registry.ts';

export const TEST_KEY = 'test-key-0123456789';
/**
 * An effect the tests' engines switch off (ATELIER_DISABLED_EFFECTS), for the tests of the 501 answer: one
 * not provided yet if any is left, else the square-face avatar.
 */
export const notBuilt = endpointList.find((x) => x.mode !== 'query' && !effectModules[x.slug]) ?? endpointList.find((x) => x.slug === 'ai-square-face-filter')!;
export const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name));
export const testInvertEffect = new URL('./effects/test-invert.ts', import.meta.url).href;
export const testSlowEffect = new URL('./effects/test-slow.ts', import.meta.url).href;

export interface TestEngine { app: FastifyInstance; url: string; dataDir: string; close: () => Promise<void> }

/** Data folders made by testDataDir, removed after the test file (or when a script using these helpers exits). */
const madeDirs = new Set<string>();
const removeMadeDirs = () => {
  for (const d of madeDirs) fs.rmSync(d, { recursive: true, force: true });
  madeDirs.clear();
};
// In vitest, after the file's own hooks (registered later, so run earlier: hooks run as a stack), which
// close its engines; a fork does not always see 'exit'. A script (bench-*.ts) has no runner: at its exit.
if (process.env.VITEST) (await import('vitest')).afterAll(removeMadeDirs);
else process.once('exit', removeMadeDirs);

/**
 * A fresh data folder in the system's temp folder, removed after the test file, not on an engine's close:
 * tests restart an engine on the folder of one they closed.
 */
export function testDataDir(prefix = 'atelier-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  madeDirs.add(dir);
  return dir;
}

/**
 * The optimised networks (engine/workers/optimized-models.ts) test engines share, so that each does not save
 * its own 177 MB ISNet; kept between runs like any cache. A test of the saving gives its own folder.
 */
export const testOptimizedModelDir = path.join(os.tmpdir(), 'atelier-test-optimized-models');

export async function startTestEngine(overrides: Partial<EngineConfig> = {}): Promise<TestEngine> {
  const dataDir = overrides.dataDir ?? testDataDir();
  const config: EngineConfig = {
    ...configFromEnv({}), dataDir, port: 0, workers: 1, modelThreads: 2, apiKeys: [TEST_KEY], optimizedModelDir: testOptimizedModelDir,
    preloadModels: [], ...overrides,
  };
  const app = await buildApp(config, config.apiKeys);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: address, dataDir, close: () => app.close() };
}

/** Waits until every worker thread takes jobs. Models load on first use, so a first request may still wait on them. */
export async function waitReady(e: TestEngine, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const h = await (await fetch(`${e.url}/healthz`)).json();
    if (h.ready) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('engine did not become ready');
}

export function form(fields: Record<string, string | Buffer>, filename = 'upload.bin'): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (typeof v === 'string') f.append(k, v);
    else f.append(k, new Blob([new Uint8Array(v)]), filename);
  }
  return f;
}

export async function post(e: TestEngine, path: string, body: FormData | string | undefined, headers: Record<string, string> = {}) {
  const res = await fetch(`${e.url}${path}`, { method: 'POST', body, headers: { 'service-api-key': TEST_KEY, ...headers } });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

export async function get(e: TestEngine, path: string, headers: Record<string, string> = { 'service-api-key': TEST_KEY }) {
  const res = await fetch(`${e.url}${path}`, { headers });
  const type = res.headers.get('content-type') ?? '';
  return { status: res.status, headers: res.headers, body: type.includes('json') ? await res.json() : Buffer.from(await res.arrayBuffer()) };
}

/** A plain test picture: a dark square on a light background. */
export async function solidPng(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 230, g: 230, b: 230 } } })
    .composite([{ input: { create: { width: Math.max(1, width >> 1), height: Math.max(1, height >> 1), channels: 3, background: { r: 20, g: 40, b: 200 } } }, gravity: 'centre' }])
    .png().toBuffer();
}

export async function pollTask(e: TestEngine, taskId: string, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await get(e, `/api/common/query-async-task-result?task_id=${taskId}`);
    if (r.body.task_status === 2 || r.status !== 200 || Date.now() > until) return r;
    await new Promise((res) => setTimeout(res, 100));
  }
}

/** Waits until `ok` holds, polling every 100 ms; fails naming `what` after the timeout. */
export async function until(what: string, ok: () => boolean | Promise<boolean>, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}
