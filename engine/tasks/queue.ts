/**
 * Runs queued tasks on the worker pool, oldest first, a few at a time so sync requests still get
 * workers. On start, tasks interrupted by a stop are queued again. A task that failed to finish three
 * times (for example because it brought the process down) is failed instead of retried forever.
 *
 * A task whose step or outcome cannot be written (the disk is full: SQLITE_FULL, ENOSPC) is neither lost
 * nor failed: the queue pauses, and a timer (never a tight loop) tries again once the disk has its
 * reserve free: after `retryMs`, twice as long after each try that fails again (up to 30 s: a full disk
 * that statfs does not show, such as a quota or no inodes left, must not re-run a task every 2 s), and
 * every `retryMs` while statfs shows the reserve short, which costs nothing to check. A task that had
 * started is then queued again, its attempt not counted (the disk, not the task, stopped it), and its
 * results already saved are removed; it runs again from its stored inputs, which stay until its outcome
 * is recorded.
 */
import { CodedError, errorCodes, isErrorCode } from '../../contract/errors.ts';
import type { Endpoint } from '../../contract/endpoint.ts';
import type { EncodedImage } from '../image/raster.ts';
import type { EffectOutput } from '../pipeline/effect.ts';
import { isNoSpace, type StorageMonitor } from '../storage.ts';
import type { WorkerPool } from '../workers/pool.ts';
import type { ResultStore } from '../results/store.ts';
import type { TaskRow, TaskStore } from './store.ts';
import fs from 'node:fs/promises';

const MAX_ATTEMPTS = 3;
const MAX_RETRY_MS = 30_000;

export class TaskQueue {
  private readonly running = new Set<string>();
  /**
   * Tasks left `processing` in the store because their outcome could not be written; queued again when
   * writes succeed. The value: whether to give back the attempt the stop cost (not for those a stop of
   * the engine interrupted: that attempt counts, as at any start).
   */
  private readonly unrecorded = new Map<string, boolean>();
  private stopping = false;
  private interrupted = false;
  private idleWaiters: (() => void)[] = [];
  private retryTimer: NodeJS.Timeout | undefined;
  private pumpSoon = false;
  private readonly retryMs: number;
  /** Writes that failed for want of room since an outcome was last recorded: the wait doubles with each. */
  private failedWrites = 0;

  constructor(
    private readonly store: TaskStore,
    private readonly pool: WorkerPool,
    private readonly results: ResultStore,
    private readonly storage: StorageMonitor,
    private readonly opts: { concurrency: number; timeoutMs: number; retryMs?: number; endpoints: readonly Endpoint[] },
  ) {
    this.retryMs = opts.retryMs ?? 2000;
  }

  start(): number {
    let n: number;
    try {
      n = this.store.requeueInterrupted();
    } catch (err) {
      if (!isNoSpace(err)) throw err;
      // Started on a full disk: they are queued again once there is room.
      const ids = this.store.processingIds();
      for (const id of ids) this.unrecorded.set(id, false);
      this.cannotWrite(err, `${ids.length} interrupted tasks could not be queued again`);
      return ids.length;
    }
    this.pump();
    return n;
  }

  /** Wakes the queue after a submit. */
  pump() {
    if (this.stopping || this.retryTimer) return; // paused, the timer goes on
    const free = this.opts.concurrency - this.running.size;
    if (free <= 0) return;
    for (const task of this.store.queued(free + this.running.size)) {
      if (this.running.size >= this.opts.concurrency || this.retryTimer) break;
      if (this.running.has(task.id)) continue;
      void this.run(task).catch((err) => console.error(`[tasks] ${task.id}: the queue failed:`, err));
    }
  }

  get inFlight(): number { return this.running.size; }

  /** Whether the queue waits for the disk (a write failed for want of space). */
  get paused(): boolean { return this.retryTimer !== undefined; }

  /** Stops taking new tasks; those running go on, and their outcome is recorded (a drain waits for them). */
  stop() { this.stopping = true; this.clearRetry(); }

  /**
   * The pool is about to be closed under the running tasks: their failures are the stop's, not theirs,
   * so they stay `processing` and are re-run after a restart.
   */
  interrupt() { this.stopping = true; this.interrupted = true; this.clearRetry(); }

  /** Resolves when no task is running (tests and graceful shutdown use it). */
  whenIdle(): Promise<void> {
    return this.running.size === 0 ? Promise.resolve() : new Promise((r) => this.idleWaiters.push(r));
  }

