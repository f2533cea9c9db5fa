/**
 * Optimised models kept in the data folder. Opening ISNet from its bytes means reading 177 MB and
 * having onnxruntime optimise the graph (fusions, layout changes) before the first run. onnxruntime can
 * save the graph it optimised; opened from that file the session skips the reading of our bytes and most
 * of the optimising, holds about a third of the memory (ISNet: the engine's RSS with it open 442 MB
 * against 866 MB) and gives the same outputs
 * (docs/experiments/vision-core.md#optimised-models-kept-in-the-data-folder).
 *
 * The copy is saved by a child process (save-optimized-model.mjs) that opens the network once and
 * exits: opened from its bytes in the engine, the session's memory would stay with the engine's heap
 * after it closed. The saved graph may use kernels of this CPU and this onnxruntime, so its name carries
 * a hash of the model's identity, the onnxruntime version, the session options and the CPU: any change
 * misses and saves anew, and the older files of that network are deleted. A save goes to a temporary name
 * renamed into place, so a crash leaves no half file under the real name; a file that fails to open is
 * deleted. Saving is best effort: when it fails the network opens from its bytes, as without a folder.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openLocalOnnx, sessionOptions } from '../vision/models/onnx.ts';

type OpenedNet = Awaited<ReturnType<typeof openLocalOnnx>>;

export interface OptimizedSource {
  /** The catalog id (`id@variant` for one of a family), safe as a file name's start. */
  id: string;
  /** Changes whenever the model's bytes would (CatalogEntry.onnxIdentity). */
  identity: string;
  /** Where the saving process finds the bytes: `catalog:<id>`, or `file:<path>` of an .onnx file. */
  origin: string;
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
  if (!(await exists(file))) {
    try {
      await saveOptimized(dir, source, file, threads);
    } catch (err) {
      console.error(`[models] could not keep an optimised ${source.id} in ${dir}: ${(err as Error).message}`);
      return openLocalOnnx(await source.bytes(), threads);
    }
  }
  try {
    return await openLocalOnnx(file, threads);
  } catch (err) {
    console.error(`[models] ${path.basename(file)} did not open (${(err as Error).message}); opening ${source.id} from its weights`);
    await fs.rm(file, { force: true }).catch(() => {});
    return openLocalOnnx(await source.bytes(), threads);
  }
}

const saver = fileURLToPath(new URL('./save-optimized-model.mjs', import.meta.url));

async function saveOptimized(dir: string, source: OptimizedSource, file: string, threads: number) {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const temporary = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}`);
  try {
    await promisify(execFile)(process.execPath, [saver, source.origin, temporary, String(threads), String(KEEP_FREE_BYTES)], {
      timeout: SAVE_TIMEOUT_MS, maxBuffer: 1 << 20,
    });
    await fs.chmod(temporary, 0o600);
    await fs.rename(temporary, file);
  } catch (err) {
    await fs.rm(temporary, { force: true }).catch(() => {});
    const stderr = (err as { stderr?: string }).stderr?.trim().split('\n').filter((l) => !l.includes('W:onnxruntime')).at(-1);
    throw stderr ? new Error(stderr) : err;
  }
  await removeOthers(dir, source.id, file);
}

/** What a save must leave free on the disk, beyond the copy itself: the disk also holds tasks and results. */
const KEEP_FREE_BYTES = 512 * 1024 * 1024;
/** ISNet saves in about 4 s on 2 quiet cores. */
const SAVE_TIMEOUT_MS = 5 * 60_000;
/** A temporary file older than this was left by a crash. */
const ABANDONED_SAVE_MS = 2 * SAVE_TIMEOUT_MS;

async function exists(file: string) {
  return fs.access(file).then(() => true, () => false);
}

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
