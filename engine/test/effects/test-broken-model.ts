/**
 * A test-only effect, registered by the tests themselves, whose model cannot load: importing it adds a
 * catalog entry (in the worker that imports it, which is where models load) whose loader throws, as a
 * corrupt or unreadable weights file would.
 */
import { catalog } from '../../vision/models/catalog.ts';
import { defineEffect } from '../../pipeline/effect.ts';

export const BROKEN_MODEL = 'test-broken';

catalog[BROKEN_MODEL] = {
  id: BROKEN_MODEL,
  description: 'a model whose weights do not parse',
  check: async () => undefined,
  load: async () => { throw new Error('protobuf parsing failed'); },
};

export default defineEffect({
  slug: 'test-broken-model',
  models: [BROKEN_MODEL],
  steps: [(c) => { c.output.images.result = { data: Buffer.from('never reached'), format: 'png' }; }],
});
