/**
 * `npm run soak`: a soak benchmark (not a test). N requests spread over every endpoint the engine provides
 * (from GET /healthz and the contract; async ones polled until task_status 2), with real photos from
 * ../shared/testdata, at a given concurrency. Prints per endpoint the count, p50/p95/max latency, the first
 * request's latency and errors by code, and the engine's RSS along the way against the memory targets.
 *
 *   npm run soak -- [--n 500] [--concurrency 8] [--max-minutes 45] [--no-cold] [--only slug,slug]
 *   npm run soak -- --url http://127.0.0.1:8787 --key KEY [--pid PID]
 *
 * Without --url it spawns the engine (node --import tsx engine/server.ts with the variables package.json's engine
 * script sets, unless the environment sets them: the node process itself, not a
 * wrapper, so /proc/<pid>/status VmRSS covers its worker threads) on a free loopback port with a temporary
 * data folder, samples its RSS every 250 ms, and first measures each endpoint's first request on a fresh
 * engine of its own (--no-cold skips that), once its RSS has settled (the models it preloads open; see
 * ATELIER_PRELOAD_MODELS); the engines share one folder of optimised models, which the first requests fill. --only: just these endpoints. With --url it refuses anything but loopback and samples RSS only
 * when given --pid. Photos: ATELIER_TESTDATA or ../shared/testdata; absent, it says so and exits 2.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { endpointList } from '../../contract/index.ts';
import type { Endpoint } from '../../contract/endpoint.ts';
import type { ImageField } from '../../contract/fields.ts';
import { engineScriptEnv, isLoopbackUrl, paramsFor, percentile, photosFor, procMemory, type Photo } from './soak-plan.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const { values: opts } = parseArgs({
  options: {
    n: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '8' },
    url: { type: 'string' },
    key: { type: 'string' },
    pid: { type: 'string' },
    'max-minutes': { type: 'string', default: '45' },
    'no-cold': { type: 'boolean', default: false },
    only: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (opts.help) {
  console.log(readFileSync(fileURLToPath(import.meta.url), 'utf8').match(/\/\*\*([\s\S]*?)\*\//)![1].replace(/^ \* ?/gm, ''));
  process.exit(0);
}
const total = positive('n', opts.n);
const only = opts.only?.split(',').map((s) => s.trim());
const concurrency = positive('concurrency', opts.concurrency);
const deadline = Date.now() + positive('max-minutes', opts['max-minutes']) * 60_000;
/** One request (async: submit to result) gives up after this: long past the engine's own budgets (120 s once a worker takes it), so it only catches a hang. */
const REQUEST_TIMEOUT_MS = 600_000;

const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(repoRoot, '../shared/testdata');
if (!existsSync(testdata)) {
  console.error(`No test photos at ${testdata} (set ATELIER_TESTDATA to the shared testdata folder); nothing measured.`);
  process.exit(2);
}
if (opts.url && !isLoopbackUrl(opts.url)) {
  console.error(`--url ${opts.url}: the soak only talks to this machine (localhost, 127.0.0.0/8, ::1)`);
  process.exit(2);
}
if (opts.url && !(opts.key ?? process.env.ATELIER_API_KEY)) {
  console.error('--url needs --key KEY (or ATELIER_API_KEY)');
  process.exit(2);
}

// ---------------------------------------------------------------------------------------------------------
// The engine: spawned, or given by URL.

interface Engine { base: string; key: string; pid?: number; startMs?: number; stop: () => Promise<void> }

/**
 * Where every engine this soak spawns keeps its optimised models (engine/workers/optimized-models.ts): the
 * soak's first requests save them, so the cold pass measures an engine restarted after its install.
 */
const optimizedModelDir = mkdtempSync(path.join(os.tmpdir(), 'atelier-soak-models-'));
process.on('exit', () => rmSync(optimizedModelDir, { recursive: true, force: true }));