  private async run(task: TaskRow) {
    this.running.add(task.id);
    let started = false;
    const saved: string[] = [];
    try {
      if (task.attempts >= MAX_ATTEMPTS) {
        this.store.fail(task.id, { status: 500, code: 'PROCESSING_FAILURE', message: `${task.slug} could not finish after ${MAX_ATTEMPTS} attempts` });
        return;
      }
      this.store.markProcessing(task.id);
      started = true;
      this.storage.noteWritten();
      const images = Object.fromEntries(await Promise.all(Object.entries(task.images).map(async ([field, img]) =>
        [field, { bytes: new Uint8Array(await fs.readFile(img.file)), format: img.format, maxPixels: img.maxPixels }] as const)));
      const output = await this.pool.run(task.slug, images, task.params, this.opts.timeoutMs);
      const endpoint = this.opts.endpoints.find((e) => e.slug === task.slug);
      if (!endpoint) throw new CodedError('PROCESSING_FAILURE', `${task.slug} is not an endpoint of this engine`);
      for (const img of taskImages(endpoint, output)) saved.push(await this.results.save(img));
      this.store.complete(task.id, saved);
      this.failedWrites = 0;
    } catch (err) {
      // A stop in the middle leaves the task `processing`, so the next start runs it again.
      if (this.interrupted) return;
      if (isNoSpace(err)) return this.unrecordable(task, started, saved, err);
      const code = err instanceof CodedError && isErrorCode(err.code) ? err.code : 'PROCESSING_FAILURE';
      const message = err instanceof CodedError ? err.message : `${task.slug} failed while processing the image`;
      if (!(err instanceof CodedError)) console.error(`[tasks] ${task.id} failed:`, err);
      try {
        this.store.fail(task.id, { status: errorCodes[code].status, code, message });
        this.failedWrites = 0;
      } catch (err2) {
        // Its failure is found again when it runs again.
        this.unrecordable(task, started, saved, err2);
      }
    } finally {
      this.running.delete(task.id);
      if (this.running.size === 0) for (const w of this.idleWaiters.splice(0)) w();
      // Not from within this call: a task that ends at once must not start the next one on this stack.
      if (!this.pumpSoon) {
        this.pumpSoon = true;
        setImmediate(() => { this.pumpSoon = false; this.pump(); });
      }
    }
  }

  /** A write for `task` failed: it is queued again once writes succeed, and what it saved goes. */
  private unrecordable(task: TaskRow, started: boolean, saved: string[], err: unknown) {
    if (started) this.unrecorded.set(task.id, true);
    for (const name of saved) void this.results.remove(name);
    this.cannotWrite(err, `${task.id} (${task.slug}) could not be recorded; it runs again once the disk has room`);
  }

  /** Pauses the queue until the timer finds room and the left-over writes succeed. */
  private cannotWrite(err: unknown, what: string) {
    if (isNoSpace(err)) this.storage.noteFull(err);
    this.failedWrites++;
    if (!this.retryTimer) console.error(`[tasks] ${what}; the queue waits, trying again in ${this.backoffMs() / 1000} s:`, err instanceof Error ? err.message : err);
    this.schedule(this.backoffMs());
  }

  private backoffMs() { return Math.min(MAX_RETRY_MS, this.retryMs * 2 ** Math.max(0, Math.min(this.failedWrites - 1, 10))); }

  private schedule(ms = this.retryMs) {
    if (this.stopping || this.retryTimer) return;
    this.retryTimer = setTimeout(() => { this.retryTimer = undefined; this.resume(); }, ms);
  }

  private clearRetry() {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  private resume() {
    if (this.stopping) return;
    // Below the reserve nothing is tried; above it, the writes themselves tell.
    if (!this.storage.hasRoom()) return this.schedule();
    try {
      for (const [id, refund] of this.unrecorded) {
        this.store.requeue(id, refund);
        this.unrecorded.delete(id);
      }
    } catch (err) {
      if (isNoSpace(err)) this.storage.noteFull(err);
      this.failedWrites++;
      return this.schedule(this.backoffMs());
    }
    this.pump();
  }
}

/** The images a finished task of this endpoint keeps, in the order its result URLs are answered. */
function taskImages(endpoint: Endpoint, output: EffectOutput): EncodedImage[] {
  return (endpoint.result.taskImages ?? []).map((name) => {
    const img = output.images[name];
    if (!img) throw new CodedError('PROCESSING_FAILURE', `${endpoint.slug} produced no ${name} image`);
    return img;
  });
}
