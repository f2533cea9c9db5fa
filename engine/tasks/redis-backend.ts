/**
 * The cluster's task backend: tasks are BullMQ jobs in Redis (ATELIER_REDIS_URL), shared by every engine;
 * inputs are in the shared inputs blob store (S3). docs/cluster.md says how each guarantee of backend.ts is
 * kept; in short:
 *
 * - A task is a job whose id is the task id (32 hex, as embedded). Its outcome, results or our own error, is
 *   the job's return value: a task that failed cleanly is a completed job, not a BullMQ failure to retry.
 * - A claim is `getNextJob` on a worker without a processor (manual fetching): BullMQ moves the job to
 *   active and locks it under our token in one script, so claims are exclusive across engines. The lock is
 *   the lease; `renew` extends it, and completing needs it (BullMQ refuses a token that lost its lock).
 * - An engine that dies stops renewing: BullMQ's stalled-job check (run by every engine) finds the job active
 *   without a lock and puts it back in the queue, counting it. After the third interruption BullMQ marks the
 *   job to fail when next fetched; its next claim then answers attempts past the limit, and the queue fails
 *   it with today's PROCESSING_FAILURE after 3 attempts (queue.ts), as embedded.
 * - Engines wake on each other's submits through the queue's event stream (read by redis-mirror.ts), with a
 *   slow poll beside it for what no event announces (a released task's delay running out).
 * - A finished task never changes again, so its polls are answered from memory (the task this engine
 *   finished, or one a poll or an event found finished), for a while and never past its retention; a queued
 *   or processing task is answered from the mirror the same events keep (redis-mirror.ts) while it can
 *   say the task's state as of now, else read from Redis.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { setImmediate as immediate } from 'node:timers/promises';
import { Job, Queue, Worker } from 'bullmq';
import { Redis, type Result } from 'ioredis';
import type { BlobStore } from '../results/blob-store.ts';
import type { ClaimedTask, NewImage, StoredImage, TaskBackend, TaskFailure, TaskRow, TaskStatus } from './backend.ts';
import { RedisIngress } from './redis-ingress.ts';
import { type MirrorEntry, RedisTaskMirror } from './redis-mirror.ts';
import { INPUT_KEY } from './store.ts';

const QUEUE_NAME = 'tasks';
const PREFIX = 'atelier';
const OWNER_SECRET_KEY = `${PREFIX}:owner-secret`;
/** Where inputs staged in Redis are kept (redis-ingress.ts), under their inputs-store key. */
const INGRESS_PREFIX = `${PREFIX}:input:`;
/** A job state in which the task still waits for a claim. */
const QUEUED_STATES = new Set(['waiting', 'prioritized', 'delayed', 'waiting-children']);
/** Interruptions a task survives: the third fails it (as the embedded queue's attempt limit does). */
const MAX_STALLS = 2;
/** How often an idle engine looks at the queue without an event (delayed jobs announce nothing when due). */
const POLL_MS = 5000;
/**
 * How long a finished task is answered from memory: its polls come soon after it finishes. Short next to
 * the retention, so that a task gone from Redis otherwise than by age (Redis flushed or restarted without
 * persistence, its job removed by hand) is answered as gone again within this long.
 */
const DONE_TTL_MS = 10 * 60_000;
/** Finished tasks kept in memory at most (a row is well under 1 KB): the oldest goes first. */
const DONE_ENTRIES = 10_000;
/** Queued and processing tasks kept in the mirror by default (the oldest read goes first). */
const MIRROR_ENTRIES = 10_000;
/**
 * How long a mirrored task is answered before Redis is read again whatever the events said: a bound on
 * what an event the mirror does not know of (a job changed by hand) can hold back.
 */
const MIRROR_MAX_AGE_MS = 5000;
/** How long the event reader's XREAD waits; a parked one older than this is not believed (a silent link). */
const EVENTS_BLOCK_MS = 1000;

interface JobData {
  slug: string;
  params: Record<string, unknown>;
  images: Record<string, StoredImage>;
  owner?: string;
  /** Claims given back (a stop, not the task, ended them): not counted as attempts. */
  refunds: number;
}

