/**
 * A fixed pool of worker threads. Image work never runs on the HTTP event loop: sync routes and the
 * task queue both submit jobs here. A job that overruns its budget gets its worker replaced.
 */
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { CodedError, type ErrorCode } from '../../contract/errors.ts';
import type { EffectOutput } from '../pipeline/effect.ts';
import type { HostConnect, HostInit, HostModelEvent, HostStop, HostStopped } from './host-protocol.ts';
import type { CancelRequest, HostPortMessage, JobImage, JobRequest, WorkerData, WorkerInit, WorkerMessage } from './protocol.ts';

interface Pending {
  job: JobRequest;
  resolve: (o: EffectOutput) => void;
  reject: (e: Error) => void;
}

/** One model in one worker, as its registry last reported it. */
export interface WorkerModel { state: 'loading' | 'loaded' | 'failed'; message?: string }

interface Slot {
  worker: Worker;
  /** The job it runs, with its hard timeout and, once cancelled, the grace before the worker is replaced. */
  busy?: Pending & { timer: NodeJS.Timeout; cancelTimer?: NodeJS.Timeout };
  ready: boolean;
  models: Map<string, WorkerModel>;
}

/** A model event as a thread's model state (workers and the model host report alike). */
const reported = (m: HostModelEvent): WorkerModel => (m.state === 'failed' ? { state: m.state, message: m.message } : { state: m.state });

/** A sync request's place among the waiting jobs, held from admission (before its body is read) until run() or release(). */
export interface Admission { release(): void }

/** Grace on top of the job's own budget before the worker is presumed stuck and replaced. */
const HARD_TIMEOUT_GRACE_MS = 5_000;
/**
 * How long a worker may take to answer a cancel before it is presumed stuck in a step that does not
 * yield (a long loop) and replaced. A worker whose job awaits (a model run, a decode) answers at once.
 */
const CANCEL_GRACE_MS = 1_000;
/** How long close() waits for the model host's run under way (one network run: seconds) before terminating it anyway. */
const HOST_STOP_GRACE_MS = 30_000;

const workerUrl = new URL('./worker-entry.mjs', import.meta.url);
const hostUrl = new URL('./model-host-entry.mjs', import.meta.url);
/** A worker that dies before it is ready is restarted after this pause, not in a tight loop. */
const RESPAWN_DELAY_MS = 2_000;

