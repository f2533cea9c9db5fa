/**
 * `npm run engine`: the engine alone on ATELIER_ENGINE_PORT (default 8787). Prints the key it made on
 * first start. SIGTERM/SIGINT: drain (app.drain: 503 to new requests while in-flight work finishes, at
 * most ATELIER_DRAIN_TIMEOUT_MS), then exit 0; queued tasks stay queued.
 *
 * One stop often arrives as several signals: Ctrl-C in a terminal, `kill -- -PGID` and systemd's default
 * KillMode signal the whole process group, and npm relays the signal it gets to the process it runs, so
 * this process may receive the group's signal plus a relayed copy within milliseconds. The rule
 * (exitOnStopSignals): the first SIGTERM or SIGINT starts the drain; further ones within
 * STOP_SIGNAL_REPEAT_MS (1 s) of it are that same stop and are ignored; one that comes later (a person
 * pressing Ctrl-C again) stops at once, exit status 128 + the signal's number.
 *
 * The npm scripts run TypeScript with `node --import tsx`, one process: the tsx command instead runs a
 * second node process under a relaying parent that kills it (SIGKILL) when it does not acknowledge a
 * relayed signal within 30 ms, which a busy engine on a loaded machine does not always do.
 * Not covered: tsx compiles TypeScript through an esbuild service process, which is in the same group and
 * dies with the group's signal; a module that this process first loads after that (an effect's first run
 * in a worker, if the signal comes while its module is loading, with tsx's compile cache cold) fails.
 */
import { constants } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { configFromEnv, type EngineConfig } from './config.ts';
import { lockDataDir, privateFile } from './data-dir.ts';
import { resolveApiKeys } from './plugins/auth.ts';

/**
 * `opts.signals: false` leaves SIGTERM/SIGINT to the host, which then stops the engine with app.drain (the
 * studio does, to stop its own server around the drain).
 */
export async function startEngine(config: EngineConfig = configFromEnv(), opts: { log?: boolean; signals?: boolean } = {}) {
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
  let removeSignalHandlers = () => {};
  // An engine closed by its host (tests, an embedding script) leaves no handlers behind.
  app.addHook('onClose', async () => removeSignalHandlers());
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
  if (opts.signals !== false) {
    removeSignalHandlers = exitOnStopSignals(async (signal) => {
      console.log(`${signal}: ${drainingMessage(config)}`);
      await app.drain(config.drainTimeoutMs);
      return 0;
    });
  }
  return { app, address, key: keys[0], keyFile, config };
}

/** Repeats of a stop signal this soon after the first are the same stop, relayed (see the header). */
export const STOP_SIGNAL_REPEAT_MS = 1000;

export const drainingMessage = (config: EngineConfig) =>
  `answering 503 to new requests while in-flight work finishes (at most ${config.drainTimeoutMs / 1000} s; ` +
  `a stop signal again, more than ${STOP_SIGNAL_REPEAT_MS / 1000} s later, stops at once); queued tasks stay queued`;

/**
 * The stop rule of the header: the first SIGTERM/SIGINT runs `stop` and exits with the status it gives (1,
 * with the error, if it throws); repeats within STOP_SIGNAL_REPEAT_MS are ignored; a later one exits at
 * once with 128 + its number. Returns a function that removes the handlers.
 */
export function exitOnStopSignals(stop: (signal: NodeJS.Signals) => Promise<number>): () => void {
  let firstAt: number | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    const now = Date.now();
    if (firstAt === undefined) {
      firstAt = now;
      stop(signal).then((code) => process.exit(code), (err: unknown) => {
        console.error('Did not stop cleanly:', err instanceof Error ? err.message : err);
        process.exit(1);
      });
    } else if (now - firstAt >= STOP_SIGNAL_REPEAT_MS) {
      console.error(`${signal} again: stopping at once; work under way is cut off`);
      process.exit(128 + constants.signals[signal]);
    }
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return () => { process.off('SIGTERM', onSignal); process.off('SIGINT', onSignal); };
}

const isMain = import.meta.url === new URL(process.argv[1] ?? '', 'file://').href || process.argv[1]?.endsWith('engine/server.ts');
if (isMain) {
  startEngine().catch((err) => {
    console.error('The engine could not start:', err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
