/** Engine settings from the environment, read once at start. */
import os from 'node:os';
import path from 'node:path';
import { endpointList } from '../contract/index.ts';
import type { Endpoint } from '../contract/endpoint.ts';
import { catalog } from './vision/models/catalog.ts';
import type { S3Settings } from './results/s3-blob-store.ts';

/**
 * Cluster mode (docs/cluster.md): tasks in Redis through BullMQ, inputs and results in an S3-compatible
 * bucket, shared by every engine. Chosen by setting ATELIER_REDIS_URL and ATELIER_S3_BUCKET; neither set is
 * the embedded default.
 */
export interface ClusterConfig {
  redisUrl: string;
  s3: S3Settings;
  /** ATELIER_RESULTS_REDIRECT: `stream` (default) reads results through the engine; `presigned` redirects to the store. */
  resultsRedirect: 'stream' | 'presigned';
  /**
   * ATELIER_REDIS_INGRESS_MB (default 64; 0: off): inputs this engine may hold in Redis, written there by a
   * submit and moved to the store after the answer (tasks/redis-ingress.ts); beyond it they go to the store first.
   */
  ingressBytes: number;
  /**
   * ATELIER_RESULT_CACHE_MB (default 64; 0: off): copies of results this engine saved or read from the
   * store, kept in memory and served until their retention runs out (results/cached-blob-store.ts).
   */
  resultCacheBytes: number;
  /**
   * ATELIER_TASK_MIRROR_ENTRIES (default 10 000; 0: off): queued and processing tasks this engine answers
   * polls of from the queue's event stream instead of a Redis read (tasks/redis-mirror.ts).
   */
  mirrorEntries: number;
}

export interface EngineConfig {
  port: number;
  host: string;
  dataDir: string;
  /** Keys from ATELIER_API_KEYS; empty means "use (or create) the key kept in the data folder". */
  apiKeys: string[];
  /** Accept the AILabTools SDKs' `ailabapi-api-key` header as an alias of `service-api-key` (ATELIER_ACCEPT_SDK_KEY_HEADER, on unless 0). */
  acceptSdkKeyHeader: boolean;
  /** ATELIER_PUBLIC_URL: the origin every result URL is built on (behind a reverse proxy). */
  publicUrl?: string;
  /** ATELIER_TRUST_PROXY: peers (addresses, CIDRs, `loopback`) whose X-Forwarded-Host/Proto are believed. */
  trustProxy: string[];
  workers: number;
  modelThreads: number;
  /** ATELIER_MODEL_IDLE_MS: an ONNX network nothing has run for this long is closed, its memory given back (0: never). */
  modelIdleMs: number;
  /**
   * ATELIER_PRELOAD_MODELS: ONNX networks the model host opens once the engine is up, so the first request
   * needing one does not wait for its load (comma-separated catalog ids, `id@variant` for one of a family;
   * unset: isnet-medium, rvm-onnx and bisenet-face-parsing@384; empty: none).
   */
  preloadModels: string[];
  /**
   * ATELIER_OPTIMIZED_MODEL_DIR: where the model host keeps the graphs onnxruntime optimised, so that later
   * starts open them faster (see engine/workers/optimized-models.ts). Unset: `optimized-models` in the data
   * folder; `off` (false): none kept.
   */
  optimizedModelDir?: string | false;
  /** Queued + running async tasks, plus async submits still uploading, allowed before submit answers 429. */
  maxQueuedTasks: number;
  /**
   * ATELIER_MIN_FREE_MB: what an async submit must leave free on the data folder's disk (for queued tasks'
   * results and the task database), else it answers 503; 0 leaves only the writes' own failures to tell.
   */
  minFreeBytes: number;
  /** Sync requests allowed to wait for a worker before answering 429. */
  maxWaitingJobs: number;
  /** Requests reading an upload at once (sync and async): the excess get 429, so buffered bodies stay bounded. */
  maxUploads: number;
  /** An upload that sends no byte for this long is cut off with 408. */
  uploadIdleTimeoutMs: number;
  /** The whole request (headers and body) must have arrived within this (node's requestTimeout): 408 past it. */
  requestTimeoutMs: number;
  syncTimeoutMs: number;
  asyncTimeoutMs: number;
  /** How long a SIGTERM/SIGINT drain waits for work under way before cutting it off. */
  drainTimeoutMs: number;
  /** How long results and tasks are kept. */
  retentionMs: number;
  sweepIntervalMs: number;
  /**
   * ATELIER_DISABLED_EFFECTS: effects the operator switches off (comma-separated slugs), e.g. those whose
   * model licence does not fit the deployment (see the README's model table). They answer 501 and healthz
   * lists them as not_available.
   */
  disabledEffects: string[];
  /** Extra effect modules by slug (tests register their own processors this way). */
  extraEffects: Record<string, string>;
  /** Endpoints beside the contract's, each served like them (a test adds a throwaway effect this way). */
  extraEndpoints: readonly Endpoint[];
  logLevel: string;
  /** ATELIER_MAX_IMAGE_SIDE (px) and ATELIER_MAX_IMAGE_MB: raise the interface's image limits (http/raised-limits.ts). */
  raisedLimits: { maxSide?: number; maxBytes?: number };
  /**
   * ATELIER_TASK_LEASE_MS: how long a claimed task is held without renewal (renewed every third of it while
   * it runs). In a cluster, a task whose engine died is taken over by another within about twice this.
   */
  taskLeaseMs: number;
  /** Set: this engine is one of a cluster (see ClusterConfig). */
  cluster?: ClusterConfig;
}