type Outcome = { results: string[] } | { error: TaskFailure };
type TaskJob = Job<JobData, Outcome>;

export interface RedisBackendOptions {
  url: string;
  /** How long a claim holds without renewal (BullMQ's lock duration). */
  leaseMs: number;
  /** Finished jobs are kept this long (BullMQ's removeOnComplete/removeOnFail by age). */
  retentionMs: number;
  /** Where inputs are kept (shared by every engine). */
  inputs: BlobStore;
  /**
   * Bytes of inputs this engine may stage in Redis before they are moved to `inputs` (redis-ingress.ts): a
   * submit then waits for a Redis write instead of the store's. 0: inputs are written to the store first.
   */
  ingressBytes?: number;
  /** How long the first answer from Redis may take before the start gives up (10 s). */
  connectTimeoutMs?: number;
  /** Called once the backend has closed (the app closes the store's client with it). */
  afterClose?: () => void;
  /** The clock finished and mirrored tasks are kept in memory by (tests move it). */
  now?: () => number;
  /** Queued and processing tasks answered from the event stream's mirror, at most (MIRROR_ENTRIES); 0: always read from Redis. */
  mirrorEntries?: number;
}

/**
 * A task poll's one round trip: the job hash's fields a task answer needs and the job's state, read in one
 * script so nothing moves between them. The state is BullMQ's getStateV2 (same keys, same order), skipped
 * for a job whose hash says it finished; with them the id of the queue's last event, as of which they hold
 * (the mirror applies only later events). KEYS: the job hash, then completed, failed, delayed, active,
 * wait, paused, waiting-children, prioritized, events; ARGV[1]: the job id. Answers nil for no such job,
 * else {state, data, timestamp, ats, returnvalue, last event id}.
 */
const FIND_TASK = `
local f = redis.call("HMGET", KEYS[1], "data", "timestamp", "ats", "returnvalue", "finishedOn")
if not f[1] and not f[2] then return nil end
local state = "unknown"
local id = ARGV[1]
if f[5] then state = "finished"
elseif redis.call("ZSCORE", KEYS[2], id) then state = "completed"
elseif redis.call("ZSCORE", KEYS[3], id) then state = "failed"
elseif redis.call("ZSCORE", KEYS[4], id) then state = "delayed"
elseif redis.call("ZSCORE", KEYS[9], id) then state = "prioritized"
elseif redis.call("LPOS", KEYS[5], id) then state = "active"
elseif redis.call("LPOS", KEYS[6], id) then state = "waiting"
elseif redis.call("LPOS", KEYS[7], id) then state = "waiting"
elseif redis.call("ZSCORE", KEYS[8], id) then state = "waiting-children"
end
local last = redis.call("XREVRANGE", KEYS[10], "+", "-", "COUNT", 1)
local version = "0-0"
if last[1] then version = last[1][1] end
return {state, f[1], f[2], f[3], f[4], version}
`;

type Found = [state: string, data: string | null, timestamp: string | null, ats: string | null, returnvalue: string | null, version: string];

declare module 'ioredis' {
  interface RedisCommander<Context> {
    atelierFindTask(...keysAndId: string[]): Result<Found | null, Context>;
  }
}

/** A connection as BullMQ wants it: commands wait for a reconnect instead of failing after some retries. */
const connect = (url: string, connectionName?: string) => new Redis(url, { maxRetriesPerRequest: null, lazyConnect: false, connectionName });

/** The messages of BullMQ's refusals of a token that no longer holds the job: the claim was lost. */
const LOST_CLAIM = /Missing lock|Lock mismatch|Missing key|not in the active state/i;

