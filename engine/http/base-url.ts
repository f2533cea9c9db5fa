/** The origin the client used: forwarded headers first (reverse proxies, the studio's proxy), then Host. */
import type { FastifyRequest } from 'fastify';

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.split(',')[0].trim();

export function baseUrl(req: FastifyRequest): string {
  const proto = first(req.headers['x-forwarded-proto']) || req.protocol || 'http';
  const host = first(req.headers['x-forwarded-host']) || req.headers.host || 'localhost';
  // Only a scheme and a host[:port] may come from headers; anything else falls back to the socket's view.
  const safeProto = /^https?$/.test(proto) ? proto : 'http';
  const safeHost = /^[a-z0-9.\-[\]:]+$/i.test(host) ? host : 'localhost';
  return `${safeProto}://${safeHost}`;
}
