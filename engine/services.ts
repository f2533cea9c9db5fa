/** The services the app builds and its routes share (their own file, so routes do not import the app that registers them). */
import type { Endpoint } from '../contract/endpoint.ts';
import type { EngineConfig } from './config.ts';
import type { BaseUrlOf } from './http/base-url.ts';
import type { ResultStore } from './results/store.ts';
import type { StorageMonitor } from './storage.ts';
import type { TaskBackend } from './tasks/backend.ts';
import type { TaskQueue } from './tasks/queue.ts';
import type { WorkerPool } from './workers/pool.ts';

/** `Tasks`: routes see the interface; the app that built the services knows which backend it opened. */
export interface Services<Tasks extends TaskBackend = TaskBackend> {
  config: EngineConfig;
  /** The contract's endpoints and the config's extra ones. */
  endpoints: readonly Endpoint[];
  /** Endpoint slug → effect module, for the endpoints this engine provides. */
  effects: Record<string, string>;
  pool: WorkerPool;
  tasks: Tasks;
  queue: TaskQueue;
  results: ResultStore;
  storage: StorageMonitor;
  closing: boolean;
  baseUrl: BaseUrlOf;
  /** Which backends this engine uses, and whether the services they rely on answer (for /healthz). */
  backend: { kind: 'embedded' | 'cluster'; reachable(): Promise<Record<string, boolean>> };
}