async function spawnEngine(): Promise<Engine> {
  const key = randomBytes(16).toString('hex');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'atelier-soak-'));
  const port = await freePort();
  const log = path.join(dataDir, 'engine.log');
  const t0 = performance.now();
  // node itself with tsx as a loader, not the tsx CLI, which would run node as a child of its own.
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'engine/server.ts')], {
    cwd: repoRoot,
    env: { ...engineScriptEnv(path.join(repoRoot, 'package.json')), ...process.env, ATELIER_ENGINE_PORT: String(port), ATELIER_ENGINE_HOST: '127.0.0.1', ATELIER_API_KEYS: key, ATELIER_DATA_DIR: dataDir, ATELIER_OPTIMIZED_MODEL_DIR: optimizedModelDir, ATELIER_LOG_LEVEL: 'warn' },
    stdio: ['ignore', openSync(log, 'a'), openSync(log, 'a')],
  });
  const kill = () => { if (child.exitCode === null) child.kill('SIGTERM'); };
  process.on('exit', kill);
  // Interrupted: stop the engine and remove its data folder, then go.
  const interrupted = () => { void stop().finally(() => process.exit(130)); };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  let stopped: Promise<void> | undefined;
  const stop = () => (stopped ??= (async () => {
    kill();
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
    process.off('exit', kill);
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    rmSync(dataDir, { recursive: true, force: true });
  })());
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitReady(base, child, log);
  } catch (err) {
    await stop();
    throw err;
  }
  return { base, key, pid: child.pid, startMs: performance.now() - t0, stop };
}

/**
 * Ready: /healthz answers ok and says its workers can take work. Older engines said so with
 * `models_loaded`, newer ones with `ready`; either false means not yet.
 */
