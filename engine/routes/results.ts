/**
 * Result files, by unguessable name, without a key (URLs are handed only to the requester), cacheable for the
 * time they have left. Streamed from the blob store, whichever engine saved them; in a cluster with
 * ATELIER_RESULTS_REDIRECT=presigned, answered instead with a redirect to a presigned URL of the store.
 */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';

export default async function resultRoutes(app: FastifyInstance, { services }: { services: Services }) {
  app.get('/results/:name', async (req, reply) => {
    const { name } = req.params as { name: string };
    const { config, results } = services;
    if (config.cluster?.resultsRedirect === 'presigned' && results.canPresign) {
      const url = await results.presignedUrl(name, config.retentionMs);
      if (!url) return reply.fail('ERROR_AI_NOT_EXISTS', `no result ${name}; results are kept 24 hours`);
      return reply.header('Cache-Control', 'private, no-store').redirect(url, 302);
    }
    const blob = await services.results.open(name);
    if (!blob) return reply.fail('ERROR_AI_NOT_EXISTS', `no result ${name}; results are kept 24 hours`);
    return reply
      .type(name.endsWith('.png') ? 'image/png' : 'image/jpeg')
      .header('Content-Length', blob.size)
      .header('Cache-Control', cacheControl(blob.savedAt, services.config.retentionMs))
      .send(blob.bytes ?? blob.stream);
  });
}

/**
 * Cacheable until the sweeper may delete the result (its save time plus the retention), never longer: a cache
 * must not keep serving a result after its URL has stopped working. One past its time, not swept yet, gets 0.
 */
export function cacheControl(savedAt: number, retentionMs: number, now = Date.now()): string {
  const left = Math.floor((savedAt + retentionMs - now) / 1000);
  return left > 0 ? `private, max-age=${left}, immutable` : 'private, max-age=0';
}
