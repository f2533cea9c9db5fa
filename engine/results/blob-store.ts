/**
 * Where task inputs and results are kept, as blobs under string keys. Two stores are opened: inputs (a task's
 * uploaded images, kept until its outcome is recorded) and results (the images whose URLs are answered, kept
 * for the retention time). The embedded store is a folder on the data folder's disk (disk-blob-store.ts);
 * a cluster keeps them in an S3-compatible bucket so that any engine reads what another wrote
 * (docs/cluster.md says what that store must provide).
 *
 * Keys are made by the engine, never by a client, and each store checks them against its own pattern before
 * touching anything, so no key can reach outside the store.
 */
import type { Readable } from 'node:stream';

/** A blob opened for reading. */
export interface OpenedBlob {
  stream: Readable;
  /** Bytes the stream will give. */
  size: number;
  /** When it was saved (ms since the epoch): its retention counts from here. */
  savedAt: number;
  /** The whole blob, when it is in memory already (a cache's copy): sent as it is, `stream` left unread. */
  bytes?: Buffer;
}

export interface BlobStore {
  /**
   * Saves `bytes` under `key`, replacing nothing a reader could see half-written: once the promise resolves
   * the whole blob is readable by every engine sharing the store, and after a rejection nothing of it is
   * (a full disk or a failed upload leaves no partial blob). The error of a write that found no room keeps
   * its code (ENOSPC, EDQUOT), as storage.ts expects.
   */
  save(key: string, bytes: Uint8Array): Promise<void>;
  /** The blob as a stream, or undefined when the key is not one of this store's or nothing is saved under it. */
  open(key: string): Promise<OpenedBlob | undefined>;
  /** Deletes the blob if it is there; a key that is not there, or not one of ours, is no error. */
  delete(key: string): Promise<void>;
  /** Deletes the blobs saved more than `maxAgeMs` before `now`; answers how many went. */
  expire(maxAgeMs: number, now?: number): Promise<number>;
  /**
   * Where a blob lies on this machine's disk, for a store kept on it (the embedded one); a remote store has
   * no such path and leaves this out.
   */
  pathOf?(key: string): string | undefined;
  /**
   * A URL that reads the blob from the store itself, valid for what is left of its retention, or undefined
   * when there is no such blob: for a remote store that can sign URLs (S3), so results can be answered with a
   * redirect (ATELIER_RESULTS_REDIRECT=presigned).
   */
  presignedUrl?(key: string, retentionMs: number): Promise<string | undefined>;
}

/** The whole blob in memory (inputs are read whole: an effect decodes them at once). */
export async function readBlob(store: BlobStore, key: string): Promise<Buffer | undefined> {
  const blob = await store.open(key);
  if (!blob) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of blob.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
