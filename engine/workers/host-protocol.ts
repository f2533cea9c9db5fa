/** Messages between worker threads and the model host, over one MessagePort per worker. */
import type { MessagePort } from 'node:worker_threads';
import type { OnnxTensor } from '../vision/models/onnx.ts';

export type HostRequest =
  | { type: 'open'; req: number; id: string }
  | { type: 'run'; req: number; id: string; feeds: Record<string, OnnxTensor>; outputs: string[] };

/** A request before the link numbers it. */
export type HostCall = HostRequest extends infer R ? R extends HostRequest ? Omit<R, 'req'> : never : never;

export type HostReply =
  | { type: 'ok'; req: number; outputs?: Record<string, OnnxTensor> }
  | { type: 'failed'; req: number; message: string };

/** What the pool sends the host: a new worker's end of its channel, or, at close, a request to stop. */
export interface HostConnect { type: 'connect'; port: MessagePort }
/** Start no more runs; answer `stopped` once the one under way has finished (see pool.ts close()). */
export interface HostStop { type: 'stop' }
export type HostControl = HostConnect | HostStop;
/** What the host sends the pool: that it has stopped, or where a network it preloads stands. */
export interface HostStopped { type: 'stopped' }
export type HostModelEvent = { type: 'model'; id: string; state: 'loading' | 'loaded' } | { type: 'model'; id: string; state: 'failed'; message: string };

export interface HostInit {
  threads: number;
  idleMs: number;
  preload: string[];
  /** Where optimised copies of networks are kept (see optimized-models.ts); none kept without it. */
  optimizedDir?: string;
}
