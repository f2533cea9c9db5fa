/**
 * The engine's model host for a script (scripts/bench/steps.ts --host, bench:face-analyzer): the same thread
 * the pool starts (model-host.ts), with one link to it, so that ONNX networks run outside the script's thread
 * as they run outside a worker's and a speed script times an effect the way the engine runs it. In the
 * script's own thread onnxruntime-node runs a network synchronously, which leaves nothing to overlap with it.
 * Its CPU time is this process's.
 */
import { MessageChannel, Worker } from 'node:worker_threads';
import type { OnnxHost } from '../vision/models/onnx.ts';
import { HostLink } from './host-link.ts';
import type { HostConnect, HostInit, HostStop, HostStopped } from './host-protocol.ts';

export function scriptModelHost(init: HostInit): { host: OnnxHost; close(): Promise<void> } {
  const worker = new Worker(new URL('./model-host-entry.mjs', import.meta.url), { workerData: init });
  const { port1, port2 } = new MessageChannel();
  const connect: HostConnect = { type: 'connect', port: port1 };
  worker.postMessage(connect, [port1]);
  return {
    host: new HostLink(port2),
    // As the pool's close: terminating the host during a run aborts the process.
    async close() {
      await new Promise<void>((resolve) => {
        worker.on('message', (m: HostStopped) => { if (m.type === 'stopped') resolve(); });
        worker.once('exit', () => resolve());
        const stop: HostStop = { type: 'stop' };
        worker.postMessage(stop);
      });
      await worker.terminate();
    },
  };
}
