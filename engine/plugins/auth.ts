/**
 * The key guards every contract route (the effects, the 405 answers on their paths and the task query). It
 * is bound to the routes themselves when they are declared, never matched against the request's URL text:
 * the router decodes paths (`/%61pi/...` is `/api/...`), so a prefix check on the raw URL can be walked
 * around. Health, results (unguessable names) and the docs stay open.
 *
 * Keys come from ATELIER_API_KEYS; with none set, one key is created on first start and kept in the data
 * folder. Keys are compared in constant time (over their SHA-256, so lengths leak nothing either).
 * `ailabapi-api-key`, the header the commercial service's SDKs send, is read as an alias unless switched off.
 * The request's `apiKeyOwner` names the key that matched (`ownerOf` of it, the same whichever header
 * carried it), for the routes that keep things per key: a task belongs to the key that submitted it.
 */
import fp from 'fastify-plugin';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';

const digest = (s: string) => createHash('sha256').update(s).digest();

export const KEY_HEADER = 'service-api-key';
/** The header the AILabTools SDKs always send; read when `service-api-key` is absent. */
export const SDK_KEY_HEADER = 'ailabapi-api-key';

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

declare module 'fastify' {
  interface FastifyRequest {
    /** The owner id of the key the request carried (set once the key is checked; '' on unguarded routes). */
    apiKeyOwner: string;
  }
}

export interface AuthOptions {
  keys: string[];
  /** The paths that need a key: every endpoint's. */
  guardedPaths: ReadonlySet<string>;
  acceptSdkHeader: boolean;
  /** The id stored for what a key owns (never the key itself); by default the key's SHA-256. */
  ownerOf?: (key: string) => string;
}

export default fp<AuthOptions>(async (app, { keys, guardedPaths, acceptSdkHeader, ownerOf }) => {
  const accepted = keys.map(digest);
  const owners = keys.map((k) => (ownerOf ? ownerOf(k) : digest(k).toString('base64url')));
  app.decorateRequest('apiKeyOwner', '');
  const headerNames = acceptSdkHeader ? `${KEY_HEADER} (or ${SDK_KEY_HEADER})` : KEY_HEADER;

  const requireKey: onRequestHookHandler = async (req: FastifyRequest, reply: FastifyReply) => {
    let given = req.headers[KEY_HEADER];
    if ((given === undefined || given === '') && acceptSdkHeader) given = req.headers[SDK_KEY_HEADER];
    if (given === undefined || given === '') return reply.fail('ERROR_INVALID_API_KEY', `the ${headerNames} header is missing`);
    const d = digest(Array.isArray(given) ? given[0] : given);
    let matched = -1;
    for (let i = 0; i < accepted.length; i++) if (timingSafeEqual(accepted[i], d)) matched = i;
    if (matched < 0) return reply.fail('ERROR_INVALID_API_KEY', `the ${headerNames} header does not hold a valid key`);
    req.apiKeyOwner = owners[matched];
  };

  app.addHook('onRoute', (route) => {
    if (!guardedPaths.has(route.url ?? route.path)) return;
    const own = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
    route.onRequest = [requireKey, ...own];
  });
});
