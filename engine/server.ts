/**
 * `npm run engine`: the engine alone on ATELIER_ENGINE_PORT (default 8787). Prints the key it made on
 * first start. SIGTERM/SIGINT: drain (app.drain: 503 to new requests while in-flight work finishes, at
 * most ATELIER_DRAIN_TIMEOUT_MS), then exit; queued tasks stay queued.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { configFromEnv, type EngineConfig } from './config.ts';
import { lockDataDir, privateFile } from './data-dir.ts';
import { resolveApiKeys } from './plugins/auth.ts';

export async function startEngine(config: EngineConfig = configFromEnv(), opts: { log?: boolean } = {}) {
  // The data folder is ours before the key file is read or made; a second engine stops here.
  const lock = lockDataDir(config.dataDir);
  let app: FastifyInstance;
  let keyInfo: ReturnType<typeof resolveApiKeys>;
  try {
    keyInfo = resolveApiKeys(config.apiKeys, config.dataDir);
    if (keyInfo.keyFile) privateFile(keyInfo.keyFile); // a key file made 0644 elsewhere (or by hand) is put right
    app = await buildApp(config, keyInfo.keys, opts.log === false ? false : { level: config.logLevel }, { lock });
  } catch (err) {
    lock.release();
    throw err;
  }
  const { keys, keyFile, created } = keyInfo;
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: answering 503 to new requests while in-flight work finishes (at most ${config.drainTimeoutMs / 1000} s; ` +
      'the same signal again stops at once); queued tasks stay queued');
    try {
      await app.drain(config.drainTimeoutMs);
      process.exit(0);
    } catch (err) {
      console.error('The engine did not stop cleanly:', err instanceof Error ? err.message : err);
      process.exit(1);
    }
  };
  const onSignal = (signal: NodeJS.Signals) => void stop(signal);
  // An engine closed by its host (tests, an embedding script) leaves no handlers behind.
  app.addHook('onClose', async () => { process.off('SIGTERM', onSignal); process.off('SIGINT', onSignal); });
  let address: string;
  try {
    address = await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await app.close(); // stops the workers and gives the folder back
    throw err;
  }
  if (keyFile) {
    console.log(created ? `Created an API key in ${keyFile}:` : `API key (from ${keyFile}):`);
    console.log(`  service-api-key: ${keys[0]}`);
  }
  console.log(`Atelier engine listening on ${address} (docs at ${address}/docs)`);
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  return { app, address, key: keys[0], keyFile };
}

const isMain = import.meta.url === new URL(process.argv[1] ?? '', 'file://').href || process.argv[1]?.endsWith('engine/server.ts');
if (isMain) {
  startEngine().catch((err) => {
    console.error('The engine could not start:', err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
