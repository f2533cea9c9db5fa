/** The data folder: one engine at a time, and nobody else's to read. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { configFromEnv } from '../config.ts';
import { startEngine } from '../server.ts';
import { testDataDir, form, get, post, solidPng, startTestEngine, testInvertEffect, testSlowEffect, until, waitReady, TEST_KEY, type TestEngine } from './helpers.ts';

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
    const dataDir = testDataDir();
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

describe('data folder lock, odd cases', () => {
  it('says plainly when engine.lock is not its own, and leaves it alone', async () => {
    const dataDir = testDataDir();
    fs.writeFileSync(path.join(dataDir, 'engine.lock'), '12345\n');
    await expect(startTestEngine({ dataDir })).rejects.toThrow(/engine\.lock is not an Atelier lock .*delete it/);
    expect(fs.readFileSync(path.join(dataDir, 'engine.lock'), 'utf8')).toBe('12345\n');
    expect(fs.existsSync(path.join(dataDir, 'tasks.sqlite'))).toBe(false);
  });
});

describe('file modes', () => {
  const mode = (p: string) => (fs.statSync(p).mode & 0o777).toString(8);
  let umask: number | undefined;
  afterEach(() => { if (umask !== undefined) process.umask(umask); umask = undefined; });

  it.each(['a new folder', 'a folder an older engine left world-readable'])('keeps what it writes to its own user (%s)', async (which) => {
    umask = process.umask(0o022); // the usual umask, under which files would be created 0644 and folders 0755
    const dataDir = testDataDir();
    if (which !== 'a new folder') {
      fs.chmodSync(dataDir, 0o755);
      fs.mkdirSync(path.join(dataDir, 'results'), { mode: 0o755 });
      fs.mkdirSync(path.join(dataDir, 'task-inputs'), { mode: 0o755 });
      fs.writeFileSync(path.join(dataDir, 'api-key'), 'an-older-key-0123456789\n', { mode: 0o644 });
      const db = new Database(path.join(dataDir, 'tasks.sqlite'));
      db.exec('CREATE TABLE kept (x)');
      db.close();
      expect(mode(path.join(dataDir, 'tasks.sqlite'))).toBe('644');
    }
    const { app, address } = await startEngine({
      ...configFromEnv({}), dataDir, port: 0, host: '127.0.0.1', workers: 1, apiKeys: [],
      extraEffects: { 'face-beauty': testInvertEffect, 'ai-beard-removal': testSlowEffect },
    }, { log: false });
    const e = { app, url: address, dataDir } as TestEngine;
    try {
      const key = { 'service-api-key': fs.readFileSync(path.join(dataDir, 'api-key'), 'utf8').trim() };
      const sync = await post(e, '/api/portrait/effects/face-beauty', form({ image: await solidPng(40, 30) }), key);
      expect(sync.status).toBe(200);
      const task = await post(e, '/api/portrait/editing/ai-beard-removal', form({ image: await solidPng(300, 20) }), key); // 30 s
      expect(task.status).toBe(200);
      const inputs = path.join(dataDir, 'task-inputs', task.body.task_id);

      const modes = Object.fromEntries([
        ['data folder', dataDir], ['results', path.join(dataDir, 'results')], ['task-inputs', path.join(dataDir, 'task-inputs')],
        ['task input folder', inputs], ['task input', path.join(inputs, 'image')],
        ['result', path.join(dataDir, 'results', new URL(sync.body.data.image_url).pathname.split('/').pop()!)],
        ['api-key', path.join(dataDir, 'api-key')], ['engine.lock', path.join(dataDir, 'engine.lock')], ['engine.pid', path.join(dataDir, 'engine.pid')],
        ...['tasks.sqlite', 'tasks.sqlite-wal', 'tasks.sqlite-shm'].map((f) => [f, path.join(dataDir, f)]),
      ].map(([what, p]) => [what, mode(p)]));
      expect(modes).toEqual({
        'data folder': '700', results: '700', 'task-inputs': '700', 'task input folder': '700', 'task input': '600', result: '600',
        'api-key': '600', 'engine.lock': '600', 'engine.pid': '600', 'tasks.sqlite': '600', 'tasks.sqlite-wal': '600', 'tasks.sqlite-shm': '600',
      });
    } finally {
      await app.close();
    }
  });
});
