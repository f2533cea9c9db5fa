/**
 * The cluster's backends (docs/cluster.md): tasks in Redis through BullMQ, inputs and results in one
 * S3-compatible bucket under two prefixes. Every engine of the cluster opens the same ones; nothing is kept
 * in the data folder, whose lock only keeps two engines on one machine from sharing a folder by mistake.
 */
import type { ClusterConfig } from '../config.ts';
import type { BlobStore } from '../results/blob-store.ts';
import { RESULT_NAME } from '../results/store.ts';
import { CachedBlobStore } from '../results/cached-blob-store.ts';
import { prepareBucket, s3Client, S3BlobStore } from '../results/s3-blob-store.ts';
import { RedisTaskBackend, redactUrl } from './redis-backend.ts';
import { INPUT_KEY } from './store.ts';

export interface ClusterBackends {
  tasks: RedisTaskBackend;
  /** The inputs as read and deleted: through the Redis ingress when it is on, else the store alone. */
  inputs: BlobStore;
  /** The results as the engine reads and writes them: through its cache of copies when it is on, else the store alone. */
  results: BlobStore;
  /** Whether each shared service answers now (for /healthz). */
  reachable(): Promise<{ redis: boolean; store: boolean }>;
  /** The bucket's lifecycle rule could not be set (the store's answer): the engines' own expiry keeps the retention. */
  lifecycleError?: string;
}

/** Connects to both services; a start that cannot reach either stops with a message naming it. */
export async function openClusterBackends(cluster: ClusterConfig, opts: { leaseMs: number; retentionMs: number }): Promise<ClusterBackends> {
  const s3 = s3Client(cluster.s3);
  const where = `${cluster.s3.endpoint ?? 'AWS S3'} bucket ${cluster.s3.bucket}`;
  let lifecycle: Awaited<ReturnType<typeof prepareBucket>>;
  try {
    lifecycle = await prepareBucket(s3, cluster.s3.bucket, ['inputs/', 'results/'], opts.retentionMs);
  } catch (err) {
    s3.destroy();
    throw new Error(`the S3 store (${where}) could not be used: ${err instanceof Error ? `${err.name}: ${err.message}` : err}`);
  }
  const inputs = new S3BlobStore(s3, cluster.s3.bucket, 'inputs/', INPUT_KEY);
  const resultStore = new S3BlobStore(s3, cluster.s3.bucket, 'results/', RESULT_NAME);
  const results = cluster.resultCacheBytes
    ? new CachedBlobStore(resultStore, { maxBytes: cluster.resultCacheBytes, retentionMs: opts.retentionMs })
    : resultStore;
  let tasks: RedisTaskBackend;
  try {
    // The S3 client's sockets go with the task backend, which the app closes last.
    tasks = await RedisTaskBackend.open({ url: cluster.redisUrl, leaseMs: opts.leaseMs, retentionMs: opts.retentionMs, inputs, ingressBytes: cluster.ingressBytes, mirrorEntries: cluster.mirrorEntries, afterClose: () => s3.destroy() });
  } catch (err) {
    s3.destroy();
    throw new Error(`Redis (${redactUrl(cluster.redisUrl)}) could not be used: ${err instanceof Error ? err.message : err}`);
  }
  return {
    tasks, inputs: tasks.inputs, results, lifecycleError: lifecycle.error,
    reachable: async () => {
      const [redis, store] = await Promise.all([tasks.reachable(), resultStore.reachable()]);
      return { redis, store };
    },
  };
}
