/**
 * Starts the embedded engine (unless ATELIER_API_URL points at another server) and then the studio, in
 * one process. `npm start` serves the built studio (vite preview); `npm run dev` serves it with HMR.
 *
 * SIGTERM/SIGINT (the rule of engine/server.ts: repeats within a second are the same stop, a later one
 * stops at once): the studio's server stops accepting connections, the engine drains (503 to new requests
 * while in-flight work finishes, at most ATELIER_DRAIN_TIMEOUT_MS), the studio's own requests under way
 * finish, and only then is Vite's server closed and the process exits 0. Vite's own SIGTERM handler (close
 * and exit at once, under the drain) is taken off.
 */
import type { Server } from 'node:http';
import { createServer, preview } from 'vite';
import { exitOnStopSignals, drainingMessage, startEngine } from '../../engine/server.ts';
import { configFromEnv, type EngineConfig } from '../../engine/config.ts';

/** `engine`: settings over the environment's for the embedded engine (the tests' extra effects). */
export async function startStudio(mode: 'preview' | 'dev', engine: Partial<EngineConfig> = {}) {
  const config = { ...configFromEnv(), ...engine };
  let embedded: Awaited<ReturnType<typeof startEngine>> | undefined;
  if (process.env.ATELIER_API_URL) {
    console.log(`Using the engine at ${process.env.ATELIER_API_URL} (key from ATELIER_API_KEY)`);
  } else {
    // The studio's console is for people: only warnings from the engine unless asked for more.
    if (!process.env.ATELIER_LOG_LEVEL) config.logLevel = 'warn';
    // The studio's proxy is on this machine: its forwarded host puts result URLs on the studio's origin.
    if (config.trustProxy.length === 0) config.trustProxy = ['loopback'];
    embedded = await startEngine(config, { signals: false });
  }
  const port = process.env.ATELIER_STUDIO_PORT ? Number(process.env.ATELIER_STUDIO_PORT) : undefined;
  const host = process.env.ATELIER_STUDIO_HOST ?? '127.0.0.1';
  const viteHandlers = process.listeners('SIGTERM');
  const server = mode === 'preview'
    ? await preview({ preview: { port, host } })
    : await (await createServer({ server: { port, host } })).listen();
  for (const h of process.listeners('SIGTERM')) if (!viteHandlers.includes(h)) process.off('SIGTERM', h);

  const httpServer = server.httpServer as Server;
  const studioRequests = inFlight(httpServer);
  exitOnStopSignals(async (signal) => {
    console.log(`${signal}: the studio takes no new connections; the engine is ${drainingMessage(config)}`);
    httpServer.close(); // stops accepting; requests under way go on
    const until = Date.now() + config.drainTimeoutMs;
    if (embedded) await embedded.app.drain(config.drainTimeoutMs);
    // The engine's answers still on their way through the proxy to the browser.
    await studioRequests.done(Math.max(1000, until - Date.now()));
    await server.close().catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ERR_SERVER_NOT_RUNNING') throw err; // closed above, as meant
    });
    return 0;
  });
  const url = server.resolvedUrls?.local[0] ?? `http://${host}:${port}`;
  console.log(`\n  Atelier studio: ${url}\n`);
}

/** Counts a server's requests until their answer is sent or cut; done(ms) waits for none left, at most ms. */
function inFlight(server: Server) {
  let active = 0;
  let wake = () => {};
  server.on('request', (_req, res) => {
    active++;
    res.once('close', () => { if (--active === 0) wake(); });
  });
  return {
    done: (ms: number) => new Promise<void>((resolve) => {
      if (active === 0) return resolve();
      const timer = setTimeout(resolve, ms);
      wake = () => { clearTimeout(timer); resolve(); };
    }),
  };
}