export class RedisTaskBackend implements TaskBackend {
  /** Jobs this engine holds, by claim token (renew, complete, fail and release act on them). */
  private readonly held = new Map<string, TaskJob>();
  /**
   * The inputs as the queue must read them: the store, or in front of it the Redis ingress, which finds an
   * input wherever it is (staged or moved).
   */
  readonly inputs: BlobStore;
  private readonly ingress: RedisIngress | undefined;
  private listeners: (() => void)[] = [];
  private poll: NodeJS.Timeout | undefined;
  /** Finished tasks by id, oldest first, with the time until which each is answered from here. */
  private readonly done = new Map<string, { row: TaskRow; until: number }>();
  /** Queued and processing tasks as the event stream keeps them (redis-mirror.ts); set once open. */
  private mirror!: RedisTaskMirror<JobData>;
  /** Where polls were answered from: finished tasks kept here, the mirror, Redis. */
  readonly polls = { done: 0, mirror: 0, redis: 0 };

  private constructor(
    private readonly redis: Redis,
    private readonly queue: Queue<JobData, Outcome>,
    private readonly worker: Worker<JobData, Outcome>,
    private readonly ownerSecret: Buffer,
    private readonly opts: RedisBackendOptions,
  ) {
    this.ingress = opts.ingressBytes
      ? new RedisIngress({ redis, store: opts.inputs, prefix: INGRESS_PREFIX, budgetBytes: opts.ingressBytes, ttlMs: opts.retentionMs, pattern: INPUT_KEY })
      : undefined;
    this.inputs = this.ingress ?? opts.inputs;
  }

  /** Connects (failing plainly when Redis does not answer), loads the shared owner secret and starts the stalled-job check. */
  static async open(opts: RedisBackendOptions): Promise<RedisTaskBackend> {
    const redis = connect(opts.url);
    let events: Redis | undefined;
    // ioredis reconnects on its own; its errors are logged once per kind instead of thrown unhandled.
    let lastError = '';
    redis.on('error', (err: Error) => {
      if (err.message !== lastError) console.error('[tasks] Redis:', err.message);
      lastError = err.message;
    });
    try {
      const wait = opts.connectTimeoutMs ?? 10_000;
      await withTimeout(redis.ping(), wait, `Redis at ${redactUrl(opts.url)} did not answer within ${wait / 1000} s`);
      // Made once by whichever engine comes first; every engine then hashes keys with the same secret.
      await redis.set(OWNER_SECRET_KEY, randomBytes(32).toString('base64'), 'NX');
      const secret = Buffer.from((await redis.get(OWNER_SECRET_KEY))!, 'base64');
      redis.defineCommand('atelierFindTask', { numberOfKeys: 10, lua: FIND_TASK });
      const queue = new Queue<JobData, Outcome>(QUEUE_NAME, { connection: redis, prefix: PREFIX });
      const worker = new Worker<JobData, Outcome>(QUEUE_NAME, null, {
        connection: connect(opts.url), prefix: PREFIX, autorun: false,
        lockDuration: opts.leaseMs, maxStalledCount: MAX_STALLS,
        // A lock runs out at most one interval before a check sees it: takeover within a lease and two intervals.
        stalledInterval: Math.max(1000, Math.round(opts.leaseMs / 2)),
      });
      const backend = new RedisTaskBackend(redis, queue, worker, secret, opts);
      events = connect(opts.url, 'atelier-events');
      let lastEventsError = '';
      events.on('error', (err: Error) => {
        if (err.message !== lastEventsError) console.error('[tasks] Redis events:', err.message);
        lastEventsError = err.message;
      });
      backend.mirror = new RedisTaskMirror<JobData>(events, queue.toKey('events'), {
        entries: opts.mirrorEntries ?? MIRROR_ENTRIES, maxAgeMs: MIRROR_MAX_AGE_MS, blockMs: EVENTS_BLOCK_MS, now: () => backend.clock(),
      }, (event, before) => backend.onEvent(event, before));
      await backend.mirror.start();
      await warmScripts(redis);
      await backend.find(newTaskId()); // loads FIND_TASK, which the first poll would otherwise pay for
      void worker.startStalledCheckTimer();
      const logError = (err: Error) => console.error('[tasks] Redis:', err.message);
      worker.on('error', logError);
      queue.on('error', logError);
      return backend;
    } catch (err) {
      redis.disconnect();
      events?.disconnect();
      throw err;
    }
  }

  /** Calls `listener` when a task may be waiting that another engine queued (or that came back to the queue). */
  watch(listener: () => void) {
    this.listeners.push(listener);
    if (!this.poll) {
      this.poll = setInterval(() => this.wake(), POLL_MS);
      this.poll.unref();
    }
  }

