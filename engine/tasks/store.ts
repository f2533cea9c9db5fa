/**
 * Async tasks in SQLite. A task row and its input files are written before its id is returned, so
 * accepted work survives a crash or restart; `requeueInterrupted` puts running tasks back in the queue.
 *
 * A task belongs to the key that submitted it: `owner` is an HMAC-SHA256 of the key under a random
 * secret made once per database (table `meta`), never the key. Stable across restarts and changes to the
 * key list; keyed, so it matches no plain hash of the key kept or computed elsewhere and no table made
 * for another install. Whoever has the whole database has the secret too and could test guesses of a
 * weak key at hash speed: keys should be random (the generated one is 192 bits). Databases from before
 * owners get the column added (NULL): those tasks' owner is unknown, so any valid key may read them, as
 * every key could when they were made; they go after the retention time (24 h by default).
 */
import Database from 'better-sqlite3';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ImageFormat } from '../../contract/limits.ts';
import { createPrivateFile, PRIVATE_DIR, PRIVATE_FILE, privateDir, privateFile } from '../data-dir.ts';

export type TaskStatus = 0 | 1 | 2;

export interface StoredImage { file: string; format: ImageFormat; maxPixels: number }

export interface TaskRow {
  id: string;
  slug: string;
  status: TaskStatus;
  params: Record<string, unknown>;
  images: Record<string, StoredImage>;
  createdAt: number;
  /** Result file names, when completed successfully. */
  results?: string[];
  error?: { status: number; code: string; message: string };
  attempts: number;
  /** The submitting key's `ownerOf`; undefined for tasks from before owners were kept (any key reads those). */
  owner?: string;
}

interface Raw {
  id: string; slug: string; status: number; params: string; images: string; created_at: number;
  results: string | null; error: string | null; attempts: number; owner: string | null;
}

const fromRaw = (r: Raw): TaskRow => ({
  id: r.id, slug: r.slug, status: r.status as TaskStatus, params: JSON.parse(r.params), images: JSON.parse(r.images),
  createdAt: r.created_at, results: r.results ? JSON.parse(r.results) : undefined,
  error: r.error ? JSON.parse(r.error) : undefined, attempts: r.attempts, owner: r.owner ?? undefined,
});

export class TaskStore {
  private readonly db: Database.Database;
  private readonly ownerSecret: Buffer;
  readonly inputDir: string;

  constructor(dataDir: string) {
    this.inputDir = path.join(dataDir, 'task-inputs');
    privateDir(this.inputDir);
    const file = path.join(dataDir, 'tasks.sqlite');
    createPrivateFile(file);
    for (const f of [`${file}-wal`, `${file}-shm`, `${file}-journal`]) privateFile(f); // as an older engine left them
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.exec(`CREATE TABLE IF NOT EXISTS tasks (
      id TEXT PRIMARY KEY, slug TEXT NOT NULL, status INTEGER NOT NULL, params TEXT NOT NULL, images TEXT NOT NULL,
      created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, results TEXT, error TEXT, attempts INTEGER NOT NULL DEFAULT 0,
      owner TEXT)`);
    const columns = (this.db.prepare('PRAGMA table_info(tasks)').all() as { name: string }[]).map((c) => c.name);
    if (!columns.includes('owner')) this.db.exec('ALTER TABLE tasks ADD COLUMN owner TEXT');
    this.db.exec('CREATE INDEX IF NOT EXISTS tasks_status ON tasks(status, created_at)');
    this.db.exec('CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value BLOB NOT NULL)');
    const secret = () => (this.db.prepare("SELECT value FROM meta WHERE name = 'owner_secret'").get() as { value: Buffer } | undefined)?.value;
    if (!secret()) this.db.prepare("INSERT INTO meta (name, value) VALUES ('owner_secret', ?)").run(randomBytes(32));
    this.ownerSecret = secret()!;
  }

  /** The owner a key's tasks are stored under (see the top of this file). */
  ownerOf(key: string): string {
    return createHmac('sha256', this.ownerSecret).update(key).digest('base64url');
  }

