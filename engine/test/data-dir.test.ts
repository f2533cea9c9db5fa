/** The data folder: one engine at a time. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { configFromEnv } from '../config.ts';
import { startEngine } from '../server.ts';
import { form, get, post, solidPng, startTestEngine, testSlowEffect, waitReady, TEST_KEY, type TestEngine } from './helpers.ts';

const BEARD_REMOVAL = '/api/portrait/editing/ai-beard-removal';
const QUERY = '/api/common/query-async-task-result';
const engines: TestEngine[] = [];
const start = async (o = {}) => { const e = await startTestEngine(o); engines.push(e); return e; };
afterEach(async () => { await Promise.all(engines.splice(0).map((e) => e.close().catch(() => {}))); });

const taskRow = (dataDir: string, id: string) => {
  const db = new Database(path.join(dataDir, 'tasks.sqlite'), { readonly: true });
  try { return db.prepare('SELECT status, attempts FROM tasks WHERE id = ?').get(id) as { status: number; attempts: number }; }
  finally { db.close(); }
};

async function until(what: string, ok: () => boolean | Promise<boolean>, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Another process that tries to lock the folder: it prints `locked` (and holds the lock until killed)
 * or `refused: <message>` (and exits).
 */
function locker(dataDir: string) {
  const lockModule = new URL('../data-dir.ts', import.meta.url).href;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e',
    `const { lockDataDir } = await import(${JSON.stringify(lockModule)});
     try { lockDataDir(process.argv[1]); } catch (err) { console.log('refused: ' + err.message); process.exit(0); }
     console.log('locked'); setInterval(() => {}, 60_000);`,
    dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((r) => child.once('exit', r));
  const said = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => { out += d; if (out.includes('\n')) resolve(out.trim()); });
    child.once('exit', (code) => reject(new Error(`the locking process exited (${code}) saying ${out}`)));
  });
  return { child, said, exited };
}

describe('data folder lock', () => {
  it('refuses a second engine on a folder in use, before it touches anything', async () => {
    const first = await start({ workers: 1, extraEffects: { 'ai-beard-removal': testSlowEffect } });
    await waitReady(first); // (stopping a worker while it loads its models can abort the whole process)
    const { body } = await post(first, BEARD_REMOVAL, form({ image: await solidPng(300, 20) })); // runs 30 s
    await until('the task to run', async () => (await get(first, `${QUERY}?task_id=${body.task_id}`)).body.task_status === 1);
    const before = taskRow(first.dataDir, body.task_id);
    expect(before).toEqual({ status: 1, attempts: 1 });

    // On the same port (it then fails to listen) and on another one; with no key configured, so a
    // key file would be made if the folder were touched.
    const config = { ...configFromEnv({}), dataDir: first.dataDir, host: '127.0.0.1', workers: 1, apiKeys: [] };
    const refusal = new RegExp(`data folder ${first.dataDir} is in use by another engine \\(pid ${process.pid}\\)`);
    await expect(startEngine({ ...config, port: Number(new URL(first.url).port) }, { log: false })).rejects.toThrow(refusal);
    await expect(startEngine({ ...config, port: 0 }, { log: false })).rejects.toThrow(refusal);
    await expect(buildApp({ ...config, apiKeys: [TEST_KEY] }, [TEST_KEY])).rejects.toThrow(refusal);

    // The refusals in this process left the first engine's lock whole for other processes too.
    expect(await locker(first.dataDir).said).toMatch(/^refused: .*in use by another engine/);

    expect(taskRow(first.dataDir, body.task_id)).toEqual(before); // not requeued, not run again
    expect(fs.existsSync(path.join(first.dataDir, 'api-key'))).toBe(false);
    expect((await get(first, `${QUERY}?task_id=${body.task_id}`)).body.task_status).toBe(1);
  });

  it('takes over the folder of an engine that died holding it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atelier-test-'));
    // Another process takes the lock and is then killed, leaving engine.pid with its (dead) pid behind.
    const holder = locker(dataDir);
    expect(await holder.said).toBe('locked');
    await expect(startTestEngine({ dataDir })).rejects.toThrow(`in use by another engine (pid ${holder.child.pid})`);
    holder.child.kill('SIGKILL');
    await holder.exited;
    expect(fs.readFileSync(path.join(dataDir, 'engine.pid'), 'utf8').trim()).toBe(String(holder.child.pid));

    const e = await start({ dataDir });
    expect(fs.readFileSync(path.join(dataDir, 'engine.pid'), 'utf8').trim()).toBe(String(process.pid));
    await waitReady(e);
    await e.close();
    expect(fs.existsSync(path.join(dataDir, 'engine.pid'))).toBe(false);
    await waitReady(await start({ dataDir })); // released on close
  });
});
