/**
 * The origin result URLs are built on. A client must not choose it (a Host or X-Forwarded-Host of its own
 * would make the engine hand out links to another site), so, in order:
 *   1. ATELIER_PUBLIC_URL, when set: every URL is on it;
 *   2. from a peer listed in ATELIER_TRUST_PROXY (addresses, CIDRs or `loopback`), its X-Forwarded-Proto and
 *      X-Forwarded-Host (then Host): a reverse proxy in front of the engine, or the studio's own proxy;
 *   3. otherwise the address the client actually connected to, which it cannot forge.
 */
import type { FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import { compile } from '@fastify/proxy-addr';

export interface BaseUrlOptions { publicUrl?: string; trustProxy: string[] }
export type BaseUrlOf = (req: FastifyRequest) => string;

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.split(',')[0].trim();
const isHost = (h: string) => /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i.test(h);

/** Throws on a public URL that is not a plain http(s) origin, so a typo fails at start, not in every answer. */
export function normalisePublicUrl(url: string): string {
  let u: URL;
  try { u = new URL(url); } catch { throw new Error(`ATELIER_PUBLIC_URL is not a URL: ${url}`); }
  if (!/^https?:$/.test(u.protocol)) throw new Error(`ATELIER_PUBLIC_URL must be http or https, got ${u.protocol}`);
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
}

export function baseUrlResolver({ publicUrl, trustProxy }: BaseUrlOptions): BaseUrlOf {
  if (publicUrl) {
    const fixed = normalisePublicUrl(publicUrl);
    return () => fixed;
  }
  const trusted = trustProxy.length ? compile(trustProxy) : undefined;
  return (req) => {
    const socket = req.raw.socket as Socket & { encrypted?: boolean };
    const own = socket.encrypted ? 'https' : 'http';
    if (trusted && socket.remoteAddress && trusted(socket.remoteAddress, 0)) {
      const proto = first(req.headers['x-forwarded-proto']) ?? own;
      const host = first(req.headers['x-forwarded-host']) ?? req.headers.host ?? '';
      if (/^https?$/.test(proto) && isHost(host)) return `${proto}://${host}`;
    }
    // An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d.
    const local = (socket.localAddress ?? '127.0.0.1').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
    return `${own}://${local.includes(':') ? `[${local}]` : local}:${socket.localPort}`;
  };
}
