/**
 * Test-only: the studio as `npm start` runs it (scripts/dev/studio-server.ts: vite preview and the embedded
 * engine in one process, signal handling included), plus test effects on the engine: ATELIER_TEST_EFFECTS
 * is JSON mapping endpoint slugs to effect names under engine/test/effects, as for
 * engine/test/engine-process.ts. Started by engine/test/faults/group-stop.test.ts.
 */
import { startStudio } from './studio-server.ts';

const named = JSON.parse(process.env.ATELIER_TEST_EFFECTS ?? '{}') as Record<string, string>;
const extraEffects = Object.fromEntries(Object.entries(named).map(([slug, name]) => [slug, new URL(`../../engine/test/effects/${name}.ts`, import.meta.url).href]));
await startStudio('preview', { extraEffects });
