/**
 * Room on the disk that holds the data folder. Two signals: the free space statfs reports, against a
 * reserve (ATELIER_MIN_FREE_MB) that async submits must leave, so queued tasks still have room for their
 * results and the task database for its writes; and writes that failed for want of space (ENOSPC, EDQUOT,
 * SQLITE_FULL), which catch what statfs cannot see (quotas, a reserve of 0, a disk filling up between the
 * check and the write). After such a failure the storage counts as full until a write succeeds or at
 * least 1 MB more is free than was then. /healthz reports it; submits are refused with 503 and Retry-After
 * while there is no room, and the task queue waits (tasks/queue.ts).
 */
import fs from 'node:fs';
import { CodedError } from '../contract/errors.ts';

/** Seconds a client is told to wait before submitting again to a full disk. */
export const STORAGE_RETRY_AFTER_S = 60;
const MB = 1024 * 1024;
/** How much more must be free than at a failed write before the storage counts as having room again. */
const RECOVERED_BYTES = MB;

/** Whether a write failed for want of space (node's fs, or SQLite via better-sqlite3). */
export function isNoSpace(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL';
}

export interface StorageHealth {
  state: 'ok' | 'full';
  /** Bytes free on the data folder's disk (for the engine's user), null when statfs failed. */
  free_bytes: number | null;
  /** What submits must leave free (ATELIER_MIN_FREE_MB). */
  reserve_bytes: number;
  /** Why it is full. */
  message?: string;
}

const mb = (n: number) => `${+(n / MB).toFixed(1)} MB`;

export class StorageMonitor {
  private failure?: { message: string; free: number };

  /** `dirs`: the folders written to (the data folder and those in it, in case one is a mount of its own). */
  constructor(private readonly dirs: string[], readonly reserveBytes: number) {}

  /** Bytes free for the engine's user, the least over its folders; undefined when statfs fails for all. */
  free(): number | undefined {
    let least: number | undefined;
    for (const dir of this.dirs) {
      try {
        const s = fs.statfsSync(dir);
        const free = s.bavail * s.bsize;
        least = least === undefined ? free : Math.min(least, free);
      } catch { /* a folder not made yet, or gone: the others answer */ }
    }
    return least;
  }

  /**
   * Whether the reserve plus `bytes` is free (statfs only; the write itself is the final word). A reserve
   * of 0 turns the check off: then only the writes tell.
   */
  hasRoom(bytes = 0): boolean {
    if (this.reserveBytes === 0) return true;
    const free = this.free();
    return free === undefined || free >= this.reserveBytes + bytes;
  }

  /** A write failed for want of space. */
  noteFull(err: unknown) {
    const detail = err instanceof Error ? err.message : String(err);
    this.failure = { message: `a write failed for want of space (${detail})`, free: this.free() ?? 0 };
  }

  /** A write succeeded: whatever failed before has room now. */
  noteWritten() { this.failure = undefined; }

  health(): StorageHealth {
    const free = this.free();
    const base = { free_bytes: free ?? null, reserve_bytes: this.reserveBytes };
    if (free !== undefined && free < this.reserveBytes) {
      return { state: 'full', ...base, message: `${mb(free)} free on the data folder's disk, below the reserve of ${mb(this.reserveBytes)} (ATELIER_MIN_FREE_MB)` };
    }
    if (this.failure) {
      if (free === undefined || free < this.failure.free + RECOVERED_BYTES) return { state: 'full', ...base, message: this.failure.message };
      this.failure = undefined;
    }
    return { state: 'ok', ...base };
  }

  /** Throws the 503 for a submit that would not leave the reserve free after writing `bytes`. */
  refuseUnlessRoom(bytes = 0) {
    if (!this.hasRoom(bytes)) throw this.refusal();
  }

  /** The 503 for a request that found no room (after `err`, a failed write, when given). */
  refusal(err?: unknown): CodedError {
    if (err !== undefined) this.noteFull(err);
    return new CodedError('ERROR_INSUFFICIENT_RESOURCES', "the engine's disk is full; retry later", STORAGE_RETRY_AFTER_S);
  }
}
