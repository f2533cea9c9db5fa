/**
 * The identity of a network converted in memory from a tfjs graph (RVM, FaceRes, BiSeNet): what the
 * model host keys its optimised copy by (engine/workers/optimized-models.ts), found without converting.
 * The converted bytes follow from the graph's files and from the converters' code, so the identity hashes
 * both: the model.json and every weight shard it lists, and every module of this folder (a change to any
 * converter, or to what it imports, misses and saves anew; a change elsewhere here costs one more save).
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const convertersDir = path.dirname(fileURLToPath(import.meta.url));

let convertersHash: Promise<string> | undefined;

/** One hash of this folder's modules (tests aside), read once per process. */
export function convertersIdentity(): Promise<string> {
  convertersHash ??= (async () => {
    const names = (await readdir(convertersDir)).filter((n) => /\.[cm]?[jt]s$/.test(n) && !/\.test\.[cm]?[jt]s$/.test(n)).sort();
    const hash = createHash('sha256');
    for (const name of names) hash.update(name).update('\0').update(await readFile(path.join(convertersDir, name))).update('\0');
    return hash.digest('hex');
  })();
  convertersHash.catch(() => { convertersHash = undefined; });
  return convertersHash;
}

/**
 * `label` names the conversion (a network and, for a family, its variant: `bisenet@512`); `modelJson` is
 * the tfjs graph's model.json.
 */
export async function convertedIdentity(label: string, modelJson: string, converters = convertersIdentity): Promise<string> {
  const json = await readFile(modelJson);
  const manifest = (JSON.parse(json.toString('utf8')) as { weightsManifest?: { paths: string[] }[] }).weightsManifest ?? [];
  const hash = createHash('sha256').update(json);
  for (const group of manifest) for (const p of group.paths) hash.update(p).update('\0').update(await readFile(path.join(path.dirname(modelJson), p)));
  return `${label} graph ${hash.digest('hex')} converters ${await converters()}`;
}
