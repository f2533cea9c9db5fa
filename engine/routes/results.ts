/** Result files, by unguessable name, without a key (URLs are handed only to the requester). */
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';

export default async function resultRoutes(app: FastifyInstance, { services }: { services: Services }) {
  app.get('/results/:name', async (req, reply) => {
    const { name } = req.params as { name: string };
    const file = services.results.pathOf(name);
    const stat = file ? await fs.promises.stat(file).catch(() => undefined) : undefined;
    if (!file || !stat?.isFile()) return reply.fail('ERROR_AI_NOT_EXISTS', `no result ${name}; results are kept 24 hours`);
    return reply
      .type(name.endsWith('.png') ? 'image/png' : 'image/jpeg')
      .header('Content-Length', stat.size)
      .header('Cache-Control', 'private, max-age=86400, immutable')
      .send(fs.createReadStream(file));
  });
}
