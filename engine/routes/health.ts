/** Liveness without a key, plus whether the models are loaded and which effects this engine provides. */
import type { FastifyInstance } from 'fastify';
import { endpointList } from '../../contract/index.ts';
import type { Services } from '../services.ts';

export default async function healthRoute(app: FastifyInstance, { services }: { services: Services }) {
  app.get('/healthz', async () => {
    const { pool, tasks, queue, effects } = services;
    return {
      status: services.closing ? 'shutting_down' : 'ok',
      models_loaded: pool.modelsLoaded,
      models: pool.loadedModels,
      effects: Object.fromEntries(endpointList.filter((e) => e.mode !== 'query')
        .map((e) => [e.slug, effects[e.slug] ? 'available' : 'not_available'])),
      workers: { size: pool.size, idle: pool.idle, waiting: pool.queued },
      tasks: { pending: tasks.pendingCount(), running: queue.inFlight },
    };
  });
}
