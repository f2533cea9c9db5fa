/** The saving process's work (see save-optimized-model.mjs and optimized-models.ts). */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { catalog } from '../vision/models/catalog.ts';
import { openLocalOnnx } from '../vision/models/onnx.ts';

export async function saveOptimizedModel(origin: string, out: string, threads: number, keepFree: number) {
  const bytes = await modelBytes(origin);
  const disk = await fs.statfs(path.dirname(out));
  if (disk.bavail * disk.bsize < 2 * bytes.length + keepFree) throw new Error(`no room for a ${(bytes.length / 2 ** 20).toFixed(0)} MB copy`);
  const net = await openLocalOnnx(bytes, threads, out);
  await net.release();
}

async function modelBytes(origin: string): Promise<Uint8Array> {
  const [kind, rest] = [origin.slice(0, origin.indexOf(':')), origin.slice(origin.indexOf(':') + 1)];
  if (kind === 'file') return fs.readFile(rest);
  // `catalog:<id>` or `catalog:<id>@<variant>` (one of a family the entry converts per variant).
  const [id, variant] = rest.split('@');
  const entry = kind === 'catalog' ? catalog[id] : undefined;
  const bytes = variant === undefined ? entry?.onnx : entry?.onnxVariant && (() => entry.onnxVariant!(variant));
  if (!bytes) throw new Error(`${origin} is not an ONNX network of the catalog or a file`);
  return bytes();
}