/** A comma-separated list of effect slugs; one the contract does not know stops the start with its name. */
function effectSlugs(v: string | undefined): string[] {
  const known = new Set(endpointList.filter((e) => e.mode !== 'query').map((e) => e.slug));
  const slugs = (v ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = slugs.filter((s) => !known.has(s));
  if (unknown.length) throw new Error(`ATELIER_DISABLED_EFFECTS: unknown effect ${unknown.join(', ')}; the effects are ${[...known].join(', ')}`);
  return slugs;
}

/**
 * ATELIER_PRELOAD_MODELS: catalog ids of ONNX networks, or `id@variant` for one of a family the catalog
 * converts on demand (the face parser at an input side); anything else stops the start with the list.
 */
function onnxIds(value: string): string[] {
  const ids = value.split(',').map((m) => m.trim()).filter(Boolean);
  const known = Object.values(catalog).filter((e) => e.onnx).map((e) => e.id);
  const families = Object.values(catalog).filter((e) => e.onnxVariant).map((e) => e.id);
  const unknown = ids.filter((id) => {
    const [base, variant] = id.split('@');
    return variant === undefined ? !known.includes(id) : !variant || !families.includes(base);
  });
  if (unknown.length) throw new Error(`ATELIER_PRELOAD_MODELS: ${unknown.join(', ')} is not an ONNX network of the catalog; those are ${known.join(', ')}, and ${families.map((f) => `${f}@<variant>`).join(', ')}`);
  return ids;
}

/**
 * The cluster settings, or undefined for the embedded default. A queue without a store (or the reverse), or
 * a cluster without keys from configuration (each engine would make its own), stops the start, saying why.
 */
export function clusterFromEnv(env: NodeJS.ProcessEnv, apiKeys: string[]): ClusterConfig | undefined {
  const redisUrl = env.ATELIER_REDIS_URL?.trim();
  const bucket = env.ATELIER_S3_BUCKET?.trim();
  if (!redisUrl && !bucket) return undefined;
  if (!redisUrl) throw new Error('ATELIER_S3_BUCKET is set but ATELIER_REDIS_URL is not: a cluster keeps its tasks in Redis (ATELIER_REDIS_URL=redis://host:6379) and its inputs and results in the bucket; set both, or neither for the single-machine engine');
  if (!bucket) throw new Error('ATELIER_REDIS_URL is set but ATELIER_S3_BUCKET is not: a cluster keeps its tasks in Redis and its inputs and results in an S3-compatible store that every engine reaches (ATELIER_S3_ENDPOINT, ATELIER_S3_BUCKET, ATELIER_S3_REGION, ATELIER_S3_ACCESS_KEY_ID, ATELIER_S3_SECRET_ACCESS_KEY); set them, or unset ATELIER_REDIS_URL for the single-machine engine');
  if (!/^rediss?:\/\//.test(redisUrl)) throw new Error(`ATELIER_REDIS_URL must be a redis:// or rediss:// URL, not ${JSON.stringify(redisUrl.replace(/:[^:@/]*@/, ':***@'))}`);
  if (!apiKeys.length) throw new Error('cluster mode needs ATELIER_API_KEYS: every engine must accept the same keys, and an engine would otherwise make a key of its own in its data folder');
  const redirect = env.ATELIER_RESULTS_REDIRECT?.trim() || 'stream';
  if (redirect !== 'stream' && redirect !== 'presigned') throw new Error(`ATELIER_RESULTS_REDIRECT must be stream or presigned, not ${JSON.stringify(redirect)}`);
  const endpoint = env.ATELIER_S3_ENDPOINT?.trim() || undefined;
  if (endpoint && !/^https?:\/\//.test(endpoint)) throw new Error(`ATELIER_S3_ENDPOINT must be an http:// or https:// URL, not ${JSON.stringify(endpoint)}`);
  const ingressMb = Number(env.ATELIER_REDIS_INGRESS_MB?.trim() || 64);
  if (!Number.isFinite(ingressMb) || ingressMb < 0) throw new Error(`ATELIER_REDIS_INGRESS_MB must be a number of megabytes (0 turns the Redis ingress off), not ${JSON.stringify(env.ATELIER_REDIS_INGRESS_MB)}`);
  const mirrorEntries = Number(env.ATELIER_TASK_MIRROR_ENTRIES?.trim() || 10_000);
  if (!Number.isInteger(mirrorEntries) || mirrorEntries < 0) throw new Error(`ATELIER_TASK_MIRROR_ENTRIES must be a whole number of tasks (0 turns the mirror off), not ${JSON.stringify(env.ATELIER_TASK_MIRROR_ENTRIES)}`);
  const cacheMb = Number(env.ATELIER_RESULT_CACHE_MB?.trim() || 64);
  if (!Number.isFinite(cacheMb) || cacheMb < 0) throw new Error(`ATELIER_RESULT_CACHE_MB must be a number of megabytes (0 turns the result cache off), not ${JSON.stringify(env.ATELIER_RESULT_CACHE_MB)}`);
  return {
    redisUrl,
    resultsRedirect: redirect,
    ingressBytes: Math.round(ingressMb * 1024 * 1024),
    resultCacheBytes: Math.round(cacheMb * 1024 * 1024),
    mirrorEntries,
    s3: {
      endpoint, bucket,
      region: env.ATELIER_S3_REGION?.trim() || 'us-east-1',
      accessKeyId: env.ATELIER_S3_ACCESS_KEY_ID || undefined,
      secretAccessKey: env.ATELIER_S3_SECRET_ACCESS_KEY || undefined,
      forcePathStyle: /^(1|true|yes|on)$/i.test(env.ATELIER_S3_FORCE_PATH_STYLE ?? ''),
    },
  };
}

const int = (v: string | undefined, d: number) => (v && /^\d+$/.test(v) ? Number(v) : d);

export function configFromEnv(env = process.env): EngineConfig {
  const cores = os.availableParallelism();
  const apiKeys = (env.ATELIER_API_KEYS ?? '').split(',').map((k) => k.trim()).filter(Boolean);
  return {
    port: int(env.ATELIER_ENGINE_PORT, 8787),
    host: env.ATELIER_ENGINE_HOST ?? '127.0.0.1',
    dataDir: path.resolve(env.ATELIER_DATA_DIR ?? './data'),
    apiKeys,
    acceptSdkKeyHeader: !/^(0|false|no|off)$/i.test(env.ATELIER_ACCEPT_SDK_KEY_HEADER ?? ''),
    publicUrl: env.ATELIER_PUBLIC_URL || undefined,
    trustProxy: (env.ATELIER_TRUST_PROXY ?? '').split(',').map((a) => a.trim()).filter(Boolean),
    workers: int(env.ATELIER_WORKERS, Math.min(2, cores)),
    // Every worker may use all cores: one request at a time (the studio's usual load) then runs at full speed.
    // Measured on 2 cores, product photo: 1.84 s per request with 2 threads against 3.4 s with 1; two
    // requests at once lose 9% to the oversubscription (8 requests: 15.5 s against 14.1 s).
    modelThreads: int(env.ATELIER_MODEL_THREADS, cores),
    // ISNet's open session holds about 1.4 GB (its arena) against 0.6 GB closed; reopening it takes about 1 s.
    modelIdleMs: int(env.ATELIER_MODEL_IDLE_MS, 10 * 60_000),
    // ISNet by default: opened from its optimised copy it adds about 215 MB at rest (RSS after start 442 MB
    // against 227 MB; 866 MB from its weights), for about 2 s off the first product or apparel cutout. The
    // face parser at 384 px (apparel's heads, hair loss): its open (the identity hash and the session, about
    // 0.4 s of CPU) came after ISNet's first run in apparel's first request.
    preloadModels: onnxIds(env.ATELIER_PRELOAD_MODELS ?? 'isnet-medium,rvm-onnx,bisenet-face-parsing@384'),
    optimizedModelDir: env.ATELIER_OPTIMIZED_MODEL_DIR === 'off' ? false : env.ATELIER_OPTIMIZED_MODEL_DIR ? path.resolve(env.ATELIER_OPTIMIZED_MODEL_DIR) : undefined,
    maxQueuedTasks: int(env.ATELIER_MAX_QUEUED_TASKS, 200),
    minFreeBytes: int(env.ATELIER_MIN_FREE_MB, 64) * 1024 * 1024,
    maxWaitingJobs: int(env.ATELIER_MAX_WAITING_JOBS, 32),
    // 16 photos of at most 10 MB being read at once; a 10 MB photo at 1 Mbit/s takes 80 s of the 120.
    maxUploads: int(env.ATELIER_MAX_UPLOADS, 16),
    uploadIdleTimeoutMs: int(env.ATELIER_UPLOAD_IDLE_TIMEOUT_MS, 15_000),
    requestTimeoutMs: int(env.ATELIER_REQUEST_TIMEOUT_MS, 120_000),
    syncTimeoutMs: int(env.ATELIER_SYNC_TIMEOUT_MS, 120_000),
    asyncTimeoutMs: int(env.ATELIER_ASYNC_TIMEOUT_MS, 600_000),
    // Below Kubernetes' default 30 s between SIGTERM and SIGKILL (docker stop waits 10 s unless given --time).
    drainTimeoutMs: int(env.ATELIER_DRAIN_TIMEOUT_MS, 25_000),
    retentionMs: int(env.ATELIER_RETENTION_MS, 24 * 3600_000),
    sweepIntervalMs: int(env.ATELIER_SWEEP_INTERVAL_MS, 10 * 60_000),
    disabledEffects: effectSlugs(env.ATELIER_DISABLED_EFFECTS),
    extraEffects: {},
    extraEndpoints: [],
    logLevel: env.ATELIER_LOG_LEVEL ?? 'info',
    raisedLimits: { maxSide: int(env.ATELIER_MAX_IMAGE_SIDE, 0) || undefined, maxBytes: int(env.ATELIER_MAX_IMAGE_MB, 0) * 1024 * 1024 || undefined },
    taskLeaseMs: Math.max(1000, int(env.ATELIER_TASK_LEASE_MS, 60_000)),
    cluster: clusterFromEnv(env, apiKeys),
  };
}
