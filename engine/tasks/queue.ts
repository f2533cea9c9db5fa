/**
 * Runs queued tasks on the worker pool, oldest first, a few at a time so sync requests still get
 * workers. It reaches tasks, inputs and results only through the backends' interfaces (backend.ts,
 * blob-store.ts). Each task is claimed with a lease that is renewed while it runs; its outcome is recorded
 * only under its own claim, so a task another engine took over after the lease ran out is not recorded
 * twice (the results this run saved are removed). On start, tasks interrupted by a stop are queued again.
 * A task that failed to finish three times (for example because it brought the process down) is failed
 * instead of retried forever.
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
import { readBlob, type BlobStore } from '../results/blob-store.ts';
import type { ResultStore } from '../results/store.ts';
import type { ClaimedTask, TaskBackend } from './backend.ts';

const MAX_ATTEMPTS = 3;
const MAX_RETRY_MS = 30_000;
/** How long a claim holds without renewal; it is renewed every third of it while the task runs. */
const LEASE_MS = 60_000;

export class TaskQueue {
  /** Task id → its effect's slug, for the tasks this engine runs now. */
  private readonly running = new Map<string, string>();
  /**
   * Tasks still claimed by this engine because their outcome could not be written; queued again when
   * writes succeed. The value: whether to give back the attempt the stop cost.
   */
  private readonly unrecorded = new Map<ClaimedTask, boolean>();
  /** The start-up recovery found no room to write: it is tried again with the other writes. */
  private recoveryDue = false;
  /** A claiming pass is under way (one at a time, so claims never outrun the free places). */
  private claiming = false;
  /** `pump` was called during a pass: the pass goes on, for a task that a submit has just stored. */
  private pumpAgain = false;
  private stopping = false;
  private interrupted = false;
  private idleWaiters: (() => void)[] = [];
  private retryTimer: NodeJS.Timeout | undefined;
  private pumpSoon = false;
  private readonly retryMs: number;
  private readonly leaseMs: number;
  /** Writes that failed for want of room since an outcome was last recorded: the wait doubles with each. */
  private failedWrites = 0;

  constructor(
    private readonly tasks: TaskBackend,
    private readonly inputs: BlobStore,
    private readonly pool: WorkerPool,
    private readonly results: ResultStore,
    private readonly storage: StorageMonitor,
    /** `holder`: this engine's name in the leases it takes. */
    private readonly opts: { holder: string; concurrency: number; timeoutMs: number; retryMs?: number; leaseMs?: number; endpoints: readonly Endpoint[] },
  ) {
    this.retryMs = opts.retryMs ?? 2000;
    this.leaseMs = opts.leaseMs ?? LEASE_MS;
  }

  /** Queues again the tasks a stop interrupted (before the start's sweep, as ever); returns how many. */
  async recover(): Promise<number> {
    try {
      return await this.tasks.recoverInterrupted(this.opts.holder);
    } catch (err) {
      if (!isNoSpace(err)) throw err;
      // Started on a full disk: they are queued again once there is room.
      this.recoveryDue = true;
      this.cannotWrite(err, 'the tasks interrupted by the last stop could not be queued again');
      return 0;
    }
  }

  /** Starts taking tasks. */
  start() { this.pump(); }

  /** Wakes the queue after a submit. */
  pump() {
    if (this.stopping || this.retryTimer) return; // paused, the timer goes on
    if (this.claiming) { this.pumpAgain = true; return; }
    if (this.running.size >= this.opts.concurrency) return;
    this.claiming = true;
    void this.claimWhileFree()
      .catch((err) => console.error('[tasks] the queue failed to claim a task:', err))
      .finally(() => { this.claiming = false; this.notifyIfIdle(); });
  }

  get inFlight(): number { return this.running.size; }

