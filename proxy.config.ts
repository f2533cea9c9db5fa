/**
 * The studio's dev/preview proxy: /api, /results, /healthz, /docs and /openapi.json go to the engine, and the
 * proxy adds the `service-api-key` header so the browser never holds the key. Runs in Node only (vite.config.ts
 * imports it); nothing under src/ may import this file.
 *
 * Lending the key to whoever reaches the proxy would let any web page the user opens run effects with it (a
 * form or fetch posting to http://127.0.0.1:4173/api/...), so requests from other sites' pages are refused
 * before the key is added (crossSiteRefusal): those whose Sec-Fetch-Site is not same-origin or none, and those
 * whose Origin is not the address the studio was reached on (its Host). Browsers send Sec-Fetch-Site on every
 * request and Origin on every cross-origin POST, so a page elsewhere is caught by one or both; the studio's own
 * requests (same-origin, relative URLs) and clients that are not browsers (curl, the SDKs: neither header) pass.
 * A DNS-rebound name (evil.example resolving to this machine, which makes the attacker's page same-origin) is
 * stopped before the proxy by Vite's Host check (server/preview `allowedHosts`: localhost, IP addresses and the
 * configured host), which must stay on; vite.config.ts turns Vite's CORS off, which allowed any localhost origin.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { ProxyOptions } from 'vite';
import { errorCodes } from './contract/errors.ts';

export const proxiedPaths = ['/api', '/results', '/healthz', '/docs', '/openapi.json'] as const;

export type ProxyEnv = Partial<Record<'ATELIER_API_URL' | 'ATELIER_ENGINE_PORT' | 'ATELIER_API_KEY' | 'ATELIER_DATA_DIR', string>>;

export function engineTarget(env: ProxyEnv = process.env): string {
  return env.ATELIER_API_URL || `http://127.0.0.1:${env.ATELIER_ENGINE_PORT || 8787}`;
}

export function apiKeyFile(env: ProxyEnv = process.env, cwd = process.cwd()): string {
  return path.resolve(cwd, env.ATELIER_DATA_DIR || './data', 'api-key');
}

/**
 * The key to send: ATELIER_API_KEY, else the first line of the local engine's key file. Read on every request,
 * so the studio works when the engine starts (and writes its key) after Vite, or rotates it.
 */
export function readApiKey(env: ProxyEnv = process.env, cwd = process.cwd()): string | undefined {
  if (env.ATELIER_API_KEY) return env.ATELIER_API_KEY;
  try {
    const line = readFileSync(apiKeyFile(env, cwd), 'utf8').split(/\r?\n/, 1)[0].trim();
    return line || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why a request comes from another site's page, or undefined when it does not. The studio's origin is the
 * address it was reached on: a request's Origin names the same host and port as its Host (the scheme is not
 * compared: behind a TLS-terminating proxy the page is https and the studio plain http).
 */
export function crossSiteRefusal(headers: IncomingMessage['headers']): string | undefined {
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return `the browser says it comes from another site (Sec-Fetch-Site: ${site})`;
  const origin = headers.origin;
  if (origin === undefined) return undefined;
  let originHost: string | undefined;
  let ownHost: string | undefined;
  try {
    const u = new URL(origin);
    originHost = u.host;
    // The Host header in the Origin's scheme, so that a default port is dropped the same way on both sides.
    ownHost = headers.host ? new URL(`${u.protocol}//${headers.host}`).host : undefined;
  } catch {
    // Origin: null (a sandboxed frame, a file:// page) or a malformed header.
  }
  if (originHost === undefined || originHost !== ownHost) return `it comes from a page of another origin (Origin: ${origin})`;
  return undefined;
}

/** The engine's envelope for the refusal: 403, ERROR_INVALID_API_KEY (this request is not lent the key). */
function refuse(res: ServerResponse, why: string) {
  const code = 'ERROR_INVALID_API_KEY';
  const body = {
    request_id: randomUUID(),
    log_id: randomUUID().replace(/-/g, ''),
    error_detail: {
      code,
      code_message: errorCodes[code].summary,
      message: `the studio's proxy adds its API key only to the studio's own requests, and ${why}; call the engine with a key of your own instead`,
    },
  };
  res.writeHead(403, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/** One proxy entry per forwarded path; the same object serves `server.proxy` and `preview.proxy`. */
export function studioProxy(env: ProxyEnv = process.env, cwd = process.cwd()): Record<string, ProxyOptions> {
  const entry: ProxyOptions = {
    target: engineTarget(env),
    // Keep the browser's Host and add x-forwarded-* so the engine builds result URLs on the studio's origin.
    changeOrigin: false,
    xfwd: true,
    // Runs before the request is proxied: a refused one is answered here and never gets the key.
    bypass(req, res) {
      const why = crossSiteRefusal(req.headers);
      if (why === undefined || !res) return undefined;
      refuse(res, why);
      return req.url; // answered: Vite sees the response ended and stops there
    },
    configure(proxy) {
      // Set on the incoming request, from which the outgoing one is built. Not in 'proxyReq': the proxy
      // skips that event for requests with `Expect: 100-continue` (curl sends it for bodies over 1 MB),
      // so those reached the engine without the key and got 401.
      proxy.on('start', (req) => {
        const key = readApiKey(env, cwd);
        if (key) req.headers['service-api-key'] = key;
      });
    },
  };
  return Object.fromEntries(proxiedPaths.map((p) => [p, entry]));
}
