/**
 * The `service-api-key` header guards everything under /api. Keys come from ATELIER_API_KEYS; with none
 * set, one key is created on first start and kept in the data folder. Keys are compared in constant
 * time (over their SHA-256, so lengths leak nothing either).
 */
import fp from 'fastify-plugin';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** The keys to accept, creating the local key if needed. `created` tells the caller to print it. */
export function resolveApiKeys(configured: string[], dataDir: string): { keys: string[]; keyFile?: string; created: boolean } {
  if (configured.length > 0) return { keys: configured, created: false };
  const keyFile = path.join(dataDir, 'api-key');
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    const key = fs.readFileSync(keyFile, 'utf8').trim();
    if (key) return { keys: [key], keyFile, created: false };
  } catch { /* first start */ }
  const key = randomBytes(24).toString('base64url');
  fs.writeFileSync(keyFile, key + '\n', { mode: 0o600 });
  return { keys: [key], keyFile, created: true };
}

export default fp<{ keys: string[] }>(async (app, { keys }) => {
  const accepted = keys.map(digest);
  app.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/api/')) return;
    const given = req.headers['service-api-key'];
    if (given === undefined || given === '') return reply.fail('ERROR_INVALID_API_KEY', 'the service-api-key header is missing');
    const d = digest(Array.isArray(given) ? given[0] : given);
    let ok = false;
    for (const k of accepted) ok = timingSafeEqual(k, d) || ok;
    if (!ok) return reply.fail('ERROR_INVALID_API_KEY', 'the service-api-key header does not hold a valid key');
  });
});
