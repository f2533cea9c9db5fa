/**
 * One route per contract endpoint. Sync endpoints await the effect on the worker pool; async ones store
 * the task (inputs first) and answer its id, or 503 with Retry-After when the disk has no room for it
 * (storage.ts). Endpoints with no effect module answer 501 plainly. (A wrong
 * method answers 405 from plugins/methods.ts, for every path.)
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { endpointList } from '../../contract/index.ts';
import type { Endpoint } from '../../contract/endpoint.ts';
import { readUpload } from '../http/upload.ts';
import { resultBody } from '../http/result-body.ts';
import { fillShape } from '../../contract/result.ts';
import { ApiError } from '../http/api-error.ts';
import { isNoSpace } from '../storage.ts';
import type { Services } from '../services.ts';

export default async function effectRoutes(app: FastifyInstance, { services }: { services: Services }) {
  for (const endpoint of endpointList) {
    if (endpoint.mode !== 'query') app.post(endpoint.path, (req, reply) => handle(endpoint, req, reply));
  }

  async function handle(endpoint: Endpoint, req: FastifyRequest, reply: FastifyReply) {
    const { pool, queue, tasks, results, config, effects, storage } = services;
    if (!effects[endpoint.slug]) {
      return reply.fail('ERROR_AI_NOT_AVAILABLE', `${endpoint.title} (${endpoint.slug}) is not provided by this engine yet`);
    }
    if (endpoint.mode === 'async') {
      if (tasks.pendingCount() >= config.maxQueuedTasks) {
        throw new ApiError('EXCEEDING_LIMITS', `the task queue is full (${config.maxQueuedTasks} tasks waiting); retry later`, 30);
      }
      storage.refuseUnlessRoom();
      const upload = await readUpload(req, endpoint);
      storage.refuseUnlessRoom(Object.values(upload.images).reduce((n, img) => n + img.bytes.length, 0));
      let task;
      try {
        task = tasks.create(endpoint.slug, upload.params, upload.images, req.apiKeyOwner);
      } catch (err) {
        if (isNoSpace(err)) throw storage.refusal(err); // create left nothing behind
        throw err;
      }
      storage.noteWritten();
      req.log.info({ task_id: task.id, slug: endpoint.slug }, 'task queued');
      queue.pump();
      return reply.envelope(await fillShape(endpoint.result.shape, (leaf) => (leaf.from === 'task_id' ? task.id : undefined)) as Record<string, unknown>);
    }
    // The place is held while the body uploads, so slow uploads count against the limit too.
    const admission = pool.admit();
    if (!admission) throw new ApiError('EXCEEDING_LIMITS', `${pool.queued} requests are already waiting for a worker; retry shortly`, 5);
    // Released on every path: the handler's end (success, invalid input, upload error, timeout) and the
    // connection's close (a client that leaves mid-upload may leave the body reader waiting).
    // A close before the answer is written means the client has gone: its job is dropped or stopped.
    const gone = new AbortController();
    reply.raw.once('close', () => {
      admission.release();
      if (!reply.raw.writableFinished) gone.abort();
    });
    try {
      const upload = await readUpload(req, endpoint);
      const output = await pool.run(endpoint.slug, upload.images, upload.params, config.syncTimeoutMs, { admission, signal: gone.signal });
      return reply.envelope(await resultBody(endpoint, output, results, services.baseUrl(req)));
    } catch (err) {
      if (!gone.signal.aborted) throw isNoSpace(err) ? storage.refusal(err) : err; // a result that found no room
      // Nobody is left to answer; log it as the client's leaving, not as a failure (499, as nginx does).
      req.log.info({ slug: endpoint.slug }, 'the client closed the connection; its job was cancelled');
      return reply.code(499).send();
    } finally {
      admission.release();
    }
  }
}
