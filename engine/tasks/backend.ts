/**
 * Where async tasks are kept and handed out. The routes and the queue reach tasks only through this
 * interface. The embedded backend is SQLite in the data folder, which one engine owns (embedded-backend.ts);
 * a cluster shares one backend between engines (Redis with BullMQ: docs/cluster.md), so every method says
 * what it guarantees when several engines call it at once.
 *
 * A task is claimed with a lease: the claim names who runs it (the engine, and a token of this claim) and
 * until when nobody else may. The holder renews the lease while it runs; its outcome is recorded only while
 * its claim is still the task's, so a holder that lost its lease (it stalled past it, and another engine took
 * the task) changes nothing.
 */
import type { ImageFormat } from '../../contract/limits.ts';

/** 0 queued, 1 processing, 2 done (completed or failed): the task_status the API answers. */
export type TaskStatus = 0 | 1 | 2;

/** An input image of a task: its key in the inputs blob store, and what the upload check found. */
export interface StoredImage { key: string; format: ImageFormat; maxPixels: number }

/** An input image as uploaded, before it is stored. */
export interface NewImage { bytes: Uint8Array; format: ImageFormat; maxPixels: number }

export interface TaskFailure { status: number; code: string; message: string }

export interface TaskRow {
  id: string;
  slug: string;
  status: TaskStatus;
  params: Record<string, unknown>;
  images: Record<string, StoredImage>;
  createdAt: number;
  /** Result names, when completed successfully. */
  results?: string[];
  error?: TaskFailure;
  /** Claims so far, this one included. */
  attempts: number;
  /** The submitting key's `ownerOf`; undefined for tasks from before owners were kept (any key reads those). */
  owner?: string;
}

/** A task held by one engine under a lease. */
export interface ClaimedTask extends TaskRow {
  /** This claim's own token: complete, fail, renew and release act only while the task is still under it. */
  claim: string;
}

export interface TaskBackend {
  /**
   * The owner a key's tasks are stored under: a keyed hash, never the key. Computed here from a secret the
   * backend loaded when it opened, so the same key gives the same owner on every engine sharing the backend.
   */
  ownerOf(key: string): string;
  /**
   * Stores the inputs, then the task as queued, and answers it: once this resolves the task survives a
   * crash of this engine, and any engine sharing the backend may claim it. On a rejection nothing of the
   * task is left (no row, no input). A write that found no room keeps its code (storage.ts).
   */
  submit(slug: string, params: Record<string, unknown>, images: Record<string, NewImage>, owner?: string): Promise<TaskRow>;
  /** The task, whoever runs it, or undefined when there is none by this id (or it has been swept). */
  find(id: string): Promise<TaskRow | undefined>;
  /**
   * Takes the oldest queued task for `holder` (this engine) until `now + leaseMs`, counting an attempt, or
   * answers undefined when none is queued. Exclusive: two claims, from this engine or any other, never get
   * the same task while its lease holds.
   */
  claim(holder: string, leaseMs: number, now?: number): Promise<ClaimedTask | undefined>;
  /** Extends the claim's lease to `now + leaseMs`; false when the task is no longer under this claim. */
  renew(task: ClaimedTask, leaseMs: number, now?: number): Promise<boolean>;
  /** Records success with its result names and deletes the inputs; false (nothing changed) when the claim was lost. */
  complete(task: ClaimedTask, results: string[]): Promise<boolean>;
  /** Records the failure and deletes the inputs; false (nothing changed) when the claim was lost. */
  fail(task: ClaimedTask, error: TaskFailure): Promise<boolean>;
  /**
   * Puts a claimed task back in the queue, inputs kept; `refund` takes back the attempt it was counted
   * (when the disk, not the task, stopped it). Nothing happens when the claim was lost.
   */
  release(task: ClaimedTask, refund: boolean): Promise<void>;
  /** Queued plus processing, counted over every engine sharing the backend (the queue's limit is global). */
  pendingCount(): Promise<number>;
  /**
   * At an engine's start: puts back in the queue the tasks whose holder is known to have stopped, attempts
   * kept (three interrupted attempts fail a task). Answers how many. Never a task another live engine holds.
   * Embedded, the data folder's lock proves every other holder stopped; a shared backend knows no such thing
   * and does nothing here, leaving a dead engine's tasks to `requeueExpired` once their leases run out.
   */
  recoverInterrupted(holder: string): Promise<number>;
  /**
   * Puts back in the queue the tasks whose lease ran out before `now` (their holder stopped renewing it),
   * attempt counted. A shared backend does this on its own schedule (BullMQ's stalled-job check), for
   * every engine's tasks, and never for a lease that still holds.
   */
  requeueExpired(now?: number): Promise<number>;
  /**
   * Deletes the tasks (and their inputs) submitted more than `maxAgeMs` before `now`, except one under a
   * lease that still holds: a task some engine is running is not pulled from under it. Answers how many went.
   * Any engine may sweep a shared backend: deleting by age is the same whoever does it (BullMQ: job
   * retention by age, and cleaning waiting jobs, never active ones).
   */
  sweep(maxAgeMs: number, now?: number): Promise<number>;
  /**
   * Calls `listener` whenever a task may have become claimable that this engine did not queue itself
   * (another engine's submit, a task back from a stopped engine). Only a shared backend has such tasks;
   * the embedded one leaves this out, its queue being woken by its own submits.
   */
  watch?(listener: () => void): void;
  /** Lets the backend go (and, embedded, the data folder with it). */
  close(): Promise<void>;
}
