/**
 * Result files under the data folder, named by 128 random bits so their URLs are unguessable and need no
 * key. Names are checked against a strict pattern before any file access, so no path can escape the folder.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { EncodedImage } from '../image/raster.ts';
import { PRIVATE_FILE, privateDir } from '../data-dir.ts';

const NAME = /^[a-f0-9]{32}\.(png|jpg)$/;

export class ResultStore {
  readonly dir: string;
  constructor(dataDir: string) { this.dir = path.join(dataDir, 'results'); }

  async init() { privateDir(this.dir); }

  /** Writes the image and returns its file name (the last segment of its URL). */
  async save(img: EncodedImage): Promise<string> {
    const name = `${randomBytes(16).toString('hex')}.${img.format === 'jpeg' ? 'jpg' : 'png'}`;
    const tmp = path.join(this.dir, `.${name}.tmp`);
    try {
      await fs.writeFile(tmp, img.data, { mode: PRIVATE_FILE });
      await fs.rename(tmp, path.join(this.dir, name));
    } catch (err) {
      await fs.rm(tmp, { force: true }).catch(() => {}); // a partial file, as a full disk leaves it
      throw err;
    }
    return name;
  }

  /** Deletes a result (one saved for a task whose outcome could not be recorded). */
  async remove(name: string) {
    const file = this.pathOf(name);
    if (file) await fs.rm(file, { force: true }).catch(() => {});
  }

  /** The absolute file path for a name, or undefined when the name is not one of ours. */
  pathOf(name: string): string | undefined {
    return NAME.test(name) ? path.join(this.dir, name) : undefined;
  }

  /** Deletes results older than `maxAgeMs`; returns how many went. */
  async sweep(maxAgeMs: number, now = Date.now()): Promise<number> {
    let removed = 0;
    for (const name of await fs.readdir(this.dir)) {
      const file = path.join(this.dir, name);
      const st = await fs.stat(file).catch(() => undefined);
      if (st && now - st.mtimeMs > maxAgeMs) {
        await fs.rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }
}

/** The absolute URL of a result, on the host the client used (forwarded headers first, for proxies). */
export function resultUrl(base: string, name: string): string {
  return `${base}/results/${name}`;
}
