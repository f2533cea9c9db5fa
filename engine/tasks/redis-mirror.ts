/**
 * Queued and processing tasks as this engine last knew them, kept current by the queue's event stream, so
 * that a poll of one costs no Redis round trip (docs/cluster.md, "Polls from the event stream").
 *
 * Why an answer from here is never older than one a client could already have seen:
 * - An entry is made only from a Redis read (the poll script), together with the id of the stream's last
 *   event at that moment: the entry is the task as of that event, and every later event is applied to it
 *   in the stream's order. An event it cannot apply exactly drops it (the next poll reads Redis again).
 * - The reader keeps an XREAD parked on the stream. Redis sends an event to a parked reader in the same
 *   pass that runs the command making it, before that command's own reply: the event is in this
 *   engine's socket before any engine can have told a client of the change, so before the client's next
 *   request. Node may read the request's socket first (one read a moment before comes first), so the
 *   backend answers from here one event-loop turn later (setImmediate), once every socket that was
 *   readable with the request, this reader's included, has been read and its events applied.
 * - Between one XREAD's answer and the next one being parked, events are not pushed: entries are not used
 *   then. A marker command sent in the same write just before the XREAD says when Redis has taken it
 *   (Redis runs a client's pipelined commands back to back); its answer (the stream's first entry) also
 *   shows events trimmed away unread, which drops every entry.
 * - A closed connection, or a parked XREAD older than its block time (a link gone silent), stops all use
 *   until the next XREAD is parked; an entry older than `maxAgeMs` is read again whatever the events said.
 */
import type { Redis } from 'ioredis';

/** A task's job as a poll reads it, in a queued (0) or processing (1) state. */
export interface MirrorEntry<D> {
  id: string;
  status: 0 | 1;
  data: D;
  timestamp: number;
  /** BullMQ's attempts started (`ats`): a claim adds one. */
  ats: number;
}

interface Kept<D> { entry: MirrorEntry<D>; version: string; readAt: number }

export interface MirrorOptions {
  /** Entries kept at most (the oldest read goes first); 0: none, every poll reads Redis. */
  entries: number;
  /** An entry read from Redis longer ago than this is read again. */
  maxAgeMs: number;
  /** How long one XREAD waits for events; a parked XREAD past it (by the monotonic clock) is no longer believed. */
  blockMs: number;
  /** The clock entries age by (tests move it). */
  now: () => number;
}

/** Events read in one XREAD at most (keeps one answer to a few kilobytes, read whole). */
const BATCH = 200;

/** Stream ids (`ms-seq`) in order. */
export function compareIds(a: string, b: string): number {
  const [am, as] = a.split('-').map(Number);
  const [bm, bs] = b.split('-').map(Number);
  return am !== bm ? am - bm : as - bs;
}

