/** Messages between the pool (HTTP side) and its worker threads. */
import type { MessagePort } from 'node:worker_threads';
import type { ImageFormat } from '../../contract/limits.ts';
import type { EffectOutput } from '../pipeline/effect.ts';
import type { ModelEvent } from '../vision/models/registry.ts';

export interface JobImage { bytes: Uint8Array; format: ImageFormat; maxPixels: number }

export interface JobRequest {
  type: 'job';
  id: number;
  slug: string;
  /** The main image under `image`, others by field name. */
  images: Record<string, JobImage>;
  params: Record<string, unknown>;
  timeoutMs: number;
}

/** Stops a job whose requester has gone; the worker answers it as failed at its next step boundary. */
export interface CancelRequest { type: 'cancel'; id: number }

/** The worker's new port to the model host, after the host was replaced. */
export interface HostPortMessage { type: 'host'; port: MessagePort }

/** What the pool sends a worker. */
export type PoolMessage = JobRequest | CancelRequest | HostPortMessage;

export type WorkerMessage =
  /** The thread is up and takes jobs; it has loaded no model yet (they load when an effect first needs them). */
  | { type: 'ready' }
  | ({ type: 'model' } & ModelEvent)
  | { type: 'done'; id: number; output: EffectOutput }
  | { type: 'failed'; id: number; code: string; message: string };

export interface WorkerInit {
  effects: Record<string, string>;
  threads: number;
  /** The model host closes an ONNX network nothing has run for this long (0: never); see idle-nets.ts. */
  modelIdleMs?: number;
  /** ONNX networks the model host opens at its start (see EngineConfig.preloadModels). */
  preloadModels?: string[];
  /** Where the model host keeps optimised copies of networks (see optimized-models.ts). */
  optimizedModelDir?: string;
}

/** What a worker starts with: the pool's init and its port to the model host. */
export interface WorkerData extends WorkerInit { hostPort: MessagePort }
