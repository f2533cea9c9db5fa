/**
 * Optimised models kept in the data folder. Opening ISNet from its bytes means reading 177 MB and
 * having onnxruntime optimise the graph (fusions, layout changes) before the first run: about 2.6 s of a
 * product cutout's first request. onnxruntime can save the graph it optimised; opened from that file the
 * session skips the reading of our bytes and most of the optimising, with the same outputs
 * (docs/experiments/vision-core.md#optimised-models-kept-in-the-data-folder).
 *
 * The saved graph may use kernels of this CPU and this onnxruntime, so its name carries a hash of the
 * model's identity, the onnxruntime version, the session options and the CPU: any change misses and
 * saves anew, and the older files of that network are deleted. A save goes to a temporary name renamed
 * into place, so a crash leaves no half file under the real name; a file that fails to open is deleted and
 * the network opened from its bytes. Saving is best effort: a full disk only costs the next start its speed.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openLocalOnnx, sessionOptions } from '../vision/models/onnx.ts';

type OpenedNet = Awaited<ReturnType<typeof openLocalOnnx>>;

export interface OptimizedSource {
  /** The catalog id, safe as a file name's start. */
  id: string;
  /** Changes whenever `bytes` would answer other bytes (CatalogEntry.onnxIdentity). */
  identity: string;
  bytes: () => Promise<Uint8Array>;
}

/** The file an optimised copy of `source` is kept in, under `dir`. */
export function optimizedModelFile(dir: string, source: OptimizedSource, threads: number): string {
  const ortVersion = (createRequire(import.meta.url)('onnxruntime-node/package.json') as { version: string }).version;
  const key = createHash('sha256')
    .update(JSON.stringify([source.identity, ortVersion, sessionOptions(threads), os.cpus()[0]?.model ?? '', process.arch]))
    .digest('hex').slice(0, 16);
  return path.join(dir, `${source.id}.${key}.onnx`);
}

/** Opens the network from its optimised copy in `dir`, saving one first if there is none. */
export async function openOptimized(dir: string, source: OptimizedSource, threads: number): Promise<OpenedNet> {
  const file = optimizedModelFile(dir, source, threads);
  if (await exists(file)) {
    try {
      return await openLocalOnnx(file, threads);
    } catch (err) {
      console.error(`[models] ${path.basename(file)} did not open (${(err as Error).message}); opening ${source.id} from its weights`);
      await fs.rm(file, { force: true });
    }
  }
  const bytes = await source.bytes();
  const temporary = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}`);
  let net: OpenedNet;
  try {
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    net = await openLocalOnnx(bytes, threads, temporary);
  } catch {
    // Could not save (no room, no folder): open as before, without a copy.
    await fs.rm(temporary, { force: true }).catch(() => {});
    return openLocalOnnx(bytes, threads);
  }
  try {
    await fs.chmod(temporary, 0o600);
    await fs.rename(temporary, file);
    await removeOthers(dir, source.id, file);
  } catch (err) {
    await fs.rm(temporary, { force: true }).catch(() => {});
    console.error(`[models] could not keep the optimised ${source.id}: ${(err as Error).message}`);
  }
  return net;
}

async function exists(file: string) {
  return fs.access(file).then(() => true, () => false);
}

/** A save under way takes seconds; a temporary file older than this was left by a crash. */
const ABANDONED_SAVE_MS = 10 * 60_000;

/** Deletes the network's copies saved under other keys, and temporary files a crashed save left. */
async function removeOthers(dir: string, id: string, keep: string) {
  for (const name of await fs.readdir(dir)) {
    const file = path.join(dir, name);
    if (name.startsWith(`${id}.`) && file !== keep) await fs.rm(file, { force: true });
    if (name.startsWith(`.${id}.`)) {
      const age = await fs.stat(file).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (age > ABANDONED_SAVE_MS) await fs.rm(file, { force: true });
    }
  }
}