export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: Pending[] = [];
  /** Admitted sync requests still uploading: they count against the limit like waiting jobs. */
  private admitted = 0;
  private nextId = 1;
  private closed = false;

  /** The thread that holds the ONNX sessions the workers share (see model-host.ts). */
  private host: Worker;

  constructor(private readonly init: WorkerInit, size: number, private readonly maxWaiting: number) {
    this.host = this.spawnHost();
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  /** Every worker thread is up and takes jobs (models load later, on first use). */
  get ready(): boolean { return this.slots.every((s) => s.ready); }
  /**
   * Each thread's models by id, as reported: the workers', then the networks the model host preloads
   * (init.preloadModels); a replaced thread's are gone with it.
   */
  get threadModels(): Map<string, WorkerModel>[] { return [...this.slots.map((s) => s.models), this.hostModels]; }
  private hostModels = new Map<string, WorkerModel>();
  get size(): number { return this.slots.length; }
  get idle(): number { return this.slots.filter((s) => !s.busy).length; }
  /** Jobs waiting for a worker, plus admitted sync requests whose bodies are still arriving. */
  get queued(): number { return this.waiting.length + this.admitted; }

  /**
   * Takes a waiting place for a sync request, or answers undefined when the limit is reached. Taken at
   * admission, not when the body has arrived: otherwise any number of slow uploads pass the check and all
   * end up waiting. The caller releases it on every path; run() turns it into the job's place.
   */
  admit(): Admission | undefined {
    if (this.closed || this.queued >= this.maxWaiting) return undefined;
    this.admitted++;
    let held = true;
    return { release: () => { if (held) { held = false; this.admitted--; } } };
  }

  /**
   * Runs a job. When `signal` aborts (its sync request has gone) the job is dropped from the queue, or,
   * if running, its worker is told to stop it; the worker stays busy until it answers, which it does at
   * once unless its thread is blocked, and then it is replaced after CANCEL_GRACE_MS. Async tasks pass
   * no signal: accepted work is never dropped.
   */
  run(slug: string, images: Record<string, JobImage>, params: Record<string, unknown>, timeoutMs: number,
    opts: { admission?: Admission; signal?: AbortSignal } = {}): Promise<EffectOutput> {
    const { admission, signal } = opts;
    if (this.closed) return Promise.reject(new CodedError('ERROR_INSUFFICIENT_RESOURCES', 'the engine is shutting down'));
    if (signal?.aborted) return Promise.reject(cancelled(slug));
    return new Promise((resolve, reject) => {
      const job: JobRequest = { type: 'job', id: this.nextId++, slug, images, params, timeoutMs };
      const onAbort = () => this.cancel(pending);
      const settle = () => signal?.removeEventListener('abort', onAbort);
      const pending: Pending = { job, resolve: (o) => { settle(); resolve(o); }, reject: (e) => { settle(); reject(e); } };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(pending);
      admission?.release(); // the job now holds the place itself
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.waiting.splice(0)) p.reject(new CodedError('ERROR_INSUFFICIENT_RESOURCES', 'the engine is shutting down'));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
    await this.stopHost();
  }

  /**
   * Terminates the model host once its network run under way (if any) has finished, or after
   * HOST_STOP_GRACE_MS: terminating it during a run aborts the whole process (model-host.ts). A run is
   * left over when its job has gone: a cancelled job or a worker replaced mid-run.
   */
  private async stopHost(): Promise<void> {
    const host = this.host;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      timer = setTimeout(resolve, HOST_STOP_GRACE_MS);
      host.on('message', (m: HostStopped) => { if (m.type === 'stopped') resolve(); });
      host.once('exit', () => resolve());
      const stop: HostStop = { type: 'stop' };
      host.postMessage(stop);
    });
    clearTimeout(timer);
    await host.terminate();
  }

  private cancel(p: Pending) {
    const i = this.waiting.indexOf(p);
    if (i >= 0) this.waiting.splice(i, 1);
    else {
      const slot = this.slots.find((s) => s.busy?.job === p.job);
      if (!slot?.busy) return; // already answered
      const cancel: CancelRequest = { type: 'cancel', id: p.job.id };
      slot.worker.postMessage(cancel);
      // Its thread is blocked if it does not answer soon: replace it (onExit starts the successor).
      slot.busy.cancelTimer ??= setTimeout(() => {
        if (slot.busy?.job !== p.job) return;
        console.error(`[pool] a worker did not stop ${p.job.slug} within ${CANCEL_GRACE_MS} ms of its cancel; replacing it`);
        void slot.worker.terminate();
      }, CANCEL_GRACE_MS);
    }
    p.reject(cancelled(p.job.slug));
  }

  /** A port to the host for one worker: the host keeps one end, the worker gets the other. */
  private hostPort(): MessagePort {
    const { port1, port2 } = new MessageChannel();
    const connect: HostConnect = { type: 'connect', port: port1 };
    this.host.postMessage(connect, [port1]);
    return port2;
  }

  private spawnHost(): Worker {
    const init: HostInit = {
      threads: this.init.threads, idleMs: this.init.modelIdleMs ?? 0, preload: this.init.preloadModels ?? [], optimizedDir: this.init.optimizedModelDir,
    };
    const host = new Worker(hostUrl, { workerData: init });
    this.hostModels = new Map();
    host.on('message', (m: HostStopped | HostModelEvent) => {
      if (m.type === 'model') this.hostModels.set(m.id, reported(m));
    });
    host.on('error', (err) => console.error('[pool] model host error:', err));
    host.on('exit', (code) => {
      if (this.closed) return;
      // Workers' runs in flight have failed with their port; give every worker a port to the new host.
      console.error(`[pool] model host exited (code ${code}); starting a new one`);
      this.host = this.spawnHost();
      for (const slot of this.slots) {
        const port = this.hostPort();
        const m: HostPortMessage = { type: 'host', port };
        slot.worker.postMessage(m, [port]);
      }
    });
    return host;
  }

  private spawn(): Slot {
    const hostPort = this.hostPort();
    const workerData: WorkerData = { ...this.init, hostPort };
    const worker = new Worker(workerUrl, { workerData, transferList: [hostPort] });
    const slot: Slot = { worker, ready: false, models: new Map() };
    worker.on('message', (m: WorkerMessage) => this.onMessage(slot, m));
    worker.on('error', (err) => console.error('[pool] worker error:', err));
    worker.on('exit', (code) => this.onExit(slot, code));
    return slot;
  }

  private onMessage(slot: Slot, m: WorkerMessage) {
    if (m.type === 'ready') {
      slot.ready = true;
      return this.dispatch();
    }
    if (m.type === 'model') {
      slot.models.set(m.id, reported(m));
      return;
    }
    const busy = slot.busy;
    if (!busy || busy.job.id !== m.id) return;
    clearTimeout(busy.timer);
    clearTimeout(busy.cancelTimer);
    slot.busy = undefined;
    if (m.type === 'done') busy.resolve(reviveOutput(m.output));
    else busy.reject(new CodedError(m.code as ErrorCode, m.message));
    this.dispatch();
  }

  private onExit(slot: Slot, code: number) {
    const i = this.slots.indexOf(slot);
    if (slot.busy) {
      clearTimeout(slot.busy.timer);
      clearTimeout(slot.busy.cancelTimer);
      slot.busy.reject(new CodedError('PROCESSING_FAILURE', `the worker stopped while processing ${slot.busy.job.slug}`));
      slot.busy = undefined;
    }
    if (this.closed || i < 0) return;
    console.error(`[pool] worker exited (code ${code}); starting a new one`);
    const respawn = () => { if (!this.closed) { this.slots[i] = this.spawn(); this.dispatch(); } };
    if (slot.ready) respawn();
    else setTimeout(respawn, RESPAWN_DELAY_MS).unref();
  }

  private dispatch() {
    for (const slot of this.slots) {
      if (slot.busy || !slot.ready) continue;
      const next = this.waiting.shift();
      if (!next) return;
      const timer = setTimeout(() => {
        next.reject(new CodedError('AI_SERVICE_TIMEOUT', `${next.job.slug} took longer than ${next.job.timeoutMs} ms`));
        slot.busy = undefined;
        slot.ready = false;
        // A stuck worker cannot be interrupted; replace it (onExit spawns the successor).
        void slot.worker.terminate();
      }, next.job.timeoutMs + HARD_TIMEOUT_GRACE_MS);
      slot.busy = { ...next, timer };
      slot.worker.postMessage(next.job);
    }
  }
}

const cancelled = (slug: string) => new CodedError('PROCESSING_FAILURE', `${slug} was cancelled: the client closed the connection`);

/** Buffers arrive as Uint8Arrays after structured cloning; give effects' consumers Buffers back. */
function reviveOutput(o: EffectOutput): EffectOutput {
  const images = Object.fromEntries(Object.entries(o.images).map(([k, v]) => [k, { ...v, data: Buffer.from(v.data.buffer, v.data.byteOffset, v.data.byteLength) }]));
  return { ...o, images };
}
