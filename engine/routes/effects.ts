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

/** A count of places with a limit; each place is given back once, whichever path gives it first. */
class Places {
  private taken = 0;
  get count(): number { return this.taken; }
  take(limit: number): { release(): void } | undefined {
    if (this.taken >= limit) return undefined;
    this.taken++;
    let held = true;
    return { release: () => { if (held) { held = false; this.taken--; } } };
  }
}

export default async function effectRoutes(app: FastifyInstance, { services }: { services: Services }) {
  const { config } = services;
  // Bodies being read, sync and async: each may buffer a photo of up to 10 MB.
  const uploads = new Places();
  // Async submits still uploading will each be a task: they count against the queue's limit from admission,
  // beside the tasks the backend has pending (counted over every engine sharing it).
  const submits = new Places();

  for (const endpoint of endpointList) {
    if (endpoint.mode !== 'query') app.post(endpoint.path, (req, reply) => handle(endpoint, req, reply));
  }

  async function handle(endpoint: Endpoint, req: FastifyRequest, reply: FastifyReply) {
    const { pool, queue, tasks, results, effects, storage } = services;
    if (!effects[endpoint.slug]) {
      return reply.fail('ERROR_AI_NOT_AVAILABLE', `${endpoint.title} (${endpoint.slug}) is not provided by this engine yet`);
    }
    // Places are taken before the body is read, so slow uploads count against the limits too, and given
    // back on every path: the handler's end and the connection's close (a client that leaves mid-upload
    // may leave the body reader waiting).
    const held: { release(): void }[] = [];
    const releaseAll = () => { for (const p of held) p.release(); };
    onClose(reply, releaseAll);
    try {
      if (endpoint.mode === 'async') {
        const submit = submits.take(config.maxQueuedTasks - await tasks.pendingCount());
        if (!submit) throw new ApiError('EXCEEDING_LIMITS', `the task queue is full (${config.maxQueuedTasks} tasks waiting or uploading); retry later`, 30);
        held.push(submit);
        storage.refuseUnlessRoom();
        const upload = await readBody(req, endpoint, held);
        storage.refuseUnlessRoom(Object.values(upload.images).reduce((n, img) => n + img.bytes.length, 0));
        let task;
        try {
          task = await tasks.submit(endpoint.slug, upload.params, upload.images, req.apiKeyOwner);
        } catch (err) {
          if (isNoSpace(err)) throw storage.refusal(err); // submit left nothing behind
          throw err;
        }
        storage.noteWritten();
        req.log.info({ task_id: task.id, slug: endpoint.slug }, 'task queued');
        queue.pump();
        return reply.envelope(await fillShape(endpoint.result.shape, (leaf) => (leaf.from === 'task_id' ? task.id : undefined)) as Record<string, unknown>);
      }
      const admission = pool.admit();
      if (!admission) throw new ApiError('EXCEEDING_LIMITS', `${pool.queued} requests are already waiting for a worker; retry shortly`, 5);
      held.push(admission);
      // A close before the answer is written means the client has gone: its job is dropped or stopped.
      const gone = new AbortController();
      onClose(reply, () => { if (!reply.raw.writableFinished) gone.abort(); });
      try {
        const upload = await readBody(req, endpoint, held);
        const output = await pool.run(endpoint.slug, upload.images, upload.params, config.syncTimeoutMs, { admission, signal: gone.signal });
        return reply.envelope(await resultBody(endpoint, output, results, services.baseUrl(req)));
      } catch (err) {
        if (!gone.signal.aborted) throw isNoSpace(err) ? storage.refusal(err) : err; // a result that found no room
        // Nobody is left to answer; log it as the client's leaving, not as a failure (499, as nginx does).
        req.log.info({ slug: endpoint.slug }, 'the client closed the connection; its job was cancelled');
        return reply.code(499).send();
      }
    } finally {
      releaseAll();
    }
  }

  /** Reads the body within the upload limit; its upload place is given back as soon as the body is in. */
  async function readBody(req: FastifyRequest, endpoint: Endpoint, held: { release(): void }[]) {
    const place = uploads.take(config.maxUploads);
    if (!place) throw new ApiError('EXCEEDING_LIMITS', `${uploads.count} uploads are already under way; retry shortly`, 5);
    held.push(place);
    try {
      return await readUpload(req, endpoint, config.uploadIdleTimeoutMs);
    } finally {
      place.release();
    }
  }
}

/** Calls `fn` when the answer's connection closes, or at once when it has closed already (its 'close' is past). */
function onClose(reply: FastifyReply, fn: () => void) {
  if (reply.raw.closed) fn();
  else reply.raw.once('close', fn);
}
