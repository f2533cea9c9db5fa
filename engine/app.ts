/**
 * Builds the engine. Order of registration matters and is fixed here:
 *   1. multipart parser   2. envelope (error and not-found handlers, reply.envelope/fail)
 *   3. closing guard      4. auth (bound to every contract route as it is declared)
 *   5. routes: metrics (its timing hooks first), effects, task result, results, health, OpenAPI + docs
 *   6. 405 + Allow for the methods a known path does not serve (plugins/methods.ts; needs every route in)
 * Services (worker pool, task backend and queue, input and result blob stores) are created here and closed
 * on app.close(). The backends are the embedded ones (tasks/embedded-backend.ts), or in cluster mode Redis
 * and S3 (tasks/cluster-backends.ts, chosen by config.cluster); routes and the queue reach them only through
 * their interfaces (tasks/backend.ts, results/blob-store.ts).
 */
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import envelope, { httpLayerOptions, newLogId } from './plugins/envelope.ts';
import auth from './plugins/auth.ts';
import { trackMethods } from './plugins/methods.ts';
import effectRoutes from './routes/effects.ts';
import taskResultRoute from './routes/task-result.ts';
import resultRoutes from './routes/results.ts';
import healthRoute from './routes/health.ts';
import metricsRoute from './routes/metrics.ts';
import { docsCsp, openApiDocument } from './http/openapi.ts';
import { withRaisedLimits } from './http/raised-limits.ts';
import { endpointList } from '../contract/index.ts';
import { effectModuleOf, effectModules } from './effects/registry.ts';
import { WorkerPool } from './workers/pool.ts';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { ResultStore } from './results/store.ts';
import { openEmbeddedBackends, type EmbeddedTaskBackend } from './tasks/embedded-backend.ts';
import { openClusterBackends } from './tasks/cluster-backends.ts';
import type { TaskBackend } from './tasks/backend.ts';
import type { BlobStore } from './results/blob-store.ts';
import { TaskQueue } from './tasks/queue.ts';
import { StorageMonitor } from './storage.ts';
import { baseUrlResolver, type BaseUrlOf } from './http/base-url.ts';
import { lockDataDir, type DataDirLock } from './data-dir.ts';
import type { EngineConfig } from './config.ts';
import type { Services } from './services.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * As built here. Typed with the embedded task backend, which tests look into (`services.tasks.get`); in
     * cluster mode `tasks` is the Redis backend, which has only the interface's methods. The routes see
     * only `Services`.
     */
    services: Services<EmbeddedTaskBackend>;
    /**
     * Graceful stop: keeps listening, answers new requests 503 with Retry-After (/healthz says
     * shutting_down) while requests and running tasks already under way finish, for at most `timeoutMs`;
     * then closes. Queued tasks stay queued for the next start.
     */
    drain(timeoutMs: number): Promise<void>;
  }
}

/**
 * `lock` is the data folder's lock when the caller took it already (startEngine does, before the key
 * file); otherwise it is taken here, before anything in the folder is read or written. The app releases
 * it on close, or at once if building fails.
 */
export async function buildApp(config: EngineConfig, keys: string[], logger: boolean | object = false,
  opts: { lock?: DataDirLock } = {}): Promise<FastifyInstance> {
  // First, so that a bad setting stops the start before anything is created.
  const baseUrl = baseUrlResolver(config);
  const lock = opts.lock ?? lockDataDir(config.dataDir);
  try {
    return await assemble(config, keys, logger, lock, baseUrl);
  } catch (err) {
    lock.release();
    throw err;
  }
}

