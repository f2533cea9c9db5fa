/**
 * `npm run engine`: the engine alone on ATELIER_ENGINE_PORT (default 8787). Prints the key it made on
 * first start. SIGTERM/SIGINT: stop accepting, finish in-flight requests, keep queued tasks.
 */
import { buildApp } from './app.ts';
import { configFromEnv, type EngineConfig } from './config.ts';
import { resolveApiKeys } from './plugins/auth.ts';

export async function startEngine(config: EngineConfig = configFromEnv(), opts: { log?: boolean } = {}) {
  const { keys, keyFile, created } = resolveApiKeys(config.apiKeys, config.dataDir);
  const app = await buildApp(config, keys, opts.log === false ? false : { level: config.logLevel });
  const address = await app.listen({ port: config.port, host: config.host });
  if (keyFile) {
    console.log(created ? `Created an API key in ${keyFile}:` : `API key (from ${keyFile}):`);
    console.log(`  service-api-key: ${keys[0]}`);
  }
  console.log(`Atelier engine listening on ${address} (docs at ${address}/docs)`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing in-flight requests; queued tasks stay queued`);
    await app.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  return { app, address, key: keys[0], keyFile };
}

const isMain = import.meta.url === new URL(process.argv[1] ?? '', 'file://').href || process.argv[1]?.endsWith('engine/server.ts');
if (isMain) {
  startEngine().catch((err) => {
    console.error('The engine could not start:', err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
