/**
 * The single-machine backends (`npm start`, nothing to install): tasks in SQLite (store.ts), inputs and
 * results as files, all in the data folder, which this engine holds locked (data-dir.ts) for as long as the
 * backend is open. The lock is what makes the start-up recovery right here: no other engine can be alive
 * on the folder, so every task left processing by another holder is an earlier engine's, cut off by its
 * stop. A cluster backend has no such lock and must instead wait for leases to run out (docs/cluster.md).
 */
import path from 'node:path';
import type { DataDirLock } from '../data-dir.ts';
import { DiskBlobStore } from '../results/disk-blob-store.ts';
import { RESULT_NAME } from '../results/store.ts';
import type { ClaimedTask, NewImage, TaskBackend, TaskFailure, TaskRow } from './backend.ts';
import { TaskStore } from './store.ts';

/** The task backend on SQLite. Its methods answer at once underneath (better-sqlite3 is synchronous). */
export class EmbeddedTaskBackend implements TaskBackend {
  constructor(readonly store: TaskStore, private readonly lock: DataDirLock) {}

  ownerOf(key: string) { return this.store.ownerOf(key); }

  /** The task at once, for tests and tools that look into the embedded store; the engine uses `find`. */
  get(id: string): TaskRow | undefined { return this.store.get(id); }

  async submit(slug: string, params: Record<string, unknown>, images: Record<string, NewImage>, owner?: string) {
    return this.store.create(slug, params, images, owner);
  }

  async find(id: string) { return this.store.get(id); }
  async claim(holder: string, leaseMs: number, now?: number) { return this.store.claim(holder, leaseMs, now); }
  async renew(task: ClaimedTask, leaseMs: number, now?: number) { return this.store.renew(task, leaseMs, now); }
  async complete(task: ClaimedTask, results: string[]) { return this.store.complete(task, results); }
  async fail(task: ClaimedTask, error: TaskFailure) { return this.store.fail(task, error); }
  async release(task: ClaimedTask, refund: boolean) { this.store.release(task, refund); }
  async pendingCount() { return this.store.pendingCount(); }
  async recoverInterrupted(holder: string) { return this.store.recoverInterrupted(holder); }
  async requeueExpired(now?: number) { return this.store.requeueExpired(now); }
  async sweep(maxAgeMs: number, now?: number) { return this.store.sweep(maxAgeMs, now); }

  async close() {
    try {
      this.store.close();
    } finally {
      this.lock.release();
    }
  }
}

export interface EmbeddedBackends {
  tasks: EmbeddedTaskBackend;
  inputs: DiskBlobStore;
  results: DiskBlobStore;
  /** The folders written to, for the storage monitor's statfs. */
  dirs: string[];
}

/**
 * Opens the backends in `lock`'s data folder (taken by the caller, before anything in it is read). Closing
 * the task backend releases the lock; if opening fails, the caller releases it.
 */
export function openEmbeddedBackends(lock: DataDirLock): EmbeddedBackends {
  const results = new DiskBlobStore(path.join(lock.dir, 'results'), RESULT_NAME, { durable: false });
  results.init();
  const store = new TaskStore(lock.dir);
  return { tasks: new EmbeddedTaskBackend(store, lock), inputs: store.inputs, results, dirs: [lock.dir, store.inputs.dir, results.dir] };
}
