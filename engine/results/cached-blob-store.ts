/**
 * A bounded in-memory copy of a remote blob store's blobs, in front of it (cluster mode's results:
 * ATELIER_RESULT_CACHE_MB). Results are immutable by key, so a copy never goes stale while its blob lives;
 * what the cache must not do is outlive the blob: a copy is served only until its retention runs out
 * (`savedAt + retentionMs`), after which the read goes to the store, as without the cache. The store stays
 * the only place that matters: a save resolves once the store has the blob (the copy is added after), a
 * delete empties the copy first, and a killed engine loses nothing but its copies.
 *
 * Filled by this engine's own saves and by whole reads from the store (the stream given to the reader is
 * also collected, and kept once it ended with every byte), least recently read evicted first, within
 * `maxBytes` in all and `maxEntryBytes` per blob.
 */
import { Readable, Transform, pipeline } from 'node:stream';
import type { BlobStore, OpenedBlob } from './blob-store.ts';

export interface BlobCacheOptions {
  /** Bytes of copies kept in all (the least recently read go first). */
  maxBytes: number;
  /** A blob larger than this is never copied (default: a quarter of maxBytes). */
  maxEntryBytes?: number;
  /** A copy is served for this long after its blob was saved, never later (the store's retention). */
  retentionMs: number;
  /** The clock (tests move it). */
  now?: () => number;
}

interface Copy { bytes: Buffer; savedAt: number }

export class CachedBlobStore implements BlobStore {
  /** Copies by key, in the order they were last read or added (a Map keeps insertion order). */
  private readonly copies = new Map<string, Copy>();
  private total = 0;
  /** Counts deletes: a fill that began before one may hold a deleted blob's bytes, and is dropped. */
  private deletes = 0;
  private readonly maxEntryBytes: number;
  private readonly now: () => number;
  readonly presignedUrl?: (key: string, retentionMs: number) => Promise<string | undefined>;

  constructor(private readonly store: BlobStore, private readonly opts: BlobCacheOptions) {
    this.maxEntryBytes = Math.min(opts.maxBytes, opts.maxEntryBytes ?? Math.floor(opts.maxBytes / 4));
    this.now = opts.now ?? Date.now;
    if (store.presignedUrl) this.presignedUrl = store.presignedUrl.bind(store);
  }

  /** Bytes of copies held now. */
  get bytes(): number { return this.total; }
  /** Copies held now. */
  get size(): number { return this.copies.size; }

  async save(key: string, bytes: Uint8Array): Promise<void> {
    // Counted from before the write: the store's own time for the blob is later, so a copy never outlives it.
    const savedAt = this.now();
    const deletes = this.deletes;
    await this.store.save(key, bytes);
    if (deletes === this.deletes) this.put(key, Buffer.from(bytes), savedAt);
  }

  async open(key: string): Promise<OpenedBlob | undefined> {
    const copy = this.copies.get(key);
    if (copy) {
      this.drop(key);
      if (this.live(copy.savedAt)) {
        this.copies.set(key, copy); // now the most recently read
        this.total += copy.bytes.length;
        return { stream: Readable.from([copy.bytes], { objectMode: false }), bytes: copy.bytes, size: copy.bytes.length, savedAt: copy.savedAt };
      }
    }
    const blob = await this.store.open(key);
    if (!blob || blob.size > this.maxEntryBytes || !this.live(blob.savedAt)) return blob;
    return { ...blob, bytes: undefined, stream: this.collect(key, blob) };
  }

  async delete(key: string): Promise<void> {
    this.deletes++;
    this.drop(key);
    await this.store.delete(key);
  }

  async expire(maxAgeMs: number, now = this.now()): Promise<number> {
    for (const [key, copy] of this.copies) if (copy.savedAt < now - maxAgeMs) this.drop(key);
    return this.store.expire(maxAgeMs, now);
  }

  /** Whether a blob saved at `savedAt` is still within its retention. */
  private live(savedAt: number): boolean {
    return this.now() < savedAt + this.opts.retentionMs;
  }

  /** The store's stream as the reader gets it, its bytes kept once it has ended whole and nothing was deleted meanwhile. */
  private collect(key: string, blob: OpenedBlob): Readable {
    const chunks: Buffer[] = [];
    let got = 0;
    const deletes = this.deletes;
    const put = (bytes: Buffer, savedAt: number) => this.put(key, bytes, savedAt);
    const tee = new Transform({
      transform(chunk: Buffer, _enc, done) {
        got += chunk.length;
        if (got <= blob.size) chunks.push(chunk);
        done(null, chunk);
      },
      flush: (done) => {
        if (got === blob.size && deletes === this.deletes) put(Buffer.concat(chunks, got), blob.savedAt);
        done();
      },
    });
    // An error of the store's stream reaches the reader through the tee (pipeline destroys it with the error).
    pipeline(blob.stream, tee, () => {});
    return tee;
  }

  private put(key: string, bytes: Buffer, savedAt: number) {
    this.drop(key);
    if (bytes.length > this.maxEntryBytes || !this.live(savedAt)) return;
    for (const [old] of this.copies) {
      if (this.total + bytes.length <= this.opts.maxBytes) break;
      this.drop(old);
    }
    this.copies.set(key, { bytes, savedAt });
    this.total += bytes.length;
  }

  private drop(key: string) {
    const copy = this.copies.get(key);
    if (!copy) return;
    this.copies.delete(key);
    this.total -= copy.bytes.length;
  }
}
