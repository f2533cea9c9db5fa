import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { catalog } from './catalog.ts';
import { convertedIdentity } from './converted-identity.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-identity-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A tfjs model.json listing two shards, with the shards' bytes as given. */
function graphFiles(shards: [string, string]): string {
  writeFileSync(path.join(dir, 'a.bin'), shards[0]);
  writeFileSync(path.join(dir, 'b.bin'), shards[1]);
  const json = path.join(dir, 'model.json');
  writeFileSync(json, JSON.stringify({ modelTopology: { node: [] }, weightsManifest: [{ paths: ['a.bin', 'b.bin'], weights: [] }] }));
  return json;
}

describe('the identity of a converted network', () => {
  const converters = async () => 'code v1';

  it('is the same for the same files and code, and changes with a weight shard, the code or the label', async () => {
    const json = graphFiles(['weights one', 'weights two']);
    const first = await convertedIdentity('net', json, converters);
    expect(await convertedIdentity('net', json, converters)).toBe(first);
    expect(await convertedIdentity('net@64', json, converters)).not.toBe(first);
    expect(await convertedIdentity('net', json, async () => 'code v2')).not.toBe(first);
    graphFiles(['weights one', 'weights tw0']);
    expect(await convertedIdentity('net', json, converters)).not.toBe(first);
  });

  it('is found for every network the catalog converts, one per variant', async () => {
    const rvm = await catalog['rvm-onnx'].onnxIdentity!();
    const faceres = await catalog['faceres-deep-onnx'].onnxIdentity!();
    const bisenet = catalog['bisenet-face-parsing'].onnxVariantIdentity!;
    const isnet = catalog['isnet-medium'].onnxVariantIdentity!;
    const all = [rvm, faceres, await bisenet('512'), await bisenet('384'), await isnet('640'), await isnet('768')];
    expect(new Set(all).size).toBe(all.length);
    expect(await bisenet('512')).toBe(all[2]);
  });
});
