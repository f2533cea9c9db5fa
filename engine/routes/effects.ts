/**
 * One route per contract endpoint. Sync endpoints await the effect on the worker pool; async ones store
 * the task (inputs first) and answer its id. Endpoints with no effect module answer 501 plainly. (A wrong
 * method answers 405 from plugins/methods.ts, for every path.)
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { endpointList } from '../../contract/index.ts';
import type { Endpoint } from '../../contract/endpoint.ts';
import { readUpload } from '../http/upload.ts';
import { resultBody } from '../http/result-body.ts';
import { baseUrl } from '../http/base-url.ts';
import { ApiError } from '../http/api-error.ts';
import type { Services } from '../app.ts';

export default async function effectRoutes(app: FastifyInstance, { services }: { services: Services }) {
  for (const endpoint of endpointList) {
    if (endpoint.mode !== 'query') app.post(endpoint.path, (req, reply) => handle(endpoint, req, reply));
  }

  async function handle(endpoint: Endpoint, req: FastifyRequest, reply: FastifyReply) {
    const { pool, queue, tasks, results, config, effects } = services;
    if (!effects[endpoint.slug]) {
      return reply.fail('ERROR_AI_NOT_AVAILABLE', `${endpoint.title} (${endpoint.slug}) is not provided by this engine yet`);
    }
    if (endpoint.mode === 'sync' && !pool.canAccept()) {
      throw new ApiError('EXCEEDING_LIMITS', `${pool.queued} requests are already waiting for a worker; retry shortly`, 5);
    }
    if (endpoint.mode === 'async' && tasks.pendingCount() >= config.maxQueuedTasks) {
      throw new ApiError('EXCEEDING_LIMITS', `the task queue is full (${config.maxQueuedTasks} tasks waiting); retry later`, 30);
    }
    const upload = await readUpload(req, endpoint);
    if (endpoint.mode === 'async') {
      const task = tasks.create(endpoint.slug, upload.params, upload.images);
      req.log.info({ task_id: task.id, slug: endpoint.slug }, 'task queued');
      queue.pump();
      return reply.envelope({ task_id: task.id });
    }
    const output = await pool.run(endpoint.slug, upload.images, upload.params, config.syncTimeoutMs);
    return reply.envelope(await resultBody(endpoint, output, results, baseUrl(req)));
  }
}
