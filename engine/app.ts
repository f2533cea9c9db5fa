/**
 * Builds the engine. Order of registration matters and is fixed here:
 *   1. multipart parser   2. envelope (error and not-found handlers, reply.envelope/fail)
 *   3. closing guard      4. auth on /api/*
 *   5. routes: effects, task result, results, health, OpenAPI + docs
 *   6. 405 + Allow for the methods a known path does not serve (plugins/methods.ts; needs every route in)
 * Services (worker pool, task store and queue, result store) are created here and closed on app.close().
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
import { docsCsp, openApiDocument } from './http/openapi.ts';
import { effectModules } from './effects/registry.ts';
import { WorkerPool } from './workers/pool.ts';
import { ResultStore } from './results/store.ts';
import { TaskStore } from './tasks/store.ts';
import { TaskQueue } from './tasks/queue.ts';
import type { EngineConfig } from './config.ts';

export interface Services {
  config: EngineConfig;
  effects: Record<string, string>;
  pool: WorkerPool;
  tasks: TaskStore;
  queue: TaskQueue;
  results: ResultStore;
  closing: boolean;
}

declare module 'fastify' {
  interface FastifyInstance { services: Services }
}

export async function buildApp(config: EngineConfig, keys: string[], logger: boolean | object = false): Promise<FastifyInstance> {
  const effects = { ...effectModules, ...config.extraEffects };
  const results = new ResultStore(config.dataDir);
  await results.init();
  const tasks = new TaskStore(config.dataDir);
  const pool = new WorkerPool({ effects, threads: Math.max(1, config.modelThreads) }, config.workers, config.maxWaitingJobs);
  const queue = new TaskQueue(tasks, pool, results, { concurrency: Math.max(1, config.workers), timeoutMs: config.asyncTimeoutMs });
  const services: Services = { config, effects, pool, tasks, queue, results, closing: false };

  const app = Fastify({
    logger,
    genReqId: newLogId,
    logController: new LogController({ requestIdLogLabel: 'log_id' }),
    // Our own guard answers with the envelope while closing.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    ...httpLayerOptions,
  });
  app.decorate('services', services);

  await app.register(multipart);
  await app.register(envelope);
  app.addHook('onRequest', async (req, reply) => {
    if (services.closing && req.url !== '/healthz') return reply.fail('ERROR_INSUFFICIENT_RESOURCES', 'the engine is shutting down; retry shortly', 10);
  });
  // Answers sent while closing end their connection, so keep-alive sockets do not hold the close open.
  app.addHook('onSend', async (_req, reply) => { if (services.closing) reply.header('connection', 'close'); });
  await app.register(auth, { keys });
  const methods = trackMethods(app);
  await app.register(effectRoutes, { services });
  await app.register(taskResultRoute, { services });
  await app.register(resultRoutes, { services });
  await app.register(healthRoute, { services });
  await app.register(swagger, { mode: 'static', specification: { document: openApiDocument() as never } });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: docsCsp });
  app.get('/openapi.json', { schema: { hide: true } }, async () => openApiDocument());
  methods.addMethodNotAllowed();

  const sweep = async () => {
    const t = tasks.sweep(config.retentionMs);
    const r = await results.sweep(config.retentionMs);
    if (t || r) app.log.info({ tasks: t, results: r }, 'swept expired tasks and results');
  };
  const sweeper = setInterval(() => void sweep().catch((err) => app.log.error({ err }, 'sweep failed')), config.sweepIntervalMs);
  sweeper.unref();

  app.addHook('onReady', async () => {
    await sweep();
    const requeued = queue.start();
    if (requeued) app.log.info({ requeued }, 'requeued tasks interrupted by the last stop');
  });
  app.addHook('preClose', async () => { services.closing = true; queue.stop(); });
  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    await pool.close();
    tasks.close();
  });
  return app;
}