  private wake() { for (const l of this.listeners) l(); }

  /** Each event of the queue's stream, after the mirror applied it (`before`: its entry then, if it had one). */
  private onEvent(event: Record<string, string>, before: MirrorEntry<JobData> | undefined) {
    switch (event.event) {
      case 'waiting': case 'stalled': this.wake(); break;
      // A job failed by the stalled check (interrupted three times) leaves its inputs: they go now.
      case 'failed': void this.deleteInputsOf(event.jobId).catch(() => {}); break;
      // The outcome is in the event (the same string as the job's returnvalue): the row as a poll would read it.
      case 'completed':
        if (before && event.returnvalue !== undefined) this.remember(rowOf({ ...fieldsOf(before), returnvalue: parseReturnValue(event.returnvalue) }, 2));
        break;
      case 'removed': this.done.delete(event.jobId); break;
    }
  }

  ownerOf(key: string): string {
    return createHmac('sha256', this.ownerSecret).update(key).digest('base64url');
  }

  async submit(slug: string, params: Record<string, unknown>, images: Record<string, NewImage>, owner?: string): Promise<TaskRow> {
    const id = newTaskId();
    const stored: Record<string, StoredImage> = Object.fromEntries(Object.entries(images)
      .map(([field, img]) => [field, { key: `${id}/${field}`, format: img.format, maxPixels: img.maxPixels }]));
    const staged: string[] = [];
    const ingress = this.ingress;
    try {
      // Every input is durable (staged in Redis, or in the store) before the job exists (a claim reads them
      // at once); in parallel, and all settled before the cleanup below, so no write still under way
      // outlives its delete.
      const saves = await Promise.allSettled(Object.values(stored).map(async (img, i) => {
        const bytes = Object.values(images)[i].bytes;
        if (!ingress) return this.opts.inputs.save(img.key, bytes);
        if (await ingress.stage(img.key, bytes)) staged.push(img.key);
      }));
      const failed = saves.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      const age = Math.ceil(this.opts.retentionMs / 1000);
      const job = await this.queue.add(slug, { slug, params, images: stored, owner, refunds: 0 },
        { jobId: id, removeOnComplete: { age }, removeOnFail: { age } });
      // After the answer: staged inputs of a task still waiting go to the store, and leave Redis.
      for (const key of staged) ingress!.moveSoon(key, () => this.stillQueued(id));
      return rowOf(job, 0);
    } catch (err) {
      await Promise.all(Object.values(stored).map((img) => this.inputs.delete(img.key).catch(() => {})));
      throw err;
    }
  }

  private async stillQueued(id: string): Promise<boolean> {
    return QUEUED_STATES.has(await this.queue.getJobState(id));
  }

  async find(id: string): Promise<TaskRow | undefined> {
    const known = this.done.get(id);
    if (known && this.clock() < known.until) {
      this.polls.done++;
      return { ...known.row };
    }
    this.done.delete(id);
    // One turn of the event loop first: every socket that was readable with this request's has then been
    // read, the event reader's among them (redis-mirror.ts says why that is enough).
    const mirrored = this.mirror?.has(id) ? (await immediate(), this.mirror.get(id)) : undefined;
    if (mirrored) {
      this.polls.mirror++;
      return rowOf(fieldsOf(mirrored), mirrored.status);
    }
    this.polls.redis++;
    // One round trip: the job's fields and its state, read together by a script (no move between them).
    const got = await this.redis.atelierFindTask(...this.findKeys(id), id);
    if (!got) return undefined;
    const [state, data, timestamp, ats, returnvalue, version] = got;
    if (state === 'unknown' || data === null) return undefined;
    const status: TaskStatus = state === 'finished' || state === 'completed' || state === 'failed' ? 2 : state === 'active' ? 1 : 0;
    const fields = { id, data: JSON.parse(data) as JobData, timestamp: Number(timestamp), attemptsStarted: Number(ats ?? 0) };
    const row = rowOf({ ...fields, returnvalue: returnvalue === null ? null : parseReturnValue(returnvalue) }, status);
    if (status === 2) this.remember(row);
    else this.mirror?.put({ id, status, data: fields.data, timestamp: fields.timestamp, ats: fields.attemptsStarted }, version);
    return row;
  }

