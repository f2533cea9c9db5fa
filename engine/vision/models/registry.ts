/**
 * One registry per worker thread: models load on first use and stay loaded. Passed to steps through
 * the Kit, never read from a module global, so tests and health checks see the same instances.
 */
import { catalog, type ModelId } from './catalog.ts';

import type { ModelOptions } from './options.ts';

export type { ModelOptions };

export class ModelRegistry {
  constructor(readonly options: ModelOptions = { threads: 1 }) {}

  private readonly loading = new Map<string, Promise<unknown>>();
  private readonly loaded = new Set<string>();

  /** Loads (once) and returns the model. */
  get<T = unknown>(id: ModelId): Promise<T> {
    let p = this.loading.get(id);
    if (!p) {
      const entry = catalog[id];
      if (!entry) throw new Error(`unknown model ${id}`);
      p = entry.load(this.options).then((m) => { this.loaded.add(id); return m; });
      p.catch(() => this.loading.delete(id));
      this.loading.set(id, p);
    }
    return p as Promise<T>;
  }

  isLoaded(id: string): boolean { return this.loaded.has(id); }
  loadedIds(): string[] { return [...this.loaded]; }
}
