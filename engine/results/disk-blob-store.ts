/**
 * The embedded blob store: one folder on the data folder's disk, a blob per file, its key the path under the
 * folder ("name" or "group/name"). Keys are checked against the store's pattern before any file access, so
 * no path can escape the folder. A blob is written to a hidden temporary file and renamed into place, so a
 * reader never sees half of one and a failed write (a full disk) leaves nothing; `durable` stores fsync it
 * first, so a blob they acknowledged survives a power cut (task inputs: an accepted task must not be lost).
 * Folders 0700, files 0600 (data-dir.ts).
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_FILE, privateDir } from '../data-dir.ts';
import type { BlobStore, OpenedBlob } from './blob-store.ts';

export class DiskBlobStore implements BlobStore {
  constructor(readonly dir: string, private readonly keys: RegExp, private readonly opts: { durable: boolean }) {}

  /** Makes the folder (0700, put right if an older engine left it open). */
  init() { privateDir(this.dir); }

  pathOf(key: string): string | undefined {
    return this.keys.test(key) ? path.join(this.dir, key) : undefined;
  }

  async save(key: string, bytes: Uint8Array): Promise<void> {
    const { file, tmp } = this.target(key);
    try {
      const handle = await fsp.open(tmp, 'w', PRIVATE_FILE);
      try {
        await handle.writeFile(bytes); // all of it: one write(2) may write less near a full disk
        if (this.opts.durable) await handle.sync();
      } finally {
        await handle.close();
      }
      await fsp.rename(tmp, file);
    } catch (err) {
      await fsp.rm(tmp, { force: true }).catch(() => {}); // a partial file, as a full disk leaves it
      throw err;
    }
  }

  /** `save`, at once: for the embedded task store, whose row and inputs are written in one synchronous step. */
  saveSync(key: string, bytes: Uint8Array) {
    const { file, tmp } = this.target(key);
    try {
      const fd = fs.openSync(tmp, 'w', PRIVATE_FILE);
      try {
        fs.writeFileSync(fd, bytes);
        if (this.opts.durable) fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(tmp, file);
    } catch (err) {
      fs.rmSync(tmp, { force: true });
      throw err;
    }
  }

  async open(key: string): Promise<OpenedBlob | undefined> {
    const file = this.pathOf(key);
    if (!file) return undefined;
    // Opened first, then measured: a blob deleted in between is still read whole, or not found at all.
    const handle = await fsp.open(file, 'r').catch(() => undefined);
    if (!handle) return undefined;
    const st = await handle.stat().catch(() => undefined);
    if (!st?.isFile()) {
      await handle.close();
      return undefined;
    }
    return { stream: handle.createReadStream(), size: st.size, savedAt: st.mtimeMs };
  }

  async delete(key: string): Promise<void> {
    const file = this.pathOf(key);
    if (!file) return;
    await fsp.rm(file, { force: true }).catch(() => {});
    if (key.includes('/')) await fsp.rmdir(path.dirname(file)).catch(() => {}); // its group, once empty
  }

  /** Deletes every blob of a group ("group/…" keys), at once: the embedded task store drops a task's inputs so. */
  deleteGroupSync(group: string) {
    if (/^[\w-]+$/.test(group)) fs.rmSync(path.join(this.dir, group), { recursive: true, force: true });
  }

  async expire(maxAgeMs: number, now = Date.now()): Promise<number> {
    return this.expireIn(this.dir, maxAgeMs, now);
  }

  /** Files (temporary ones too: what a crash left) older than the age go; a group emptied so goes with them. */
  private async expireIn(dir: string, maxAgeMs: number, now: number): Promise<number> {
    let removed = 0;
    for (const name of await fsp.readdir(dir).catch(() => [] as string[])) {
      const file = path.join(dir, name);
      const st = await fsp.stat(file).catch(() => undefined);
      if (!st) continue;
      if (st.isDirectory() && dir === this.dir) {
        const n = await this.expireIn(file, maxAgeMs, now);
        if (n) await fsp.rmdir(file).catch(() => {});
        removed += n;
      } else if (st.isFile() && now - st.mtimeMs > maxAgeMs) {
        await fsp.rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }

  private target(key: string) {
    const file = this.pathOf(key);
    if (!file) throw new Error(`${key} is not a key of the blob store in ${this.dir}`);
    if (key.includes('/')) privateDir(path.dirname(file));
    return { file, tmp: path.join(path.dirname(file), `.${path.basename(file)}.tmp`) };
  }
}
