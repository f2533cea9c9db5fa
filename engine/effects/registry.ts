/**
 * Endpoint slug → effect module: engine/effects/<slug>/effect.ts for each contract endpoint that runs an
 * effect, found by that convention, so adding an effect needs no line here. An endpoint without one answers
 * 501 ERROR_AI_NOT_AVAILABLE; the engine says so in its log at start, and registry.test.ts fails on it.
 * Paths are resolved inside the worker, which imports the module once and keeps it.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { endpointList } from '../../contract/index.ts';

/** Where the effect of `slug` lives by convention. */
export const effectModuleOf = (slug: string): string => new URL(`./${slug}/effect.ts`, import.meta.url).href;

export const effectModules: Record<string, string> = Object.fromEntries(endpointList
  .filter((e) => e.mode !== 'query' && fs.existsSync(fileURLToPath(effectModuleOf(e.slug))))
  .map((e) => [e.slug, effectModuleOf(e.slug)]));
