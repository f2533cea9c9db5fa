/** Cluster mode is chosen by the environment, and a half-configured or keyless cluster stops the start, saying why. */
import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../config.ts';

const S3 = { ATELIER_S3_ENDPOINT: 'http://127.0.0.1:7480', ATELIER_S3_BUCKET: 'b', ATELIER_S3_ACCESS_KEY_ID: 'a', ATELIER_S3_SECRET_ACCESS_KEY: 's' };
const CLUSTER = { ATELIER_REDIS_URL: 'redis://127.0.0.1:6379', ...S3, ATELIER_API_KEYS: 'k1,k2' };

describe('cluster configuration', () => {
  it('is off without the variables (the embedded default)', () => {
    expect(configFromEnv({}).cluster).toBeUndefined();
    expect(configFromEnv({}).taskLeaseMs).toBe(60_000);
  });

  it('reads Redis, the S3 store and the results mode', () => {
    const c = configFromEnv({ ...CLUSTER, ATELIER_S3_FORCE_PATH_STYLE: '1', ATELIER_RESULTS_REDIRECT: 'presigned' }).cluster;
    expect(c).toEqual({
      redisUrl: 'redis://127.0.0.1:6379', resultsRedirect: 'presigned', mirrorEntries: 10_000, ingressBytes: 64 * 1024 * 1024, resultCacheBytes: 64 * 1024 * 1024,
      s3: { endpoint: 'http://127.0.0.1:7480', bucket: 'b', region: 'us-east-1', accessKeyId: 'a', secretAccessKey: 's', forcePathStyle: true },
    });
    expect(configFromEnv(CLUSTER).cluster?.resultsRedirect).toBe('stream');
    expect(configFromEnv({ ...CLUSTER, ATELIER_REDIS_INGRESS_MB: '0' }).cluster?.ingressBytes).toBe(0);
    expect(configFromEnv({ ...CLUSTER, ATELIER_REDIS_INGRESS_MB: '1.5' }).cluster?.ingressBytes).toBe(1572864);
    expect(configFromEnv({ ...CLUSTER, ATELIER_RESULT_CACHE_MB: '0' }).cluster?.resultCacheBytes).toBe(0);
    expect(configFromEnv({ ...CLUSTER, ATELIER_RESULT_CACHE_MB: '2' }).cluster?.resultCacheBytes).toBe(2097152);
    expect(configFromEnv(CLUSTER).cluster?.mirrorEntries).toBe(10_000);
    expect(configFromEnv({ ...CLUSTER, ATELIER_TASK_MIRROR_ENTRIES: '0' }).cluster?.mirrorEntries).toBe(0);
  });

  it('refuses a queue without a store, a store without a queue, a cluster without configured keys, and bad values', () => {
    expect(() => configFromEnv({ ATELIER_REDIS_URL: 'redis://h:6379', ATELIER_API_KEYS: 'k' })).toThrow(/ATELIER_REDIS_URL is set but ATELIER_S3_BUCKET is not/);
    expect(() => configFromEnv({ ...S3, ATELIER_API_KEYS: 'k' })).toThrow(/ATELIER_S3_BUCKET is set but ATELIER_REDIS_URL is not/);
    expect(() => configFromEnv({ ...CLUSTER, ATELIER_API_KEYS: '' })).toThrow(/cluster mode needs ATELIER_API_KEYS/);
    expect(() => configFromEnv({ ...CLUSTER, ATELIER_REDIS_URL: 'h:6379' })).toThrow(/redis:\/\/ or rediss:\/\//);
    expect(() => configFromEnv({ ...CLUSTER, ATELIER_RESULTS_REDIRECT: 'proxy' })).toThrow(/stream or presigned/);
    expect(() => configFromEnv({ ...CLUSTER, ATELIER_S3_ENDPOINT: 'ceph:7480' })).toThrow(/http:\/\/ or https:\/\//);
    expect(() => configFromEnv({ ...CLUSTER, ATELIER_REDIS_INGRESS_MB: '-1' })).toThrow(/ATELIER_REDIS_INGRESS_MB must be a number/);
    expect(() => configFromEnv({ ...CLUSTER, ATELIER_RESULT_CACHE_MB: 'lots' })).toThrow(/ATELIER_RESULT_CACHE_MB must be a number/);
    expect(() => configFromEnv({ ...CLUSTER, ATELIER_TASK_MIRROR_ENTRIES: '1.5' })).toThrow(/ATELIER_TASK_MIRROR_ENTRIES must be a whole number/);
  });
});
