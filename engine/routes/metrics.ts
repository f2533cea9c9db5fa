/**
 * GET /metrics, without a key, in Prometheus' text format (prom-client, one registry per app so several
 * engines in one process do not mix): queue depth over every engine sharing the task backend, tasks running
 * here per effect, requests in flight and their latency per endpoint, model load state per model, and
 * whether the engine is draining. Read at scrape time from the same sources as /healthz.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Gauge, Histogram, Registry } from 'prom-client';
import { catalog } from '../vision/models/catalog.ts';
import type { Services } from '../services.ts';
import { modelHealth } from './health.ts';

const MODEL_STATES = ['loaded', 'loading', 'loadable', 'failed'] as const;

async function metricsRoute(app: FastifyInstance, { services }: { services: Services }) {
  const registry = new Registry();
  const latency = new Histogram({
    name: 'atelier_request_duration_seconds', help: 'Time to answer a request, by endpoint (route), method and status class',
    labelNames: ['endpoint', 'method', 'status'], buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [registry],
  });
  const inFlight = new Gauge({ name: 'atelier_requests_in_flight', help: 'Requests being answered, by endpoint', labelNames: ['endpoint'], registers: [registry] });
  new Gauge({
    name: 'atelier_queue_depth', help: 'Async tasks queued or processing, over every engine sharing the task backend', registers: [registry],
    async collect() { this.set(await services.tasks.pendingCount()); },
  });
  new Gauge({
    name: 'atelier_tasks_running', help: 'Async tasks this engine runs now, by effect', labelNames: ['effect'], registers: [registry],
    collect() {
      this.reset();
      for (const [effect, n] of services.queue.runningByEffect()) this.set({ effect }, n);
    },
  });
  new Gauge({
    name: 'atelier_workers', help: 'Worker threads by state', labelNames: ['state'], registers: [registry],
    collect() {
      const { pool } = services;
      this.set({ state: 'idle' }, pool.idle);
      this.set({ state: 'busy' }, pool.size - pool.idle);
      this.set({ state: 'waiting_jobs' }, pool.queued);
    },
  });
  new Gauge({
    name: 'atelier_model_state', help: 'Each model\'s load state across the workers (1 for its current state)', labelNames: ['model', 'state'], registers: [registry],
    collect() {
      this.reset();
      const workers = services.pool.threadModels;
      const ids = new Set([...Object.keys(catalog), ...workers.flatMap((w) => [...w.keys()])]);
      for (const id of ids) {
        const now = modelHealth(workers.flatMap((w) => w.get(id) ?? []), undefined).state;
        for (const state of MODEL_STATES) this.set({ model: id, state }, state === now ? 1 : 0);
      }
    },
  });
  new Gauge({
    name: 'atelier_ready', help: '1 while the engine takes work; 0 while it starts or drains', registers: [registry],
    collect() { this.set(services.pool.ready && !services.closing ? 1 : 0); },
  });

  app.addHook('onRequest', async (req) => {
    const endpoint = req.routeOptions.url;
    if (!endpoint || endpoint === '/metrics') return;
    inFlight.inc({ endpoint });
    (req as { metricsStart?: bigint }).metricsStart = process.hrtime.bigint();
  });
  app.addHook('onResponse', async (req, reply) => {
    const start = (req as { metricsStart?: bigint }).metricsStart;
    const endpoint = req.routeOptions.url;
    if (start === undefined || !endpoint) return;
    inFlight.dec({ endpoint });
    latency.observe({ endpoint, method: req.method, status: `${Math.floor(reply.statusCode / 100)}xx` }, Number(process.hrtime.bigint() - start) / 1e9);
  });

  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => reply.type(registry.contentType).send(await registry.metrics()));
}

/** Not encapsulated: its hooks time every route, so it is registered before them. */
export default fp(metricsRoute, { name: 'metrics' });