async function waitReady(base: string, child: ChildProcess, log: string, timeoutMs = 300_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the engine exited (${child.exitCode}):\n${readFileSync(log, 'utf8').slice(-3000)}`);
    try {
      const res = await fetch(`${base}/healthz`);
      const h = await res.json() as { status?: string; ready?: boolean; models_loaded?: boolean };
      if (res.ok && h.status === 'ok' && h.ready !== false && h.models_loaded !== false) return;
    } catch { /* not listening yet */ }
    await sleep(100);
  }
  throw new Error(`the engine was not ready within ${timeoutMs / 1000} s:\n${readFileSync(log, 'utf8').slice(-3000)}`);
}

/** RSS once it stops moving (within 1% over 2 s, at most 15 s): what the engine holds at rest. */
async function settledRss(pid: number, base: string): Promise<number> {
  await preloadsDone(base);
  const window: number[] = [];
  const until = Date.now() + 15_000;
  for (;;) {
    window.push(procMemory(pid)?.rss ?? NaN);
    if (window.length > 8) window.shift();
    const stable = window.length === 8 && Math.max(...window) - Math.min(...window) <= 0.01 * Math.max(...window);
    if (stable || Date.now() > until) return window[window.length - 1];
    await sleep(250);
  }
}

/** Until /healthz shows no model loading (a preload may be saving its optimised copy in a child process, which the engine's RSS does not show), at most 5 min. */
async function preloadsDone(base: string) {
  for (const until = Date.now() + 300_000; Date.now() < until; await sleep(250)) {
    const h = await (await fetch(`${base}/healthz`)).json() as { models?: Record<string, { state: string }> };
    if (!Object.values(h.models ?? {}).some((m) => m.state === 'loading')) return;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Requests.

interface Target { endpoint: Endpoint; photos: Photo[]; sent: number }
interface Outcome { ms: number; error?: string }

function targetsFor(effects: Record<string, string>): Target[] {
  const out: Target[] = [];
  for (const endpoint of endpointList) {
    if (endpoint.mode === 'query' || effects[endpoint.slug] !== 'available') continue;
    if (only && !only.includes(endpoint.slug)) continue;
    const field = endpoint.fields.image as ImageField;
    const photos = photosFor(endpoint, field, testdata);
    if (!photos.length) {
      console.error(`${endpoint.slug}: no photo in ${testdata} fits its limits; left out`);
      continue;
    }
    out.push({ endpoint, photos, sent: 0 });
  }
  return out;
}

/** One request; async endpoints are polled until task_status 2, and their latency is submit to result. */
async function request(engine: Engine, t: Target): Promise<Outcome> {
  const i = t.sent++;
  const photo = t.photos[i % t.photos.length];
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(photo.bytes)]), path.basename(photo.name));
  const extra = Object.entries(t.endpoint.fields).find(([n, f]) => f.kind === 'image' && n !== 'image' && f.required);
  // A second required image (none today) gets the next photo of the same kind.
  if (extra) form.append(extra[0], new Blob([new Uint8Array(t.photos[(i + 1) % t.photos.length].bytes)]), 'second');
  for (const [k, v] of Object.entries(paramsFor(t.endpoint, i))) form.append(k, v);
  const headers = { 'service-api-key': engine.key };
  const t0 = performance.now();
  try {
    const res = await fetch(engine.base + t.endpoint.path, { method: 'POST', body: form, headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    let body = await res.json() as { task_id?: string; task_status?: number; error_detail?: { code?: string } };
    if (res.ok && t.endpoint.mode === 'async') {
      const taskId = body.task_id;
      if (!taskId) return { ms: performance.now() - t0, error: `${res.status} no task_id` };
      const until = Date.now() + REQUEST_TIMEOUT_MS;
      for (;;) {
        await sleep(200);
        const r = await fetch(`${engine.base}/api/common/query-async-task-result?task_id=${taskId}`, { headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        body = await r.json() as typeof body;
        if (!r.ok || body.task_status === 2) return outcome(r.status, body, t0);
        if (Date.now() > until) return { ms: performance.now() - t0, error: 'client timeout (task never finished)' };
      }
    }
    return outcome(res.status, body, t0);
  } catch (err) {
    const name = (err as Error).name;
    return { ms: performance.now() - t0, error: name === 'TimeoutError' ? 'client timeout' : `network: ${(err as Error).message}` };
  }
}

const outcome = (status: number, body: { error_detail?: { code?: string } }, t0: number): Outcome =>
  ({ ms: performance.now() - t0, error: status === 200 && !body.error_detail?.code ? undefined : `${status} ${body.error_detail?.code ?? '?'}` });

// ---------------------------------------------------------------------------------------------------------
// The run.

interface Stats { ms: number[]; errors: Map<string, number>; first?: number }

async function main() {
  const spawned = !opts.url;
  const say = (line = '') => console.log(line);
  const cold = new Map<string, Outcome>();
  const engine = spawned
    ? await spawnEngine()
    : { base: opts.url!.replace(/\/$/, ''), key: opts.key ?? process.env.ATELIER_API_KEY!, pid: opts.pid ? Number(opts.pid) : undefined, stop: async () => {} };
  try {
    const pid = engine.pid;
    const startRss = pid ? await settledRss(pid, engine.base) : NaN;
    const afterStartHealth = await (await fetch(`${engine.base}/healthz`)).json() as Record<string, unknown>;
    const targets = targetsFor(afterStartHealth.effects as Record<string, string>);
    if (!targets.length) throw new Error('the engine provides no endpoint this soak can send photos to');

    // RSS every 250 ms while requests run.
    let peak = startRss;
    const sampler = pid ? setInterval(() => { const m = procMemory(pid); if (m && m.rss > peak) peak = m.rss; }, 250) : undefined;
    const checkpoints = new Map<number, number>();
    const stats = new Map<string, Stats>(targets.map((t) => [t.endpoint.slug, { ms: [], errors: new Map() }]));
    let done = 0, started = 0;
    const t1 = Date.now();
    const record = (t: Target, o: Outcome, first = false) => {
      const s = stats.get(t.endpoint.slug)!;
      s.ms.push(o.ms);
      if (first) s.first = o.ms;
      if (o.error) s.errors.set(o.error, (s.errors.get(o.error) ?? 0) + 1);
      done++;
      if (pid && (done === 100 || done % 50 === 0 || done === total)) {
        const rss = procMemory(pid)?.rss ?? NaN;
        checkpoints.set(done, rss);
        console.log(`  ${String(done).padStart(5)}/${total} done  RSS ${rss} MB  peak so far ${peak} MB  (${((Date.now() - t1) / 1000).toFixed(0)} s)`);
      }
    };

    console.log(`soak: ${total} requests over ${targets.map((t) => t.endpoint.slug).join(', ')}; concurrency ${concurrency}`);
    // The first request of each endpoint alone, so its latency is the effect's (and its model loads'), not a queue's.
    for (const t of targets) {
      if (started >= total || Date.now() > deadline) break;
      started++;
      const o = await request(engine, t);
      record(t, o, true);
      console.log(`  first ${t.endpoint.slug}: ${(o.ms / 1000).toFixed(2)} s${o.error ? ` (${o.error})` : ''}`);
    }
    let stoppedEarly = false;
    const lane = async () => {
      while (started < total) {
        if (Date.now() > deadline) { stoppedEarly = true; return; }
        const t = targets[started++ % targets.length];
        record(t, await request(engine, t));
      }
    };
    await Promise.all(Array.from({ length: concurrency }, lane));
    if (sampler) clearInterval(sampler);
    if (pid && !checkpoints.has(done)) checkpoints.set(done, procMemory(pid)?.rss ?? NaN);
    const wallS = (Date.now() - t1) / 1000;
    const hwm = pid ? procMemory(pid)?.hwm : undefined;
    const endHealth = await (await fetch(`${engine.base}/healthz`)).json() as Record<string, unknown>;
    await engine.stop();

    // Then each endpoint's first request on a fresh engine of its own: it pays its own model loads.
    if (spawned && !opts['no-cold']) {
      for (const t of targets) {
        const e = await spawnEngine();
        try {
          await settledRss(e.pid!, e.base);
          const o = await request(e, { ...t, sent: 0 });
          cold.set(t.endpoint.slug, o);
          console.log(`cold start ${t.endpoint.slug}: first request ${(o.ms / 1000).toFixed(2)} s${o.error ? ` (${o.error})` : ''}`);
        } finally {
          await e.stop();
        }
      }
    }

    say();
    say(`soak ${new Date().toISOString()}: ${done} requests in ${wallS.toFixed(0)} s at concurrency ${concurrency}` +
      `${stoppedEarly ? ` (stopped at the ${opts['max-minutes']} min limit)` : ''}; ${os.availableParallelism()} cores, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
    say(`engine: ${spawned ? `spawned (pid ${pid}), ready ${((engine.startMs ?? NaN) / 1000).toFixed(1)} s after spawn` : engine.base}`);
    say();
    const row = (c: string[]) => say(c[0].padEnd(38) + c.slice(1, 7).map((x) => x.padStart(8)).join('') + '  ' + c[7]);
    row(['endpoint', 'count', 'p50 s', 'p95 s', 'max s', 'first s', 'cold s', 'errors']);
    for (const t of targets) {
      const s = stats.get(t.endpoint.slug)!;
      const c = cold.get(t.endpoint.slug);
      const f = (ms: number | undefined) => (ms === undefined || Number.isNaN(ms) ? '-' : (ms / 1000).toFixed(2));
      const errors = [...s.errors].map(([k, v]) => `${k} x${v}`).join(', ') || 'none';
      row([`${t.endpoint.slug} (${t.endpoint.mode})`, String(s.ms.length), f(percentile(s.ms, 50)), f(percentile(s.ms, 95)),
        f(Math.max(...s.ms)), f(s.first), c ? f(c.ms) + (c.error ? '!' : '') : '-', errors]);
    }
    say('  first: the endpoint\'s first request in this run, sent alone (models of earlier endpoints may be loaded);');
    say('  cold: its first request on a fresh engine of its own, which opens the optimised models the run saved');
    say('  (an engine restarted after its install). Target for both after a lazy load: < 5 s.');
    say();
    if (pid) {
      const at = (n: number) => checkpoints.get(n);
      const last = Math.max(...checkpoints.keys());
      const a100 = at(100), aLast = at(last);
      const drift = a100 && aLast ? ((aLast - a100) / a100) * 100 : NaN;
      say(`RSS after start, no request: ${startRss} MB   (target <= 600 MB)`);
      say(`RSS peak (250 ms samples):   ${peak} MB   (target <= 3072 MB); VmHWM ${hwm} MB`);
      say(`RSS after request 100:       ${a100 ?? '-'} MB`);
      say(`RSS after request ${last}:       ${aLast ?? '-'} MB   (${Number.isNaN(drift) ? '-' : `${drift >= 0 ? '+' : ''}${drift.toFixed(1)}%`} vs request 100; target within 10%)`);
      say(`RSS along the way: ${[...checkpoints].sort((a, b) => a[0] - b[0]).map(([n, r]) => `${n}:${r}`).join(' ')}`);
    } else {
      say('RSS not measured: the engine was given by URL (pass --pid PID to sample it)');
    }
    const models = endHealth.models;
    if (models) say(`healthz models at the end: ${JSON.stringify(models)}`);
    const failed = [...stats.values()].some((s) => s.errors.size);
    process.exitCode = failed ? 1 : 0;
  } finally {
    await engine.stop();
  }
}

async function health(e: Engine): Promise<Record<string, string>> {
  const h = await (await fetch(`${e.base}/healthz`)).json() as { effects?: Record<string, string> };
  return h.effects ?? {};
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address() as { port: number }; s.close(() => resolve(port)); });
  });
}

function positive(name: string, v: string | undefined): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) { console.error(`--${name}: expected a positive number, got ${v}`); process.exit(2); }
  return n;
}

function sleep(ms: number) { return new Promise((r) => setTimeout(r, ms)); }

main().catch((err) => {
  console.error('soak failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
