/**
 * A task belongs to the key that submitted it: another valid key gets the same 404 as for an id that does
 * not exist, before and after the task completes, so neither its status nor its result URLs leak. The key
 * is never stored, only a keyed hash of it; the SDK's header is the same key; a database from before tasks
 * had owners is migrated, its ownerless tasks readable by any valid key as before.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { form, get, solidPng, startTestEngine, testInvertEffect, until, type TestEngine } from '../helpers.ts';

const BEARD_REMOVAL = '/api/portrait/editing/ai-beard-removal';
const QUERY = '/api/common/query-async-task-result';
const KEY_A = 'key-a-0123456789abcdef';
const KEY_B = 'key-b-0123456789abcdef';
const keyA = { 'service-api-key': KEY_A };
const keyB = { 'service-api-key': KEY_B };

const engines: TestEngine[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close().catch(() => {})));
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function start(dataDir?: string) {
  const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'atelier-test-'));
  if (!dirs.includes(dir)) dirs.push(dir);
  const e = await startTestEngine({ dataDir: dir, apiKeys: [KEY_A, KEY_B], extraEffects: { 'ai-beard-removal': testInvertEffect } });
  engines.push(e);
  return e;
}

const query = (e: TestEngine, id: string, headers: Record<string, string>) => get(e, `${QUERY}?task_id=${id}`, headers);

/** The answer another key gets: that of an id nobody submitted, word for word but for the id. */
async function expectNotVisible(e: TestEngine, id: string, headers: Record<string, string>) {
  const r = await query(e, id, headers);
  const unknownId = 'f'.repeat(32);
  const unknown = await query(e, unknownId, headers);
  expect(r.status).toBe(404);
  expect(r.body.error_detail.code).toBe('ERROR_TASK_NOT_EXISTS');
  expect(r.body.error_detail.message.replace(id, 'ID')).toBe(unknown.body.error_detail.message.replace(unknownId, 'ID'));
  expect(Object.keys(r.body).sort()).toEqual(Object.keys(unknown.body).sort());
  expect(JSON.stringify(r.body)).not.toMatch(/result|task_status/);
}

/** Submits with exactly `headers` (helpers' post adds the tests' usual key). */
async function submit(e: TestEngine, headers: Record<string, string>) {
  const res = await fetch(`${e.url}${BEARD_REMOVAL}`, { method: 'POST', body: form({ image: await solidPng(40, 30) }), headers });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.task_id as string;
}

/** Every byte of the task database (with its log), to look for a key in it. */
const databaseBytes = (dir: string) => Buffer.concat(fs.readdirSync(dir).filter((f) => f.startsWith('tasks.sqlite'))
  .map((f) => fs.readFileSync(path.join(dir, f))));

/** Polls as `headers` until the task completes; returns the last answer. */
async function done(e: TestEngine, id: string, headers: Record<string, string>) {
  let r = await query(e, id, headers);
  await until(`task ${id} to complete`, async () => (r = await query(e, id, headers)).body.task_status === 2 || r.status !== 200);
  return r;
}

describe('task ownership', () => {
  it('answers another key 404 ERROR_TASK_NOT_EXISTS, as for an unknown id, while queued and once done', async () => {
    const e = await start();
    const id = await submit(e, keyA);
    await expectNotVisible(e, id, keyB);
    const first = await query(e, id, keyA);
    expect(first.status).toBe(200);
    expect([0, 1, 2]).toContain(first.body.task_status);
    const finished = await done(e, id, keyA);
    expect(finished.status).toBe(200);
    expect(finished.body.data.result_urls).toHaveLength(1);
    await expectNotVisible(e, id, keyB);
    // B's own tasks are B's.
    const idB = await submit(e, keyB);
    expect((await done(e, idB, keyB)).body.data.result_urls).toHaveLength(1);
    await expectNotVisible(e, idB, keyA);
  });

  it('takes the SDK header (ailabapi-api-key) as the same key, hence the same owner', async () => {
    const e = await start();
    const viaSdk = await submit(e, { 'ailabapi-api-key': KEY_A });
    expect((await done(e, viaSdk, keyA)).body.data.result_urls).toHaveLength(1);
    const viaOwn = await submit(e, keyA);
    expect((await done(e, viaOwn, { 'ailabapi-api-key': KEY_A })).body.data.result_urls).toHaveLength(1);
    await expectNotVisible(e, viaSdk, { 'ailabapi-api-key': KEY_B });
    await expectNotVisible(e, viaOwn, keyB);
  });

  it('keeps the owner across a restart, storing no key', async () => {
    const first = await start();
    const id = await submit(first, keyA);
    await done(first, id, keyA);
    await first.close();
    engines.splice(engines.indexOf(first), 1);
    const bytes = databaseBytes(first.dataDir);
    expect(bytes.includes(KEY_A)).toBe(false);
    expect(bytes.includes(KEY_B)).toBe(false);

    const second = await start(first.dataDir);
    expect((await query(second, id, keyA)).body.data.result_urls).toHaveLength(1);
    await expectNotVisible(second, id, keyB);
  });

  it('migrates a database from before owners: its tasks stay readable by any valid key, new ones are scoped', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atelier-test-'));
    dirs.push(dir);
    // The table as engines before task ownership made it, with one finished task in it.
    const old = new Database(path.join(dir, 'tasks.sqlite'));
    old.pragma('journal_mode = WAL');
    old.exec(`CREATE TABLE tasks (
      id TEXT PRIMARY KEY, slug TEXT NOT NULL, status INTEGER NOT NULL, params TEXT NOT NULL, images TEXT NOT NULL,
      created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, results TEXT, error TEXT, attempts INTEGER NOT NULL DEFAULT 0)`);
    const legacy = '0123456789abcdef0123456789abcdef';
    old.prepare("INSERT INTO tasks (id, slug, status, params, images, created_at, updated_at, results, attempts) VALUES (?, 'ai-beard-removal', 2, '{}', '{}', ?, ?, ?, 1)")
      .run(legacy, Date.now(), Date.now(), JSON.stringify(['0123456789abcdef0123456789abcdef.png']));
    old.close();

    const e = await start(dir);
    for (const headers of [keyA, keyB]) {
      const r = await query(e, legacy, headers);
      expect(r.status).toBe(200);
      expect(r.body.data.result_urls[0]).toMatch(/\/results\/0123456789abcdef0123456789abcdef\.png$/);
    }
    const id = await submit(e, keyA);
    await expectNotVisible(e, id, keyB);
    expect((await done(e, id, keyA)).body.data.result_urls).toHaveLength(1);
  });
});