export class RedisTaskMirror<D> {
  private readonly kept = new Map<string, Kept<D>>();
  /** The last event this reader has applied (every event up to it is reflected in the entries). */
  private lastId = '0-0';
  /** Bumped when the connection closes: a marker sent before then no longer says anything. */
  private gen = 0;
  private parked: { gen: number; at: number } | undefined;
  private closing = false;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly conn: Redis,
    private readonly key: string,
    private readonly opts: MirrorOptions,
    /** Every event, with the entry it was applied to (as it was before), if any. */
    private readonly onEvent: (event: Record<string, string>, before: MirrorEntry<D> | undefined) => void,
  ) {
    conn.on('close', () => { this.gen++; this.parked = undefined; });
  }

  /** Starts reading after the stream's current last event. */
  async start(): Promise<void> {
    const last = (await this.conn.xrevrange(this.key, '+', '-', 'COUNT', 1))[0];
    this.lastId = last ? last[0] : '0-0';
    this.loop = this.run();
  }

  /** The task as of now, when this engine can answer it without Redis; else undefined. */
  get(id: string): MirrorEntry<D> | undefined {
    const k = this.kept.get(id);
    if (!k || !this.current()) return undefined;
    if (this.opts.now() - k.readAt >= this.opts.maxAgeMs || compareIds(k.version, this.lastId) > 0) {
      this.kept.delete(id);
      return undefined;
    }
    return k.entry;
  }

  /**
   * Keeps a task read from Redis as of event `version` (the stream's last event when it was read). Not
   * kept when this reader has already applied later events: one of them may have been this task's.
   */
  put(entry: MirrorEntry<D>, version: string) {
    if (!this.opts.entries || compareIds(version, this.lastId) < 0) return;
    this.kept.delete(entry.id);
    this.kept.set(entry.id, { entry, version, readAt: this.opts.now() });
    if (this.kept.size > this.opts.entries) this.kept.delete(this.kept.keys().next().value!);
  }

  /** Whether an entry is kept for `id` (current or not). */
  has(id: string) { return this.kept.has(id); }

  drop(id: string) { this.kept.delete(id); }

  get size() { return this.kept.size; }

  /** Whether every event up to now has reached this engine: an XREAD is parked, on an open connection, within its block time. */
  private current(): boolean {
    const p = this.parked;
    return p !== undefined && p.gen === this.gen && performance.now() - p.at < this.opts.blockMs;
  }

  async close() {
    this.closing = true;
    this.conn.disconnect();
    await this.loop?.catch(() => {});
  }

  private async run() {
    let lastError = '';
    while (!this.closing) {
      const gen = this.gen;
      // One write: the marker, then the XREAD. Its answer comes once Redis has taken the XREAD.
      const pipe = this.conn.pipeline();
      pipe.xrange(this.key, '-', '+', 'COUNT', 1, (err, first) => { if (!err && first) this.marked(gen, first); });
      pipe.xread('COUNT', BATCH, 'BLOCK', this.opts.blockMs, 'STREAMS', this.key, this.lastId);
      let got: [string, [string, string[]][]][] | null;
      try {
        const out = await pipe.exec();
        this.parked = undefined;
        const [err, res] = out![1];
        if (err) throw err;
        got = res as typeof got;
      } catch (err) {
        this.parked = undefined;
        if (this.closing) break;
        const message = err instanceof Error ? err.message : String(err);
        if (message !== lastError) console.error('[tasks] Redis events:', message);
        lastError = message;
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      for (const [id, fields] of got?.[0]?.[1] ?? []) {
        this.lastId = id;
        this.apply(id, fields);
      }
    }
  }

  /** The marker's answer: the XREAD after it is parked (or answering); events trimmed unread drop every entry. */
  private marked(gen: number, first: [string, string[]][]) {
    if (gen !== this.gen) return;
    const oldest = first[0]?.[0];
    const lost = oldest === undefined ? this.lastId !== '0-0' : this.lastId !== '0-0' && compareIds(oldest, this.lastId) > 0;
    if (lost) this.kept.clear();
    this.parked = { gen, at: performance.now() };
  }

  private apply(id: string, fields: string[]) {
    const event: Record<string, string> = {};
    for (let i = 0; i + 1 < fields.length; i += 2) event[fields[i]] = fields[i + 1];
    // A clean names no jobs, only how many it removed.
    if (event.event === 'cleaned' && Number(event.count) > 0) this.kept.clear();
    const k = event.jobId === undefined ? undefined : this.kept.get(event.jobId);
    const before = k && compareIds(id, k.version) > 0 ? { ...k.entry } : undefined;
    if (k && before) {
      const e = k.entry;
      if (event.event === 'active' && e.status === 0) {
        // BullMQ's moveToActive: state active, one more attempt started (prepareJobForProcessing.lua).
        k.entry = { ...e, status: 1, ats: e.ats + 1 };
        k.version = id;
      } else if (event.event === 'progress' || (event.event === 'waiting' && event.prev !== 'active' && e.status === 0)) {
        k.version = id; // nothing a poll answers changed
      } else {
        // Finished, back from a claim (released, or stalled: its data or attempts may have changed with
        // it), removed, or anything else: read again.
        this.kept.delete(event.jobId);
      }
    }
    this.onEvent(event, before);
  }
}
