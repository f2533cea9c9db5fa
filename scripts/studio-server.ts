/**
 * Starts the embedded engine (unless ATELIER_API_URL points at another server) and then the studio, in
 * one process. `npm start` serves the built studio (vite preview); `npm run dev` serves it with HMR.
 */
import { createServer, preview } from 'vite';
import { startEngine } from '../engine/server.ts';
import { configFromEnv } from '../engine/config.ts';

export async function startStudio(mode: 'preview' | 'dev') {
  if (process.env.ATELIER_API_URL) {
    console.log(`Using the engine at ${process.env.ATELIER_API_URL} (key from ATELIER_API_KEY)`);
  } else {
    const config = configFromEnv();
    // The studio's console is for people: only warnings from the engine unless asked for more.
    if (!process.env.ATELIER_LOG_LEVEL) config.logLevel = 'warn';
    // The studio's proxy is on this machine: its forwarded host puts result URLs on the studio's origin.
    if (config.trustProxy.length === 0) config.trustProxy = ['loopback'];
    await startEngine(config);
  }
  const port = process.env.ATELIER_STUDIO_PORT ? Number(process.env.ATELIER_STUDIO_PORT) : undefined;
  const host = process.env.ATELIER_STUDIO_HOST ?? '127.0.0.1';
  const server = mode === 'preview'
    ? await preview({ preview: { port, host } })
    : await (await createServer({ server: { port, host } })).listen();
  const url = server.resolvedUrls?.local[0] ?? `http://${host}:${port}`;
  console.log(`\n  Atelier studio: ${url}\n`);
}
