/**
 * A stop signal sent to the whole process group (Ctrl-C in a terminal, `kill -- -PGID`, systemd's default
 * KillMode) while a request is under way: the engine, started the way `npm run engine` and `npm start` start
 * it (node --import tsx: one process, no relaying parent), must drain as it does
 * for a lone SIGTERM. Each process runs in a group of its own (detached), and the test signals that group.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { form, solidPng, until } from '../helpers.ts';

const FACE_BEAUTY = '/api/portrait/effects/face-beauty';
const root = path.resolve(import.meta.dirname, '../../..');
const KEY = 'group-stop-key-0123456789';

const groups: ChildProcess[] = [];
const dataDirs: string[] = [];
afterEach(async () => {
  for (const c of groups.splice(0)) {
    if (c.exitCode !== null || c.signalCode !== null) continue;
    const gone = new Promise((r) => c.once('exit', r));
    try { process.kill(-c.pid!, 'SIGKILL'); } catch { /* gone */ }
    await gone;
  }
  for (const d of dataDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** `node --import tsx <entry>` (as the npm scripts run it) in a process group of its own, its output collected; resolves once `ready` shows in it. */
async function startGroup(entry: string, env: Record<string, string>, ready: RegExp) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atelier-test-'));
  dataDirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: root,
    detached: true,
    env: {
      ...process.env, ATELIER_DATA_DIR: dataDir, ATELIER_WORKERS: '1', ATELIER_DRAIN_TIMEOUT_MS: '60000',
      ATELIER_TEST_EFFECTS: JSON.stringify({ 'face-beauty': 'test-slow' }), ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  groups.push(child);
  let out = '';
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { out += d; });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal, at: Date.now() })));
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const check = () => { const m = ready.exec(out); if (m) resolve(m); };
    child.stdout!.on('data', check);
    child.once('exit', (code) => reject(new Error(`${entry} exited (${code}) before it was ready:\n${out}`)));
  });
  return { child, exit, match, dataDir, output: () => out };
}

const signalGroup = (child: ChildProcess, signal: NodeJS.Signals) => process.kill(-child.pid!, signal);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** test-slow takes width x 100 ms: 40 px is 4 s. The answer's status, or the error that cut it off. */
async function slowPost(base: string, width: number, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${FACE_BEAUTY}`, { method: 'POST', body: form({ image: await solidPng(width, 10) }), headers });
  return { status: res.status, body: await res.json() as { data?: { image_url?: string } } };
}

async function busy(base: string, headers: Record<string, string> = {}) {
  const h = await fetch(`${base}/healthz`, { headers });
  return (await h.json() as { workers: { idle: number } }).workers.idle === 0;
}

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

const refusesConnections = (port: number) => new Promise<boolean>((resolve) => {
  const socket = net.connect(port, '127.0.0.1');
  socket.once('connect', () => { socket.destroy(); resolve(false); });
  socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
});

/**
 * The engine alone (engine-process.ts is server.ts plus test effects), warmed up: one short run first, so
 * the effect's module is loaded before the signal (see the note on tsx's esbuild service in server.ts).
 */
async function engineGroup() {
  const g = await startGroup(path.join(root, 'engine/test/engine-process.ts'),
    { ATELIER_API_KEYS: KEY, ATELIER_ENGINE_PORT: '0' }, /listening on (http:\/\/\S+)/);
  const url = g.match[1];
  const headers = { 'service-api-key': KEY };
  expect((await slowPost(url, 2, headers)).status).toBe(200);
  return { ...g, url, headers };
}

describe('a stop signal to the whole process group', () => {
  it('tsx engine/server.ts, SIGTERM to the group: the in-flight request is answered 200, then exit 0', async () => {
    const { child, exit, url, headers, output } = await engineGroup();
    const inFlight = slowPost(url, 40, headers).catch((err: Error) => err);
    await until('the request to run', () => busy(url, headers));
    signalGroup(child, 'SIGTERM');
    const done = await inFlight;
    expect(done, output()).not.toBeInstanceOf(Error);
    expect((done as { status: number }).status).toBe(200);
    expect((await exit).code, output()).toBe(0);
  });

  it('tsx engine/server.ts, SIGINT twice in quick succession (a terminal and a relay): still a drain, exit 0', async () => {
    const { child, exit, url, headers, output } = await engineGroup();
    const inFlight = slowPost(url, 40, headers).catch((err: Error) => err);
    await until('the request to run', () => busy(url, headers));
    signalGroup(child, 'SIGINT');
    await pause(40);
    signalGroup(child, 'SIGINT');
    const done = await inFlight;
    expect(done, output()).not.toBeInstanceOf(Error);
    expect((done as { status: number }).status).toBe(200);
    expect((await exit).code, output()).toBe(0);
  });

  it('a stop signal again after the pause stops at once, without waiting for the drain', async () => {
    const { child, exit, url, headers, output } = await engineGroup();
    const inFlight = slowPost(url, 600, headers).catch((err: Error) => err); // a minute
    await until('the request to run', () => busy(url, headers));
    signalGroup(child, 'SIGTERM');
    await pause(2000);
    expect(child.exitCode, output()).toBeNull(); // still draining
    const again = Date.now();
    signalGroup(child, 'SIGINT');
    const { code, at } = await exit;
    expect(at - again).toBeLessThan(10_000);
    expect(code, output()).not.toBe(0);
    expect(await inFlight).toBeInstanceOf(Error); // cut off
  });

  it('the studio as npm start runs it (tsx, vite preview and the engine in one process), SIGTERM to the group: the studio stops accepting, the request through it is answered 200, then exit 0', async () => {
    await studioStop(['SIGTERM']);
  });

  it('the studio as npm start runs it, SIGINT twice in quick succession: the same drain, exit 0', async () => {
    await studioStop(['SIGINT', 'SIGINT']);
  });
});

/** scripts/dev/studio-test-process.ts (studio-server.ts plus test effects), a request through its proxy, then `signals` to the group 40 ms apart. */
async function studioStop(signals: NodeJS.Signals[]) {
  const [enginePort, studioPort] = [await freePort(), await freePort()];
  const { child, exit, output } = await startGroup(path.join(root, 'scripts/dev/studio-test-process.ts'), {
    ATELIER_API_KEYS: '', ATELIER_API_KEY: '', ATELIER_ENGINE_PORT: String(enginePort), ATELIER_STUDIO_PORT: String(studioPort),
  }, /Atelier studio: (http:\/\/\S+)/);
  const studio = `http://127.0.0.1:${studioPort}`; // the proxy adds the key from the data folder
  expect((await slowPost(studio, 2)).status, output()).toBe(200);
  const inFlight = slowPost(studio, 40).catch((err: Error) => err);
  await until('the request to run', () => busy(studio));
  for (const [i, signal] of signals.entries()) {
    if (i > 0) await pause(40);
    signalGroup(child, signal);
  }
  await until('the studio to stop accepting', () => refusesConnections(studioPort), 5000);
  const done = await inFlight;
  expect(done, output()).not.toBeInstanceOf(Error);
  expect((done as { status: number }).status).toBe(200);
  expect((await exit).code, output()).toBe(0);
}
