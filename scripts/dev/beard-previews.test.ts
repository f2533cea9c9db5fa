/** The studio's beard previews are generated from the engine's presets: this fails when they drift apart. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { beardPreviewSource, PREVIEW_FILE } from './gen-beard-previews.ts';

describe('beard previews', () => {
  it('match the engine\'s presets (run `npx tsx scripts/dev/gen-beard-previews.ts` after changing them)', () => {
    expect(readFileSync(PREVIEW_FILE, 'utf8')).toBe(beardPreviewSource());
  });
});
