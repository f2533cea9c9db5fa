/**
 * Liveness without a key, plus which effects this engine provides and where each model stands. Models
 * load in a worker when an effect that needs them first runs there, so `ready` (every worker takes jobs)
 * comes within a second or two of start and says nothing about models; `models` does, per catalog id:
 * loaded (in `workers` of the threads: worker threads, and the model host for the networks it preloads), loading, loadable (its files are there, nothing has needed
 * it yet) or failed (with the reason: the last load error, or the files that are missing). `storage` says
 * whether the data folder's disk has room (storage.ts); while it is full, `status` is `storage_full`.
 * `backend` names the task and blob backends (embedded, or cluster: Redis and S3) and whether each service
 * they rely on answers now; `ready` is false while draining, so a load balancer stops sending work.
 *
 * GET /readyz says the same `ready` in its status, for probes that read only the status (Kubernetes'
 * readinessProbe, Docker's HEALTHCHECK, load balancers): 200 while the engine takes work, 503 while it
 * starts or drains. /healthz stays 200 while draining, so a liveness probe on it does not kill the drain.
 */
import type { FastifyInstance } from 'fastify';
import { catalog } from '../vision/models/catalog.ts';
import type { WorkerModel } from '../workers/pool.ts';
import type { Services } from '../services.ts';

export type ModelHealth =
  | { state: 'loaded'; workers: number }
  | { state: 'loading' | 'loadable' }
  | { state: 'failed'; message: string };

/** One model across the workers: loaded anywhere wins, then loading, then a reported failure, then the file check. */
export function modelHealth(perWorker: WorkerModel[], fileProblem: string | undefined): ModelHealth {
  const loaded = perWorker.filter((m) => m.state === 'loaded').length;
  if (loaded) return { state: 'loaded', workers: loaded };
  if (perWorker.some((m) => m.state === 'loading')) return { state: 'loading' };
  const failed = perWorker.find((m) => m.state === 'failed');
  if (failed) return { state: 'failed', message: failed.message ?? 'unknown error' };
  return fileProblem ? { state: 'failed', message: fileProblem } : { state: 'loadable' };
}

export default async function healthRoute(app: FastifyInstance, { services }: { services: Services }) {
  // Files only, once: a missing weight file shows here before any request needs it.
  const problems = new Map(await Promise.all(Object.values(catalog).map(async (e) => [e.id, await e.check()] as const)));

  const raised = services.config.raisedLimits;
  app.get('/healthz', async () => {
    const { pool, tasks, queue, effects, endpoints, storage: disk, backend } = services;
    const reachable = await backend.reachable();
    const storage = disk.health();
    const workers = pool.threadModels;
    // The catalog, and anything a worker tried that is not in it (an effect naming a model that does not exist).
    const ids = new Set([...Object.keys(catalog), ...workers.flatMap((w) => [...w.keys()])]);
    return {
      status: services.closing ? 'shutting_down' : storage.state === 'full' ? 'storage_full' : 'ok',
      ready: pool.ready && !services.closing,
      models: Object.fromEntries([...ids].map((id) =>
        [id, modelHealth(workers.flatMap((w) => w.get(id) ?? []), problems.get(id))])),
      effects: Object.fromEntries(endpoints.filter((e) => e.mode !== 'query')
        .map((e) => [e.slug, effects[e.slug] ? 'available' : 'not_available'])),
      workers: { size: pool.size, idle: pool.idle, waiting: pool.queued },
      backend: { kind: backend.kind, reachable },
      // An unreachable shared backend has no count to give.
      tasks: { pending: Object.values(reachable).every(Boolean) ? await tasks.pendingCount() : null, running: queue.inFlight },
      storage,
      // Raised by the self-hoster (ATELIER_MAX_IMAGE_SIDE, _MB): clients such as the studio send photos up to
      // these instead of the interface's limits. Absent when the interface's limits apply.
      ...(raised.maxSide || raised.maxBytes ? { image_limits: { max_side: raised.maxSide ?? null, max_bytes: raised.maxBytes ?? null } } : {}),
    };
  });

  // Not the backend's reachability: Redis or the store out would take every engine out of the load
  // balancer at once, and clients would get no answer instead of the engines' 503 saying why.
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    if (services.pool.ready && !services.closing) return { ready: true };
    return reply.fail('ERROR_INSUFFICIENT_RESOURCES', 'the engine is starting; retry shortly', { retryAfterS: 5 });
  });
}
