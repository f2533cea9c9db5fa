/**
 * The cluster's fast way in for task inputs (docs/cluster.md, "Inputs through Redis"): a submit writes its
 * inputs into Redis, which already holds the task and must be durable for the task to be (append-only
 * file, fsync always), instead of waiting on an S3 PUT (the slowest step of a cluster submit: 70-140 ms on
 * the test machine's Ceph against under 10 ms for a Redis SET). Once the task is queued and answered, the
 * engine moves each input to the S3 inputs store and deletes it from Redis; a reader looks in Redis first,
 * then in the store, and the input is never missing from both (the PUT completes before the delete).
 *
 * Redis memory is bounded twice: an engine stages at most `budgetBytes` of inputs not yet moved (beyond it,
 * or when Redis refuses the write, inputs go straight to the store as before), and an input is staged only
 * while its task is pending (deleted with the task's outcome; its TTL, the retention, is a backstop for a
 * submit interrupted between its input and its job). An input whose task was claimed before the move is
 * not moved (its claimant has read it); it stays in Redis until the outcome deletes it.
 */
import { Readable } from 'node:stream';
import type { Redis } from 'ioredis';
import type { BlobStore, OpenedBlob } from '../results/blob-store.ts';

/** How long a failed move waits before it is tried again (the input stays readable in Redis meanwhile). */
const RETRY_MS = 5000;

export interface RedisIngressOptions {
  redis: Redis;
  /** Where inputs end up (S3), and where those that could not be staged are written at once. */
  store: BlobStore;
  /** Key prefix in Redis. */
  prefix: string;
  /** Bytes this engine may hold staged and not yet moved; 0 stages nothing. */
  budgetBytes: number;
  /** A staged input not deleted by then expires (the tasks' retention). */
  ttlMs: number;
  /** The keys this store takes (the inputs store's pattern). */
  pattern: RegExp;
}

export class RedisIngress implements BlobStore {
  /** Bytes staged by this engine and not yet moved (or given up as claimed). */
  private staged = 0;
  /** Staged blobs of this engine waiting for their move, by key. */
  private readonly moving = new Map<string, Uint8Array>();
  private closed = false;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly opts: RedisIngressOptions) {}

  /** Bytes staged here and not yet moved (for tests and /metrics-like reading). */
  get stagedBytes(): number { return this.staged; }

  private rkey(key: string) { return this.opts.prefix + key; }

  /**
   * Writes the input into Redis when the budget allows, else (or when Redis refuses, e.g. its memory limit)
   * into the store. Either way it is durable where it went once this resolves. Answers whether it was staged:
   * a staged input must then be handed to `moveSoon` once its task is queued (or deleted if that failed).
   */
  async stage(key: string, bytes: Uint8Array): Promise<boolean> {
    if (!this.opts.pattern.test(key)) throw new Error(`not a key of this store: ${key}`);
    if (this.opts.budgetBytes > 0 && this.staged + bytes.length <= this.opts.budgetBytes) {
      this.staged += bytes.length;
      try {
        await this.opts.redis.set(this.rkey(key), Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length), 'PX', this.opts.ttlMs);
        this.moving.set(key, bytes);
        return true;
      } catch (err) {
        this.staged -= bytes.length;
        console.warn(`[tasks] an input could not be staged in Redis (${err instanceof Error ? err.message : err}); it goes to the store`);
      }
    }
    await this.opts.store.save(key, bytes);
    return false;
  }

  /** BlobStore's save: staged and moved at once (callers that know when the task is queued use `stage`). */
  async save(key: string, bytes: Uint8Array): Promise<void> {
    if (await this.stage(key, bytes)) this.moveSoon(key, async () => true);
  }

  /**
   * Moves a staged input to the store after the current request's answer, if `stillQueued` says its task
   * waits; a task already claimed keeps its input in Redis until its outcome deletes it.
   */
  moveSoon(key: string, stillQueued: () => Promise<boolean>) {
    const bytes = this.moving.get(key);
    if (!bytes) return;
    setImmediate(() => void this.move(key, bytes, stillQueued));
  }

  private async move(key: string, bytes: Uint8Array, stillQueued: () => Promise<boolean>) {
    if (this.closed || this.moving.get(key) !== bytes) return;
    try {
      if (await this.opts.redis.exists(this.rkey(key)) && await stillQueued()) {
        await this.opts.store.save(key, bytes);
        // Deleted meanwhile (the task finished, its outcome deleted the input): the copy just written goes too.
        if (await this.opts.redis.del(this.rkey(key)) === 0) await this.opts.store.delete(key);
      }
    } catch (err) {
      if (this.closed) return;
      console.warn(`[tasks] input ${key} could not be moved to the store (${err instanceof Error ? err.message : err}); it stays in Redis, trying again in ${RETRY_MS / 1000} s`);
      const t = setTimeout(() => { this.timers.delete(t); void this.move(key, bytes, stillQueued); }, RETRY_MS);
      t.unref();
      this.timers.add(t);
      return;
    }
    this.done(key, bytes);
  }

  private done(key: string, bytes: Uint8Array) {
    if (this.moving.get(key) !== bytes) return;
    this.moving.delete(key);
    this.staged -= bytes.length;
  }

  async open(key: string): Promise<OpenedBlob | undefined> {
    if (!this.opts.pattern.test(key)) return undefined;
    const [[, bytes], [, pttl]] = (await this.opts.redis.multi().getBuffer(this.rkey(key)).pttl(this.rkey(key)).exec())! as [[unknown, Buffer | null], [unknown, number]];
    // Not in Redis: moved (the store has it: the move deletes only after its PUT) or never staged.
    if (!bytes) return this.opts.store.open(key);
    return { stream: Readable.from([bytes]), size: bytes.length, savedAt: Date.now() - Math.max(0, this.opts.ttlMs - pttl) };
  }

  /** Deletes the input from both places; a move under way deletes the copy it writes (see `move`). */
  async delete(key: string): Promise<void> {
    if (!this.opts.pattern.test(key)) return;
    const bytes = this.moving.get(key);
    if (bytes) this.done(key, bytes);
    // Still staged here: it never reached the store unless a move is writing it now, which cleans up after itself.
    if (await this.opts.redis.del(this.rkey(key)) === 1) return;
    await this.opts.store.delete(key);
  }

  /** Staged inputs expire in Redis on their own; the store's are listed by age. */
  expire(maxAgeMs: number, now?: number): Promise<number> {
    return this.opts.store.expire(maxAgeMs, now);
  }

  /** Stops moving (the moves not done leave their inputs in Redis, where readers find them). */
  close() {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
