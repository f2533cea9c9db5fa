/** The effect registry against the contract: a missing module or a misnamed folder must not become a silent 501. */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { endpointBySlug, endpointList } from '../../contract/index.ts';
import { effectModuleOf, effectModules } from './registry.ts';
import type { Effect } from '../pipeline/effect.ts';

describe('effect registry', () => {
  it('has an effect module for every contract endpoint that runs one, declaring its own slug', async () => {
    for (const endpoint of endpointList.filter((e) => e.mode !== 'query')) {
      const href = effectModuleOf(endpoint.slug);
      expect(fs.existsSync(fileURLToPath(href)), `${endpoint.slug} has no ${fileURLToPath(href)}`).toBe(true);
      expect(effectModules[endpoint.slug], endpoint.slug).toBe(href);
      const effect = (await import(href)).default as Effect;
      expect(effect.slug, href).toBe(endpoint.slug);
    }
  });

  it('has no effect folder that is not a contract endpoint', () => {
    const dir = new URL('./', import.meta.url);
    const folders = fs.readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory() && fs.existsSync(new URL(`./${d.name}/effect.ts`, dir)));
    for (const f of folders) expect(endpointBySlug(f.name)?.mode, `engine/effects/${f.name}`).toMatch(/^(sync|async)$/);
  });
});
