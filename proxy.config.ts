/**
 * The studio's dev/preview proxy: /api, /results, /healthz, /docs and /openapi.json go to the engine, and the
 * proxy adds the `service-api-key` header so the browser never holds the key. Runs in Node only (vite.config.ts
 * imports it); nothing under src/ may import this file.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ProxyOptions } from 'vite';

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

/** One proxy entry per forwarded path; the same object serves `server.proxy` and `preview.proxy`. */
export function studioProxy(env: ProxyEnv = process.env, cwd = process.cwd()): Record<string, ProxyOptions> {
  const entry: ProxyOptions = {
    target: engineTarget(env),
    // Keep the browser's Host and add x-forwarded-* so the engine builds result URLs on the studio's origin.
    changeOrigin: false,
    xfwd: true,
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