  private clock() { return (this.opts.now ?? Date.now)(); }

  /**
   * Keeps a finished task to answer its polls from here: for DONE_TTL_MS, never past its retention counted
   * from its submission (Redis keeps a finished job for the retention counted from its end, a later time).
   */
  private remember(row: TaskRow) {
    if (row.status !== 2) return;
    this.done.delete(row.id);
    this.done.set(row.id, { row: { ...row }, until: Math.min(this.clock() + DONE_TTL_MS, row.createdAt + this.opts.retentionMs) });
    if (this.done.size > DONE_ENTRIES) this.done.delete(this.done.keys().next().value!);
  }

  /** The keys FIND_TASK reads for job `id`, in its order. */
  private findKeys(id: string): string[] {
    return [id, 'completed', 'failed', 'delayed', 'active', 'wait', 'paused', 'waiting-children', 'prioritized', 'events'].map((k) => this.queue.toKey(k));
  }

  async claim(holder: string, leaseMs: number): Promise<ClaimedTask | undefined> {
    const token = `${holder}:${randomUUID()}`;
    const job = (await this.worker.getNextJob(token, { block: false })) as TaskJob | undefined;
    if (!job) return undefined;
    if (leaseMs !== this.opts.leaseMs) await job.extendLock(token, leaseMs);
    this.held.set(token, job);
    const row = rowOf(job, 1);
    // Interrupted once too often (BullMQ's deferred failure): past the limit, whatever attempts were given back.
    if (job.deferredFailure) row.attempts = Math.max(row.attempts, MAX_STALLS + 2);
    return { ...row, claim: token };
  }

  async renew(task: ClaimedTask, leaseMs: number): Promise<boolean> {
    const job = this.held.get(task.claim);
    if (!job) return false;
    try {
      return Boolean(await job.extendLock(task.claim, leaseMs));
    } catch (err) {
      if (isLostClaim(err)) return false;
      throw err;
    }
  }

  async complete(task: ClaimedTask, results: string[]) { return this.finish(task, { results }); }
  async fail(task: ClaimedTask, error: TaskFailure) { return this.finish(task, { error }); }

  private async finish(task: ClaimedTask, outcome: Outcome): Promise<boolean> {
    const job = this.held.get(task.claim);
    if (!job) return false;
    try {
      await job.moveToCompleted(outcome, task.claim, false);
    } catch (err) {
      if (!isLostClaim(err)) throw err;
      this.held.delete(task.claim);
      return false;
    }
    this.held.delete(task.claim);
    // As a poll would read it now (moveToCompleted set the job's return value).
    this.remember(rowOf(job, 2));
    await this.deleteInputs(task.images);
    return true;
  }

  async release(task: ClaimedTask, refund: boolean): Promise<void> {
    const job = this.held.get(task.claim);
    if (!job) return;
    this.held.delete(task.claim);
    try {
      if (refund) await job.updateData({ ...job.data, refunds: (job.data.refunds ?? 0) + 1 });
      await job.moveToWait(task.claim);
    } catch (err) {
      if (!isLostClaim(err)) throw err;
    }
    this.wake();
  }

  async pendingCount(): Promise<number> {
    const counts = await this.queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active');
    return Object.values(counts).reduce((n, c) => n + c, 0);
  }

  /** Nothing at start: a stopped engine's jobs come back through the stalled-job check once their locks run out. */
  async recoverInterrupted(): Promise<number> { return 0; }

  /** Done by BullMQ's stalled-job check, on every engine, never for a lock that still holds. */
  async requeueExpired(): Promise<number> { return 0; }

