/**
 * One registry per worker thread: models load on first use and stay loaded. Passed to steps through
 * the Kit, never read from a module global, so tests and health checks see the same instances.
 */
import { catalog, type ModelId } from './catalog.ts';

import type { ModelOptions } from './options.ts';

export type { ModelOptions };

/** What a registry says about one of its models as it changes (the worker forwards it to /healthz). */
export type ModelEvent = { id: string; state: 'loading' | 'loaded' } | { id: string; state: 'failed'; message: string };

/** A model that could not be loaded; the message says which and why. */
export class ModelLoadError extends Error {
  constructor(readonly id: string, readonly reason: string) { super(`model ${id} could not be loaded: ${reason}`); }
}

export class ModelRegistry {
  constructor(readonly options: ModelOptions = { threads: 1 }, private readonly onEvent: (e: ModelEvent) => void = () => {}) {}

  private readonly loading = new Map<string, Promise<unknown>>();
  private readonly loaded = new Set<string>();

  /**
   * Loads (once) and returns the model. A failed load is forgotten, so the next call tries again (a
   * missing file stays missing, but memory pressure passes); until then the failure is what was reported.
   */
  get<T = unknown>(id: ModelId): Promise<T> {
    let p = this.loading.get(id);
    if (!p) {
      const entry = catalog[id];
      if (!entry) return Promise.reject(new ModelLoadError(id, 'it is not in the catalog'));
      this.onEvent({ id, state: 'loading' });
      p = entry.load(this.options).then(
        (m) => { this.loaded.add(id); this.onEvent({ id, state: 'loaded' }); return m; },
        (err: unknown) => {
          this.loading.delete(id);
          const reason = err instanceof Error ? err.message : String(err);
          this.onEvent({ id, state: 'failed', message: reason });
          throw new ModelLoadError(id, reason);
        },
      );
      this.loading.set(id, p);
    }
    return p as Promise<T>;
  }

  isLoaded(id: string): boolean { return this.loaded.has(id); }
  loadedIds(): string[] { return [...this.loaded]; }
}
