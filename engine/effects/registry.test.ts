/** The effect registry against the contract: a typo in a slug must not become a silent 501. */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { endpointBySlug } from '../../contract/index.ts';
import { effectModules } from './registry.ts';
import type { Effect } from '../pipeline/effect.ts';

describe('effect registry', () => {
  it('names only contract endpoints that run effects, each module present and declaring its own slug', async () => {
    for (const [slug, href] of Object.entries(effectModules)) {
      const endpoint = endpointBySlug(slug);
      expect(endpoint, `${slug} is not a contract endpoint`).toBeDefined();
      expect(endpoint!.mode, slug).not.toBe('query');
      expect(fs.existsSync(fileURLToPath(href)), `${slug}: ${href}`).toBe(true);
      const effect = (await import(href)).default as Effect;
      expect(effect.slug, href).toBe(slug);
    }
  });
});
