/**
 * Runs queued tasks on the worker pool, oldest first, a few at a time so sync requests still get
 * workers. On start, tasks interrupted by a stop are queued again. A task that failed to finish three
 * times (for example because it brought the process down) is failed instead of retried forever.
 */
import { errorCodes, isErrorCode } from '../../contract/errors.ts';
import { endpointBySlug } from '../../contract/index.ts';
import { EffectError } from '../pipeline/effect.ts';
import { taskImages } from '../http/result-body.ts';
import type { WorkerPool } from '../workers/pool.ts';
import type { ResultStore } from '../results/store.ts';
import type { TaskRow, TaskStore } from './store.ts';
import fs from 'node:fs/promises';

const MAX_ATTEMPTS = 3;

export class TaskQueue {
  private readonly running = new Set<string>();
  private stopping = false;
  private interrupted = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly store: TaskStore,
    private readonly pool: WorkerPool,
    private readonly results: ResultStore,
    private readonly opts: { concurrency: number; timeoutMs: number },
  ) {}

  start(): number {
    const n = this.store.requeueInterrupted();
    this.pump();
    return n;
  }

  /** Wakes the queue after a submit. */
  pump() {
    if (this.stopping) return;
    const free = this.opts.concurrency - this.running.size;
    if (free <= 0) return;
    for (const task of this.store.queued(free + this.running.size)) {
      if (this.running.size >= this.opts.concurrency) break;
      if (this.running.has(task.id)) continue;
      void this.run(task);
    }
  }

  get inFlight(): number { return this.running.size; }

  /** Stops taking new tasks; those running go on, and their outcome is recorded (a drain waits for them). */
  stop() { this.stopping = true; }

  /**
   * The pool is about to be closed under the running tasks: their failures are the stop's, not theirs,
   * so they stay `processing` and are re-run after a restart.
   */
  interrupt() { this.stopping = true; this.interrupted = true; }

  /** Resolves when no task is running (tests and graceful shutdown use it). */
  whenIdle(): Promise<void> {
    return this.running.size === 0 ? Promise.resolve() : new Promise((r) => this.idleWaiters.push(r));
  }

  private async run(task: TaskRow) {
    this.running.add(task.id);
    try {
      if (task.attempts >= MAX_ATTEMPTS) {
        this.store.fail(task.id, { status: 500, code: 'PROCESSING_FAILURE', message: `${task.slug} could not finish after ${MAX_ATTEMPTS} attempts` });
        return;
      }
      this.store.markProcessing(task.id);
      const images = Object.fromEntries(await Promise.all(Object.entries(task.images).map(async ([field, img]) =>
        [field, { bytes: new Uint8Array(await fs.readFile(img.file)), format: img.format, maxPixels: img.maxPixels }] as const)));
      const output = await this.pool.run(task.slug, images, task.params, this.opts.timeoutMs);
      const endpoint = endpointBySlug(task.slug);
      if (!endpoint) throw new EffectError('PROCESSING_FAILURE', `${task.slug} is not an endpoint of this engine`);
      const names = [];
      for (const img of taskImages(endpoint, output)) names.push(await this.results.save(img));
      this.store.complete(task.id, names);
    } catch (err) {
      // A stop in the middle leaves the task `processing`, so the next start runs it again.
      if (this.interrupted) return;
      const code = err instanceof EffectError && isErrorCode(err.code) ? err.code : 'PROCESSING_FAILURE';
      const message = err instanceof EffectError ? err.message : `${task.slug} failed while processing the image`;
      if (!(err instanceof EffectError)) console.error(`[tasks] ${task.id} failed:`, err);
      this.store.fail(task.id, { status: errorCodes[code].status, code, message });
    } finally {
      this.running.delete(task.id);
      if (this.running.size === 0) for (const w of this.idleWaiters.splice(0)) w();
      this.pump();
    }
  }
}