  /** Tasks running here, counted by effect (for /metrics). */
  runningByEffect(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const slug of this.running.values()) counts.set(slug, (counts.get(slug) ?? 0) + 1);
    return counts;
  }

  /** Whether the queue waits for the disk (a write failed for want of space). */
  get paused(): boolean { return this.retryTimer !== undefined; }

  /** Stops taking new tasks; those running go on, and their outcome is recorded (a drain waits for them). */
  stop() { this.stopping = true; this.clearRetry(); }

  /**
   * The pool is about to be closed under the running tasks: their failures are the stop's, not theirs,
   * so they stay `processing` and are re-run after a restart.
   */
  interrupt() { this.stopping = true; this.interrupted = true; this.clearRetry(); }

  /** Resolves when no task is running or being claimed (tests and graceful shutdown use it). */
  whenIdle(): Promise<void> {
    return this.idle ? Promise.resolve() : new Promise((r) => this.idleWaiters.push(r));
  }

  private get idle() { return this.running.size === 0 && !this.claiming; }

  private notifyIfIdle() {
    if (this.idle) for (const w of this.idleWaiters.splice(0)) w();
  }

  /** Claims tasks while places are free and the queue has some, starting each as it comes. */
  private async claimWhileFree() {
    do {
      this.pumpAgain = false;
      while (!this.stopping && !this.retryTimer && this.running.size < this.opts.concurrency) {
        let task: ClaimedTask | undefined;
        try {
          task = await this.tasks.claim(this.opts.holder, this.leaseMs);
        } catch (err) {
          if (!isNoSpace(err)) throw err;
          this.cannotWrite(err, 'a queued task could not be claimed');
          return;
        }
        if (!task) break;
        // Stopped while the claim was under way: the task goes back, its attempt not counted.
        if (this.stopping) return void await this.tasks.release(task, true);
        void this.run(task).catch((err) => console.error(`[tasks] ${task.id}: the queue failed:`, err));
      }
    } while (this.pumpAgain && !this.stopping);
  }

  private async run(task: ClaimedTask) {
    this.running.set(task.id, task.slug);
    const renewal = setInterval(() => void this.tasks.renew(task, this.leaseMs)
      .catch((err) => console.error(`[tasks] ${task.id}: its lease could not be renewed:`, err instanceof Error ? err.message : err)), this.leaseMs / 3);
    renewal.unref();
    const saved: string[] = [];
    try {
      if (task.attempts > MAX_ATTEMPTS) {
        await this.tasks.fail(task, { status: 500, code: 'PROCESSING_FAILURE', message: `${task.slug} could not finish after ${MAX_ATTEMPTS} attempts` });
        return;
      }
      this.storage.noteWritten();
      const images = Object.fromEntries(await Promise.all(Object.entries(task.images).map(async ([field, img]) => {
        const bytes = await readBlob(this.inputs, img.key);
        if (!bytes) throw new Error(`the input ${img.key} is missing`);
        return [field, { bytes: new Uint8Array(bytes), format: img.format, maxPixels: img.maxPixels }] as const;
      })));
      const output = await this.pool.run(task.slug, images, task.params, this.opts.timeoutMs);
      const endpoint = this.opts.endpoints.find((e) => e.slug === task.slug);
      if (!endpoint) throw new CodedError('PROCESSING_FAILURE', `${task.slug} is not an endpoint of this engine`);
      for (const img of taskImages(endpoint, output)) saved.push(await this.results.save(img));
      if (!await this.tasks.complete(task, saved)) this.lost(task, saved);
      this.failedWrites = 0;
    } catch (err) {
      // A stop in the middle leaves the task `processing`, so the next start runs it again.
      if (this.interrupted) return;
      if (isNoSpace(err)) return this.unrecordable(task, saved, err);
      const code = err instanceof CodedError && isErrorCode(err.code) ? err.code : 'PROCESSING_FAILURE';
      const message = err instanceof CodedError ? err.message : `${task.slug} failed while processing the image`;
      if (!(err instanceof CodedError)) console.error(`[tasks] ${task.id} failed:`, err);
      try {
        if (!await this.tasks.fail(task, { status: errorCodes[code].status, code, message })) this.lost(task, saved);
        this.failedWrites = 0;
      } catch (err2) {
        // Its failure is found again when it runs again.
        this.unrecordable(task, saved, err2);
      }
    } finally {
      clearInterval(renewal);
      this.running.delete(task.id);
      this.notifyIfIdle();
      // Not from within this call: a task that ends at once must not start the next one on this stack.
      if (!this.pumpSoon) {
        this.pumpSoon = true;
        setImmediate(() => { this.pumpSoon = false; this.pump(); });
      }
    }
  }

  /** The lease ran out and the task is another claim's now: what this run saved goes. */
  private lost(task: ClaimedTask, saved: string[]) {
    console.error(`[tasks] ${task.id} (${task.slug}) was taken over after its lease ran out; this run's outcome is dropped`);
    for (const name of saved) void this.results.remove(name);
  }

  /** A write for `task` failed: it is queued again once writes succeed, and what it saved goes. */
  private unrecordable(task: ClaimedTask, saved: string[], err: unknown) {
    this.unrecorded.set(task, true);
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
    this.retryTimer = setTimeout(() => { this.retryTimer = undefined; void this.resume(); }, ms);
  }

  private clearRetry() {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  private async resume() {
    if (this.stopping) return;
    // Below the reserve nothing is tried; above it, the writes themselves tell.
    if (!this.storage.hasRoom()) return this.schedule();
    try {
      if (this.recoveryDue) {
        await this.tasks.recoverInterrupted(this.opts.holder);
        this.recoveryDue = false;
      }
      for (const [task, refund] of this.unrecorded) {
        await this.tasks.release(task, refund);
        this.unrecorded.delete(task);
      }
    } catch (err) {
      if (!isNoSpace(err)) console.error('[tasks] the queue could not resume:', err);
      else this.storage.noteFull(err);
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
