/**
 * Async tasks in SQLite, the embedded task backend's storage (embedded-backend.ts gives it the backend's
 * asynchronous interface, backend.ts). A task row and its input files are written before its id is
 * returned, so accepted work survives a crash or restart. Inputs are blobs of the inputs store
 * (`task-inputs/<id>/<field>`) and rows name them by key; rows written before keys name them by their path,
 * read as the same key. A claim takes the oldest queued task in one UPDATE … RETURNING, so two claims never
 * get one task, and records its token, holder and lease.
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
import path from 'node:path';
import { createPrivateFile, privateFile } from '../data-dir.ts';
import { DiskBlobStore } from '../results/disk-blob-store.ts';
import type { ClaimedTask, NewImage, StoredImage, TaskFailure, TaskRow, TaskStatus } from './backend.ts';

/** Input keys: the task's id, then the form field (letters and underscores). */
export const INPUT_KEY = /^[a-f0-9]{32}\/[A-Za-z_]+$/;

interface Raw {
  id: string; slug: string; status: number; params: string; images: string; created_at: number;
  results: string | null; error: string | null; attempts: number; owner: string | null; claim: string | null;
}

/** An input as a row names it: by key, or (rows from before keys) by its file, which lay at task-inputs/<id>/<field>. */
type RawImage = StoredImage | { file: string; format: StoredImage['format']; maxPixels: number };
const imageOf = (img: RawImage): StoredImage => ('key' in img ? img
  : { key: `${path.basename(path.dirname(img.file))}/${path.basename(img.file)}`, format: img.format, maxPixels: img.maxPixels });

const fromRaw = (r: Raw): TaskRow => ({
  id: r.id, slug: r.slug, status: r.status as TaskStatus, params: JSON.parse(r.params),
  images: Object.fromEntries(Object.entries(JSON.parse(r.images) as Record<string, RawImage>).map(([f, img]) => [f, imageOf(img)])),
  createdAt: r.created_at, results: r.results ? JSON.parse(r.results) : undefined,
  error: r.error ? JSON.parse(r.error) : undefined, attempts: r.attempts, owner: r.owner ?? undefined,
});

/** Columns added since the first tables: databases of older engines get them, empty. */
const ADDED_COLUMNS = { owner: 'TEXT', claim: 'TEXT', claimed_by: 'TEXT', lease_until: 'INTEGER' };
const UNCLAIMED = 'claim = NULL, claimed_by = NULL, lease_until = NULL';

export class TaskStore {
  private readonly db: Database.Database;
  private readonly ownerSecret: Buffer;
  /** The inputs blob store, in the data folder. */
  readonly inputs: DiskBlobStore;