async function assemble(config: EngineConfig, keys: string[], logger: boolean | object, lock: DataDirLock, baseUrl: BaseUrlOf): Promise<FastifyInstance> {
  const endpoints = [...endpointList, ...config.extraEndpoints].map((e) => withRaisedLimits(e, config.raisedLimits));
  const effects: Record<string, string> = { ...effectModules, ...config.extraEffects };
  for (const slug of config.disabledEffects) delete effects[slug];
  const backends = await openBackends(config, keys, lock);
  const { tasks, inputs } = backends;
  const results = new ResultStore(backends.results);
  // In a cluster nothing is written to this machine's disk: a full store answers through its writes' errors.
  const storage = new StorageMonitor(backends.dirs, config.minFreeBytes);
  const pool = new WorkerPool({
    effects, threads: Math.max(1, config.modelThreads), modelIdleMs: config.modelIdleMs, preloadModels: config.preloadModels,
    optimizedModelDir: config.optimizedModelDir === false ? undefined : config.optimizedModelDir ?? path.join(config.dataDir, 'optimized-models'),
  }, config.workers, config.maxWaitingJobs);
  // This engine's name in the leases it takes: new at every start, so a restarted engine's own earlier claims are another holder's.
  const holder = randomUUID();
  const queue = new TaskQueue(tasks, inputs, pool, results, storage, { holder, concurrency: Math.max(1, config.workers), timeoutMs: config.asyncTimeoutMs, leaseMs: config.taskLeaseMs, endpoints });
  const services: Services<EmbeddedTaskBackend> = { config, endpoints, effects, pool, tasks: tasks as EmbeddedTaskBackend, queue, results, storage, closing: false, baseUrl, backend: backends.health };

  const app = Fastify({
    logger,
    genReqId: newLogId,
    logController: new LogController({ requestIdLogLabel: 'log_id' }),
    // Our own guard answers with the envelope while closing.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    ...httpLayerOptions,
    // A request (headers and body) that has not fully arrived in time is cut off with 408; node checks
    // every second instead of its default 30. Headers get their own bound (node's headersTimeout, 60 s
    // by default) within it.
    requestTimeout: config.requestTimeoutMs,
    http: { ...httpLayerOptions.http, connectionsCheckingInterval: 1000, headersTimeout: Math.min(config.requestTimeoutMs, 30_000) },
  });
  app.decorate('services', services);
  // An endpoint without an effect is a 501 for every request: said once here, not only when one comes.
  for (const e of endpoints) {
    if (e.mode === 'query' || effects[e.slug]) continue;
    if (config.disabledEffects.includes(e.slug)) app.log.info({ slug: e.slug }, 'effect disabled by ATELIER_DISABLED_EFFECTS; its endpoint answers 501');
    else app.log.warn({ slug: e.slug, expected: effectModuleOf(e.slug) }, 'endpoint has no effect module; it answers 501 ERROR_AI_NOT_AVAILABLE');
  }

  await app.register(multipart);
  await app.register(envelope);
  // Requests under way, counted until their connection's answer is done, so a drain can wait for them.
  let active = 0;
  const whenNoRequests: (() => void)[] = [];
  const requestsDone = () => (active === 0 ? Promise.resolve() : new Promise<void>((r) => whenNoRequests.push(r)));
  app.addHook('onRequest', async (req, reply) => {
    if (services.closing && req.url !== '/healthz') return reply.fail('ERROR_INSUFFICIENT_RESOURCES', 'the engine is shutting down; retry shortly', { retryAfterS: 10 });
    active++;
    reply.raw.once('close', () => {
      if (--active === 0) for (const w of whenNoRequests.splice(0)) w();
    });
  });
  // Answers sent while closing end their connection, so keep-alive sockets do not hold the close open;
  // but not while the request's body is still arriving: closing under a client that is still sending
  // gives it a broken pipe instead of the answer. Node reads such a body out and drops it.
  app.addHook('onSend', async (req, reply) => { if (services.closing && req.raw.complete) reply.header('connection', 'close'); });
  await app.register(auth, { keys, guardedPaths: new Set(endpoints.map((e) => e.path)), acceptSdkHeader: config.acceptSdkKeyHeader, ownerOf: (key) => tasks.ownerOf(key) });
  const methods = trackMethods(app);
  await app.register(metricsRoute, { services });
  await app.register(effectRoutes, { services });
  await app.register(taskResultRoute, { services });
  await app.register(resultRoutes, { services });
  await app.register(healthRoute, { services });
  await app.register(swagger, { mode: 'static', specification: { document: openApiDocument(endpoints) as never } });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: docsCsp });
  app.get('/openapi.json', { schema: { hide: true } }, async () => openApiDocument(endpoints));
  methods.addMethodNotAllowed();

  // Tasks whose lease ran out go back to the queue (embedded, only this engine takes leases, renewed while
  // it runs them: a task finds one run out only if its renewal could not be written); expired tasks,
  // inputs and results go.
  const sweep = async () => {
    const requeued = await tasks.requeueExpired();
    const t = await tasks.sweep(config.retentionMs);
    const i = await inputs.expire(config.retentionMs);
    const r = await results.sweep(config.retentionMs);
    if (requeued) app.log.warn({ requeued }, 'requeued tasks whose lease ran out');
    if (t || i || r) app.log.info({ tasks: t, inputs: i, results: r }, 'swept expired tasks and results');
  };
  const sweeper = setInterval(() => void sweep().catch((err) => app.log.error({ err }, 'sweep failed')), config.sweepIntervalMs);
  sweeper.unref();

  app.addHook('onReady', async () => {
    const requeued = await queue.recover();
    if (requeued) app.log.info({ requeued }, 'requeued tasks interrupted by the last stop');
    // A sweep that fails (its deletes need room in the database's log, on a full disk) does not stop the start.
    await sweep().catch((err) => app.log.error({ err }, 'sweep failed'));
    queue.start();
    // Tasks queued by the other engines of a cluster wake this one's queue too.
    tasks.watch?.(() => queue.pump());
  });
  app.decorate('drain', async (timeoutMs: number) => {
    services.closing = true;
    queue.stop();
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      Promise.all([requestsDone(), queue.whenIdle()]).then(() => true),
      new Promise<false>((r) => { timer = setTimeout(() => r(false), timeoutMs); }),
    ]);
    clearTimeout(timer);
    if (!finished) {
      app.log.warn({ timeoutMs, requests: active, tasks: queue.inFlight }, 'drain time is up; cutting off the work still under way');
    }
    const closed = app.close();
    // What is left is idle, an upload being turned away, or (past the bound) work cut off: its worker
    // stops on close, and a task stays `processing`, to run again at the next start.
    app.server.closeAllConnections();
    await closed;
  });

  app.addHook('preClose', async () => { services.closing = true; queue.stop(); });
  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    queue.interrupt();
    await pool.close();
    try {
      await tasks.close(); // embedded, the data folder's lock with it
    } finally {
      lock.release(); // the cluster's; a second release is nothing
    }
  });
  return app;
}

interface Backends {
  tasks: TaskBackend;
  inputs: BlobStore;
  results: BlobStore;
  /** The folders written to on this machine, for the storage monitor (none in a cluster). */
  dirs: string[];
  health: Services['backend'];
}

/** The embedded backends in the locked data folder, or the cluster's (config.cluster): Redis and S3. */
async function openBackends(config: EngineConfig, keys: string[], lock: DataDirLock): Promise<Backends> {
  if (!config.cluster) {
    const embedded = openEmbeddedBackends(lock);
    return { ...embedded, health: { kind: 'embedded', reachable: async () => ({ database: true }) } };
  }
  if (!config.apiKeys.length || !keys.length) throw new Error('cluster mode needs ATELIER_API_KEYS: every engine must accept the same keys');
  const cluster = await openClusterBackends(config.cluster, { leaseMs: config.taskLeaseMs, retentionMs: config.retentionMs });
  if (cluster.lifecycleError) console.warn(`[cluster] the bucket's lifecycle rule could not be set (${cluster.lifecycleError}); the engines' sweep keeps the retention`);
  return { tasks: cluster.tasks, inputs: cluster.inputs, results: cluster.results, dirs: [], health: { kind: 'cluster', reachable: cluster.reachable } };
}
