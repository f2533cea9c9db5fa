/**
 * Fingerprints of every effect's outputs for a fixed set of inputs: the check that a change meant to keep
 * behaviour (a refactor) kept it. Each effect runs in this process (the code a worker runs) on the test
 * fixtures with the soak's first two parameter sets; each output image and the JSON data are hashed.
 *
 *   npx tsx scripts/check/golden-outputs.ts --write FILE    record the fingerprints
 *   npx tsx scripts/check/golden-outputs.ts --check FILE    compare with a record: lists every difference, exit 1 if any
 *
 * Failures (no face found, ...) are recorded by their code and message, so they must stay the same too.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { endpointList } from '../../contract/index.ts';
import { validateFields } from '../../contract/validate.ts';
import { decodeImage, type Effect, effectModules, ModelRegistry, runEffect } from '../../engine/for-scripts.ts';
import { paramsFor } from '../bench/soak-plan.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values: opts } = parseArgs({ options: { write: { type: 'string' }, check: { type: 'string' }, only: { type: 'string' } } });
if (!opts.write === !opts.check) {
  console.error('usage: golden-outputs.ts --write FILE | --check FILE [--only slug,slug]');
  process.exit(2);
}

const photos: { name: string; format: 'jpeg' | 'png' }[] = [
  { name: 'obama_official_portrait.jpg', format: 'jpeg' },
  { name: 'biden_obama_laughing_heads.jpg', format: 'jpeg' },
  { name: 'astronaut_eileen_collins.png', format: 'png' },
  { name: 'product_coffee_cup.png', format: 'png' },
];
const sha = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex').slice(0, 16);
const models = new ModelRegistry({ threads: 2 });
const only = opts.only?.split(',');
const prints: Record<string, string> = {};

for (const endpoint of endpointList) {
  if (only && !only.includes(endpoint.slug)) continue;
  const href = effectModules[endpoint.slug];
  if (!href) continue;
  const effect = (await import(href)).default as Effect;
  for (const photo of photos) {
    const bytes = readFileSync(path.join(root, 'engine/test/fixtures', photo.name));
    for (const variant of [0, 1]) {
      const params = validateFields(endpoint, paramsFor(endpoint, variant), new Set(['image']));
      const key = `${endpoint.slug} ${photo.name} #${variant}`;
      try {
        const image = await decodeImage(bytes, photo.format, 50e6);
        const out = await runEffect(effect, { image, params }, { models, signal: new AbortController().signal });
        const parts = Object.entries(out.images).sort(([a], [b]) => a.localeCompare(b)).map(([name, img]) => `${name}=${sha(img.data)}`);
        if (out.data !== undefined) parts.push(`data=${sha(JSON.stringify(out.data))}`);
        prints[key] = parts.join(' ');
      } catch (err) {
        const e = err as Error & { code?: string };
        prints[key] = `error ${e.code ?? e.name}: ${e.message}`;
      }
      console.log(`${key}: ${prints[key]}`);
    }
  }
}

if (opts.write) {
  writeFileSync(opts.write, JSON.stringify(prints, null, 1) + '\n');
  console.log(`${Object.keys(prints).length} fingerprints written to ${opts.write}`);
  process.exit(0);
}
const record = JSON.parse(readFileSync(opts.check!, 'utf8')) as Record<string, string>;
const keys = new Set([...Object.keys(record).filter((k) => !only || only.includes(k.split(' ')[0])), ...Object.keys(prints)]);
const differ = [...keys].filter((k) => record[k] !== prints[k]);
for (const k of differ) console.log(`DIFFERS ${k}\n  recorded: ${record[k] ?? '(none)'}\n  now:      ${prints[k] ?? '(none)'}`);
console.log(differ.length ? `${differ.length} of ${keys.size} differ` : `all ${keys.size} the same`);
process.exit(differ.length ? 1 : 0);
