/**
 * A worker's side of the model host: an OnnxHost whose networks run in the host thread. The pool gives
 * the worker a port at start and a new one if the host is replaced; requests in flight on a port that
 * closes fail, and the job that made them fails plainly.
 */
import type { MessagePort } from 'node:worker_threads';
import type { OnnxHost, OnnxNet, OnnxTensor } from '../vision/models/onnx.ts';
import type { HostCall, HostReply, HostRequest } from './host-protocol.ts';

type Waiting = { resolve: (r: Extract<HostReply, { type: 'ok' }>) => void; reject: (e: Error) => void };

export class HostLink implements OnnxHost {
  private port: MessagePort | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private nextReq = 1;

  constructor(port: MessagePort) { this.connect(port); }

  /** Takes a (new) port to the host; whatever waited on the old one has failed. */
  connect(port: MessagePort) {
    this.port?.close();
    this.failAll('the model host was restarted');
    this.port = port;
    port.on('message', (m: HostReply) => {
      const w = this.waiting.get(m.req);
      if (!w) return;
      this.waiting.delete(m.req);
      if (m.type === 'ok') w.resolve(m);
      else w.reject(new Error(m.message));
    });
    port.on('close', () => { if (this.port === port) this.failAll('the model host stopped'); });
    // A worker with nothing in flight must not be kept alive by its port alone.
    port.unref();
  }

  async open(id: string): Promise<OnnxNet> {
    await this.request({ type: 'open', id });
    return { run: (feeds, outputs) => this.run(id, feeds, outputs) };
  }

  private async run(id: string, feeds: Record<string, OnnxTensor>, outputs: string[]): Promise<Record<string, OnnxTensor>> {
    // Copied rather than transferred: the caller may still read its input.
    const reply = await this.request({ type: 'run', id, feeds, outputs });
    return reply.outputs ?? {};
  }

  private request(m: HostCall): Promise<Extract<HostReply, { type: 'ok' }>> {
    const port = this.port;
    if (!port) return Promise.reject(new Error('no model host'));
    const req = this.nextReq++;
    return new Promise((resolve, reject) => {
      this.waiting.set(req, { resolve, reject });
      port.ref();
      port.postMessage({ ...m, req } as HostRequest);
    }).finally(() => { if (this.waiting.size === 0) port.unref(); }) as Promise<Extract<HostReply, { type: 'ok' }>>;
  }

  private failAll(reason: string) {
    for (const w of this.waiting.values()) w.reject(new Error(reason));
    this.waiting.clear();
  }
}
