/**
 * A model host in a script's own process, as the engine's pool starts one for its workers: the ONNX networks
 * run in their own thread (model-host.ts) while the script's thread goes on, so a speed script times an
 * effect the way the engine runs it (its tfjs work and its ONNX runs overlapping) rather than with every
 * ONNX run blocking the thread that asked for it. Its CPU time is this process's.
 */
import { MessageChannel, Worker } from 'node:worker_threads';
import { HostLink } from './host-link.ts';
import type { HostConnect, HostInit, HostStop, HostStopped } from './host-protocol.ts';
import type { OnnxHost } from '../vision/models/onnx.ts';

export function scriptModelHost(threads: number): { host: OnnxHost; close(): Promise<void> } {
  const init: HostInit = { threads, idleMs: 0, preload: [] };
  const worker = new Worker(new URL('./model-host-entry.mjs', import.meta.url), { workerData: init });
  const { port1, port2 } = new MessageChannel();
  worker.postMessage({ type: 'connect', port: port2 } satisfies HostConnect, [port2]);
  const host = new HostLink(port1);
  return {
    host,
    // As the pool's close: the host stops between runs, then the thread ends.
    async close() {
      await new Promise<void>((resolve) => {
        worker.on('message', (m: HostStopped) => { if (m.type === 'stopped') resolve(); });
        worker.once('exit', () => resolve());
        worker.postMessage({ type: 'stop' } satisfies HostStop);
      });
      await worker.terminate();
    },
  };
}
