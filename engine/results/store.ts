/**
 * Result images, named by 128 random bits so their URLs are unguessable and need no key, kept in a blob store
 * (blob-store.ts: a folder of the data folder, or a bucket shared by a cluster). Names are checked against a
 * strict pattern before the store is asked, so a URL can name nothing else.
 */
import { randomBytes } from 'node:crypto';
import type { EncodedImage } from '../image/raster.ts';
import type { BlobStore, OpenedBlob } from './blob-store.ts';

/** What a result's name looks like; the blob stores of results take no other key. */
export const RESULT_NAME = /^[a-f0-9]{32}\.(png|jpg)$/;

export class ResultStore {
  constructor(private readonly blobs: BlobStore) {}

  /** Writes the image and returns its name (the last segment of its URL). */
  async save(img: EncodedImage): Promise<string> {
    const name = `${randomBytes(16).toString('hex')}.${img.format === 'jpeg' ? 'jpg' : 'png'}`;
    await this.blobs.save(name, img.data);
    return name;
  }

  /** The result as a stream, or undefined when the name is not one of ours or it has gone. */
  async open(name: string): Promise<OpenedBlob | undefined> {
    return RESULT_NAME.test(name) ? this.blobs.open(name) : undefined;
  }

  /** Deletes a result (one saved for a task whose outcome could not be recorded). */
  async remove(name: string) {
    if (RESULT_NAME.test(name)) await this.blobs.delete(name).catch(() => {});
  }

  /** Where a result lies on this machine's disk, when the store keeps it there (the embedded one). */
  pathOf(name: string): string | undefined {
    return RESULT_NAME.test(name) ? this.blobs.pathOf?.(name) : undefined;
  }

  /** Whether results can be answered as a redirect to the store (it signs URLs: S3). */
  get canPresign(): boolean { return this.blobs.presignedUrl !== undefined; }

  /** A presigned URL of the result in the store, or undefined when it is not one of ours or has gone. */
  async presignedUrl(name: string, retentionMs: number): Promise<string | undefined> {
    return RESULT_NAME.test(name) ? this.blobs.presignedUrl?.(name, retentionMs) : undefined;
  }

  /** Deletes results older than `maxAgeMs`; returns how many went. */
  async sweep(maxAgeMs: number, now = Date.now()): Promise<number> {
    return this.blobs.expire(maxAgeMs, now);
  }
}

/** The absolute URL of a result, on the host the client used (forwarded headers first, for proxies). */
export function resultUrl(base: string, name: string): string {
  return `${base}/results/${name}`;
}
