/**
 * Test-only: a whole engine process, started the way `npm run engine` starts it (server.ts, signal
 * handling included), plus test effects, which the environment alone cannot register:
 * ATELIER_TEST_EFFECTS is JSON mapping endpoint slugs to effect names under engine/test/effects.
 * ATELIER_TEST_PRELOAD: JSON list of modules imported first, in this thread alone (a bench's probes; node's
 * own --import would load them into every worker thread too).
 */
import { startEngine } from '../server.ts';
import { configFromEnv } from '../config.ts';

for (const m of JSON.parse(process.env.ATELIER_TEST_PRELOAD ?? '[]') as string[]) await import(m);
const named = JSON.parse(process.env.ATELIER_TEST_EFFECTS ?? '{}') as Record<string, string>;
const extraEffects = Object.fromEntries(Object.entries(named).map(([slug, name]) => [slug, new URL(`./effects/${name}.ts`, import.meta.url).href]));
await startEngine({ ...configFromEnv(), extraEffects }, { log: false });