  /** Saves the inputs durably and inserts the task as queued. */
  create(slug: string, params: Record<string, unknown>, images: Record<string, { bytes: Uint8Array; format: ImageFormat; maxPixels: number }>,
    owner?: string): TaskRow {
    const id = randomUUID().replace(/-/g, '');
    const dir = path.join(this.inputDir, id);
    fs.mkdirSync(dir, { mode: PRIVATE_DIR });
    // Whatever fails (a full disk: ENOSPC on an input, SQLITE_FULL on the row), nothing of the task stays.
    try {
      const stored: Record<string, StoredImage> = {};
      for (const [field, img] of Object.entries(images)) {
        const file = path.join(dir, field.replace(/[^a-z_]/gi, '_'));
        const fd = fs.openSync(file, 'w', PRIVATE_FILE);
        try {
          fs.writeFileSync(fd, img.bytes); // all of it: one write(2) may write less near a full disk
          fs.fsyncSync(fd);
        } finally {
          fs.closeSync(fd);
        }
        stored[field] = { file, format: img.format, maxPixels: img.maxPixels };
      }
      const now = Date.now();
      this.db.prepare('INSERT INTO tasks (id, slug, status, params, images, created_at, updated_at, owner) VALUES (?, ?, 0, ?, ?, ?, ?, ?)')
        .run(id, slug, JSON.stringify(params), JSON.stringify(stored), now, now, owner ?? null);
    } catch (err) {
      this.removeInputs(id);
      throw err;
    }
    return this.get(id)!;
  }

  get(id: string): TaskRow | undefined {
    const r = this.db.prepare('SELECT * FROM tasks WHERE id = ?').get(id) as Raw | undefined;
    return r && fromRaw(r);
  }

  /** Queued tasks, oldest first. */
  queued(limit: number): TaskRow[] {
    return (this.db.prepare('SELECT * FROM tasks WHERE status = 0 ORDER BY created_at LIMIT ?').all(limit) as Raw[]).map(fromRaw);
  }

  /** Queued plus processing. */
  pendingCount(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM tasks WHERE status < 2').get() as { n: number }).n;
  }

  markProcessing(id: string) {
    this.db.prepare('UPDATE tasks SET status = 1, attempts = attempts + 1, updated_at = ? WHERE id = ?').run(Date.now(), id);
  }

  complete(id: string, results: string[]) {
    this.db.prepare('UPDATE tasks SET status = 2, results = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(results), Date.now(), id);
    this.removeInputs(id);
  }

  fail(id: string, error: { status: number; code: string; message: string }) {
    this.db.prepare('UPDATE tasks SET status = 2, error = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(error), Date.now(), id);
    this.removeInputs(id);
  }

  /**
   * A task left `processing` goes back to the queue; `refund` takes back the attempt it was counted
   * (when the disk, not the task, stopped it).
   */
  requeue(id: string, refund: boolean) {
    this.db.prepare(`UPDATE tasks SET status = 0, attempts = ${refund ? 'max(attempts - 1, 0)' : 'attempts'}, updated_at = ? WHERE id = ? AND status = 1`)
      .run(Date.now(), id);
  }

  processingIds(): string[] {
    return (this.db.prepare('SELECT id FROM tasks WHERE status = 1').all() as { id: string }[]).map((r) => r.id);
  }

  /** Tasks cut off by a stop go back to the queue; returns how many. */
  requeueInterrupted(): number {
    return this.db.prepare('UPDATE tasks SET status = 0, updated_at = ? WHERE status = 1').run(Date.now()).changes;
  }

  /** Deletes tasks (and leftover inputs) older than `maxAgeMs`. */
  sweep(maxAgeMs: number, now = Date.now()): number {
    const old = this.db.prepare('SELECT id FROM tasks WHERE created_at < ?').all(now - maxAgeMs) as { id: string }[];
    for (const { id } of old) this.removeInputs(id);
    return this.db.prepare('DELETE FROM tasks WHERE created_at < ?').run(now - maxAgeMs).changes;
  }

  close() { this.db.close(); }

  private removeInputs(id: string) {
    fs.rmSync(path.join(this.inputDir, id), { recursive: true, force: true });
  }
}