  constructor(dataDir: string) {
    this.inputs = new DiskBlobStore(path.join(dataDir, 'task-inputs'), INPUT_KEY, { durable: true });
    this.inputs.init();
    const file = path.join(dataDir, 'tasks.sqlite');
    createPrivateFile(file);
    for (const f of [`${file}-wal`, `${file}-shm`, `${file}-journal`]) privateFile(f); // as an older engine left them
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.exec(`CREATE TABLE IF NOT EXISTS tasks (
      id TEXT PRIMARY KEY, slug TEXT NOT NULL, status INTEGER NOT NULL, params TEXT NOT NULL, images TEXT NOT NULL,
      created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, results TEXT, error TEXT, attempts INTEGER NOT NULL DEFAULT 0,
      owner TEXT, claim TEXT, claimed_by TEXT, lease_until INTEGER)`);
    const columns = (this.db.prepare('PRAGMA table_info(tasks)').all() as { name: string }[]).map((c) => c.name);
    for (const [name, type] of Object.entries(ADDED_COLUMNS)) {
      if (!columns.includes(name)) this.db.exec(`ALTER TABLE tasks ADD COLUMN ${name} ${type}`);
    }
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
  create(slug: string, params: Record<string, unknown>, images: Record<string, NewImage>, owner?: string): TaskRow {
    const id = randomUUID().replace(/-/g, '');
    // Whatever fails (a full disk: ENOSPC on an input, SQLITE_FULL on the row), nothing of the task stays.
    try {
      const stored: Record<string, StoredImage> = {};
      for (const [field, img] of Object.entries(images)) {
        const key = `${id}/${field.replace(/[^a-z_]/gi, '_')}`;
        this.inputs.saveSync(key, img.bytes);
        stored[field] = { key, format: img.format, maxPixels: img.maxPixels };
      }
      const now = Date.now();
      this.db.prepare('INSERT INTO tasks (id, slug, status, params, images, created_at, updated_at, owner) VALUES (?, ?, 0, ?, ?, ?, ?, ?)')
        .run(id, slug, JSON.stringify(params), JSON.stringify(stored), now, now, owner ?? null);
    } catch (err) {
      this.inputs.deleteGroupSync(id);
      throw err;
    }
    return this.get(id)!;
  }

  get(id: string): TaskRow | undefined {
    const r = this.db.prepare('SELECT * FROM tasks WHERE id = ?').get(id) as Raw | undefined;
    return r && fromRaw(r);
  }

  /** Queued plus processing. */
  pendingCount(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM tasks WHERE status < 2').get() as { n: number }).n;
  }

  /** The oldest queued task, now processing under a new claim of `holder` until `now + leaseMs`; one statement, so exclusive. */
  claim(holder: string, leaseMs: number, now = Date.now()): ClaimedTask | undefined {
    const r = this.db.prepare(`UPDATE tasks SET status = 1, attempts = attempts + 1, claim = ?, claimed_by = ?, lease_until = ?, updated_at = ?
      WHERE id = (SELECT id FROM tasks WHERE status = 0 ORDER BY created_at LIMIT 1) AND status = 0 RETURNING *`)
      .get(randomUUID(), holder, now + leaseMs, now) as Raw | undefined;
    return r && { ...fromRaw(r), claim: r.claim! };
  }

  renew(task: ClaimedTask, leaseMs: number, now = Date.now()): boolean {
    return this.db.prepare('UPDATE tasks SET lease_until = ? WHERE id = ? AND claim = ?').run(now + leaseMs, task.id, task.claim).changes === 1;
  }

  complete(task: ClaimedTask, results: string[]): boolean {
    return this.finish(task, 'results', results);
  }

  fail(task: ClaimedTask, error: TaskFailure): boolean {
    return this.finish(task, 'error', error);
  }

  /**
   * A claimed task goes back to the queue; `refund` takes back the attempt it was counted (when the disk,
   * not the task, stopped it).
   */
  release(task: ClaimedTask, refund: boolean) {
    this.db.prepare(`UPDATE tasks SET status = 0, attempts = ${refund ? 'max(attempts - 1, 0)' : 'attempts'}, ${UNCLAIMED}, updated_at = ?
      WHERE id = ? AND claim = ?`).run(Date.now(), task.id, task.claim);
  }

  /**
   * Tasks processing under another holder than `holder` go back to the queue; returns how many. Only for an
   * engine that holds the data folder's lock: then no other engine is alive on this database.
   */
  recoverInterrupted(holder: string): number {
    return this.db.prepare(`UPDATE tasks SET status = 0, ${UNCLAIMED}, updated_at = ? WHERE status = 1 AND (claimed_by IS NULL OR claimed_by != ?)`)
      .run(Date.now(), holder).changes;
  }

  /** Tasks whose lease ran out before `now` go back to the queue, their attempt counted; returns how many. */
  requeueExpired(now = Date.now()): number {
    return this.db.prepare(`UPDATE tasks SET status = 0, ${UNCLAIMED}, updated_at = ? WHERE status = 1 AND lease_until < ?`).run(now, now).changes;
  }

  /** Deletes tasks (and leftover inputs) older than `maxAgeMs`, but not one under a lease that still holds. */
  sweep(maxAgeMs: number, now = Date.now()): number {
    const where = 'created_at < ? AND NOT (status = 1 AND coalesce(lease_until, 0) >= ?)';
    const old = this.db.prepare(`SELECT id FROM tasks WHERE ${where}`).all(now - maxAgeMs, now) as { id: string }[];
    for (const { id } of old) this.inputs.deleteGroupSync(id);
    return this.db.prepare(`DELETE FROM tasks WHERE ${where}`).run(now - maxAgeMs, now).changes;
  }

  close() { this.db.close(); }

  /** Records an outcome while the claim is the task's own, then drops its inputs. */
  private finish(task: ClaimedTask, column: 'results' | 'error', value: unknown): boolean {
    const done = this.db.prepare(`UPDATE tasks SET status = 2, ${column} = ?, ${UNCLAIMED}, updated_at = ? WHERE id = ? AND claim = ?`)
      .run(JSON.stringify(value), Date.now(), task.id, task.claim).changes === 1;
    if (done) this.inputs.deleteGroupSync(task.id);
    return done;
  }
}
