/**
 * The cluster's blob store: one S3-compatible bucket shared by every engine, a prefix per store (`inputs/`,
 * `results/`), keys as in the embedded store and checked against the same patterns. A PUT is all or
 * nothing, so `save` needs no temporary object; a store that refuses for quota gets the code of a full disk
 * (EDQUOT), which the routes answer 503 as they do for a full data folder. Expiry: a lifecycle rule on the
 * bucket (whole days, where the store supports it) and `expire`, which lists and deletes by age for any
 * retention.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  CreateBucketCommand, DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand,
  ListObjectsV2Command, PutBucketLifecycleConfigurationCommand, PutObjectCommand, S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { BlobStore, OpenedBlob } from './blob-store.ts';

export interface S3Settings {
  /** ATELIER_S3_ENDPOINT: the store's URL (left out: AWS's own, by region). */
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** ATELIER_S3_FORCE_PATH_STYLE: bucket in the path (most stores other than AWS need it). */
  forcePathStyle: boolean;
}

/** Presigned URLs live at most this long (SigV4's limit). */
const MAX_PRESIGN_S = 7 * 24 * 3600;
const DAY_MS = 24 * 3600_000;

export function s3Client(s: S3Settings): S3Client {
  return new S3Client({
    endpoint: s.endpoint, region: s.region, forcePathStyle: s.forcePathStyle,
    credentials: s.accessKeyId && s.secretAccessKey ? { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } : undefined,
  });
}

/**
 * Makes the bucket if it is not there (several engines starting at once may race: the loser's refusal is no
 * error) and sets its lifecycle rule: objects under `prefixes` expire `retentionMs` after they were written,
 * in whole days (S3's unit; at least one). A store without lifecycle support is named in the answer, and
 * the engines' own `expire` keeps the retention.
 *
 * Then one object is written under the first prefix and deleted: credentials that cannot write stop the
 * start instead of the first submit, and the store's own first-write costs come before the engine takes
 * requests (Ceph's gateway makes its data pool at the bucket's first write: 1.7 s idle on the test machine,
 * seconds under load, during which every submit waited).
 */
export async function prepareBucket(s3: S3Client, bucket: string, prefixes: string[], retentionMs: number): Promise<{ lifecycle: boolean; error?: string }> {
  try {
    await s3.send(new HeadBucketCommand({ Bucket: bucket }));
  } catch (err) {
    if (statusOf(err) !== 404) throw err;
    try {
      await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    } catch (err2) {
      const name = (err2 as Error).name;
      if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw err2;
    }
  }
  const probe = `${prefixes[0]}.write-check-${randomUUID()}`;
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: probe, Body: new Uint8Array(0), ContentLength: 0 }));
  // A probe left behind (the engine stopped here) expires with the prefix's rule or the engines' sweep.
  await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: probe })).catch(() => {});
  const days = Math.max(1, Math.ceil(retentionMs / DAY_MS));
  try {
    await s3.send(new PutBucketLifecycleConfigurationCommand({
      Bucket: bucket,
      LifecycleConfiguration: {
        Rules: prefixes.map((prefix) => ({ ID: `atelier-${prefix.replace(/\W/g, '')}-expiry`, Status: 'Enabled', Filter: { Prefix: prefix }, Expiration: { Days: days } })),
      },
    }));
    return { lifecycle: true };
  } catch (err) {
    return { lifecycle: false, error: err instanceof Error ? err.message : String(err) };
  }
}

export class S3BlobStore implements BlobStore {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    /** This store's prefix in the bucket, ending in '/'. */
    private readonly prefix: string,
    /** The keys this store takes. */
    private readonly pattern: RegExp,
  ) {}

  async save(key: string, bytes: Uint8Array): Promise<void> {
    if (!this.pattern.test(key)) throw new Error(`not a key of this store: ${key}`);
    try {
      await this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.prefix + key, Body: bytes, ContentLength: bytes.length }));
    } catch (err) {
      // The store's "no room" is a full disk to the routes (503 with Retry-After), as embedded.
      if ((err as Error).name === 'QuotaExceeded') Object.assign(err as Error, { code: 'EDQUOT' });
      throw err;
    }
  }

  async open(key: string): Promise<OpenedBlob | undefined> {
    if (!this.pattern.test(key)) return undefined;
    try {
      const got = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }));
      if (!(got.Body instanceof Readable)) throw new Error(`the store answered ${key} without a body stream`);
      return { stream: got.Body, size: got.ContentLength ?? 0, savedAt: got.LastModified?.getTime() ?? Date.now() };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    if (!this.pattern.test(key)) return;
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }));
  }

  async expire(maxAgeMs: number, now = Date.now()): Promise<number> {
    let removed = 0;
    let token: string | undefined;
    do {
      const page = await this.s3.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix, ContinuationToken: token }));
      const old = (page.Contents ?? []).filter((o) => o.Key && o.LastModified && o.LastModified.getTime() < now - maxAgeMs);
      if (old.length) {
        await this.s3.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: old.map((o) => ({ Key: o.Key! })), Quiet: true } }));
        removed += old.length;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return removed;
  }

  /**
   * A URL that reads the blob straight from the store without credentials, valid until its retention runs
   * out (at most 7 days), or undefined when there is no such blob. The client must be able to reach the
   * store's endpoint.
   */
  async presignedUrl(key: string, retentionMs: number, now = Date.now()): Promise<string | undefined> {
    if (!this.pattern.test(key)) return undefined;
    let savedAt: number;
    try {
      const head = await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }));
      savedAt = head.LastModified?.getTime() ?? now;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    const left = Math.floor((savedAt + retentionMs - now) / 1000);
    if (left <= 0) return undefined;
    return getSignedUrl(this.s3, new GetObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }), { expiresIn: Math.min(left, MAX_PRESIGN_S) });
  }

  /** Whether the bucket answers now (for /healthz). */
  async reachable(): Promise<boolean> {
    try {
      await this.s3.send(new HeadBucketCommand({ Bucket: this.bucket }), { abortSignal: AbortSignal.timeout(2000) });
      return true;
    } catch {
      return false;
    }
  }
}

function statusOf(err: unknown): number | undefined {
  return (err as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

function isNotFound(err: unknown): boolean {
  const name = (err as Error | null)?.name;
  return name === 'NoSuchKey' || name === 'NotFound' || statusOf(err) === 404;
}