  async sweep(maxAgeMs: number): Promise<number> {
    // Before Redis's: what it removes is not answered from here afterwards (it may keep some longer, counted from their end).
    const before = this.clock() - maxAgeMs;
    for (const [id, { row }] of this.done) if (row.createdAt < before) this.done.delete(id);
    let removed = 0;
    // Never 'active': a job some engine runs is not pulled from under it (its lock runs out first).
    for (const state of ['wait', 'prioritized', 'delayed', 'completed', 'failed'] as const) {
      removed += (await this.queue.clean(maxAgeMs, 1000, state)).length;
    }
    return removed;
  }

  /** Whether Redis answers now (for /healthz). */
  async reachable(): Promise<boolean> {
    try {
      return (await withTimeout(this.redis.ping(), 2000, 'timeout')) === 'PONG';
    } catch {
      return false;
    }
  }

  /** Jobs still held stay active and are taken over by another engine once their locks run out. */
  async close(): Promise<void> {
    clearInterval(this.poll);
    this.ingress?.close();
    this.listeners = [];
    await Promise.allSettled([this.worker.close(true), this.mirror.close()]);
    await this.queue.close();
    this.redis.disconnect();
    this.opts.afterClose?.();
  }

  private async deleteInputs(images: Record<string, StoredImage>) {
    await Promise.all(Object.values(images).map((img) => this.inputs.delete(img.key)));
  }

  private async deleteInputsOf(jobId: string) {
    const job = await Job.fromId<JobData, Outcome>(this.queue, jobId);
    if (job) await this.deleteInputs(job.data.images);
  }
}

/**
 * Loads BullMQ's add script into Redis and this connection before the engine takes requests: the first
 * add otherwise pays for it (145-224 ms on the test machine, against 4-7 ms later). Done on a queue of
 * its own, whose job is removed at once, so no engine sees a task.
 */
async function warmScripts(redis: Redis) {
  const warm = new Queue('warm-up', { connection: redis, prefix: PREFIX });
  try {
    const job = await warm.add('warm-up', {}, { removeOnComplete: true, removeOnFail: true });
    await job.remove();
    await warm.getJobState(job.id!);
  } finally {
    await warm.close();
  }
}

/** 128 random bits in hex, as embedded; BullMQ refuses an id that reads as an integer, so one with a letter. */
function newTaskId(): string {
  for (;;) {
    const id = randomBytes(16).toString('hex');
    if (/[a-f]/.test(id)) return id;
  }
}

/** What a task's row is made of: a job, or the fields FIND_TASK read. */
type JobFields = Pick<TaskJob, 'data' | 'timestamp' | 'attemptsStarted'> & { id?: string; returnvalue: Outcome | null | undefined };

/** A mirrored task's fields as rowOf takes them. */
function fieldsOf(e: MirrorEntry<JobData>): JobFields {
  return { id: e.id, data: e.data, timestamp: e.timestamp, attemptsStarted: e.ats, returnvalue: null };
}

/** The task a job is, in the given state; a finished job's outcome as the task answers it. */
function rowOf(job: JobFields, status: TaskStatus): TaskRow {
  const { slug, params, images, owner, refunds } = job.data;
  const row: TaskRow = { id: job.id!, slug, status, params, images, createdAt: job.timestamp, owner,
    attempts: Math.max(0, (job.attemptsStarted ?? 0) - (refunds ?? 0)) };
  if (status !== 2) return row;
  const outcome = job.returnvalue as Outcome | null;
  if (outcome && 'results' in outcome) return { ...row, results: outcome.results };
  if (outcome && 'error' in outcome) return { ...row, error: outcome.error };
  // Failed by BullMQ itself (the queue fails a task interrupted too often on its own, as above).
  return { ...row, error: { status: 500, code: 'PROCESSING_FAILURE', message: `${slug} could not finish after ${MAX_STALLS + 1} attempts` } };
}

/** A job's stored return value as BullMQ reads it (Job.fromJSON): JSON, or nothing when it does not parse. */
function parseReturnValue(raw: string): Outcome | undefined {
  try {
    return JSON.parse(raw) as Outcome;
  } catch {
    return undefined;
  }
}

function isLostClaim(err: unknown) { return err instanceof Error && LOST_CLAIM.test(err.message); }

function withTimeout<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(message)), ms); })])
    .finally(() => clearTimeout(timer));
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the configured URL';
  }
}
