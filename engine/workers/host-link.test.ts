/** The worker's side of the model host, against a host played by the test on the other end of a channel. */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { HostLink } from './host-link.ts';
import type { HostReply, HostRequest } from './host-protocol.ts';

/** A host that opens only `known` and answers a run with its input doubled, or never, when `silent`. */
function fakeHost(port: MessagePort, known: string, silent = false) {
  port.on('message', (m: HostRequest) => {
    let reply: HostReply;
    if (m.id !== known) reply = { type: 'failed', req: m.req, message: `${m.id} is not an ONNX network in the catalog` };
    else if (m.type === 'open') reply = { type: 'ok', req: m.req };
    else if (silent) return;
    else reply = { type: 'ok', req: m.req, outputs: { y: { data: m.feeds.x.data.map((v) => v * 2), dims: m.feeds.x.dims } } };
    port.postMessage(reply);
  });
}

const x = { data: new Float32Array([1, 2, 3]), dims: [1, 3] };

describe('HostLink', () => {
  it('opens a network in the host and runs it there', async () => {
    const { port1, port2 } = new MessageChannel();
    fakeHost(port1, 'net');
    const net = await new HostLink(port2).open('net');
    const out = await net.run({ x }, ['y']);
    expect([...out.y.data]).toEqual([2, 4, 6]);
    expect(out.y.dims).toEqual([1, 3]);
    port1.close();
  });

  it('rejects with the host\'s reason when the network cannot be opened', async () => {
    const { port1, port2 } = new MessageChannel();
    fakeHost(port1, 'net');
    await expect(new HostLink(port2).open('other')).rejects.toThrow('other is not an ONNX network');
    port1.close();
  });

  it('fails runs in flight when the host goes, and works again on the port to its successor', async () => {
    const first = new MessageChannel();
    fakeHost(first.port1, 'net', true);
    const link = new HostLink(first.port2);
    const net = await link.open('net');
    const inFlight = net.run({ x }, ['y']);
    first.port1.close();
    await expect(inFlight).rejects.toThrow('the model host stopped');

    const second = new MessageChannel();
    fakeHost(second.port1, 'net');
    link.connect(second.port2);
    expect([...(await net.run({ x }, ['y'])).y.data]).toEqual([2, 4, 6]);
    second.port1.close();
  });

  it('fails runs waiting on the old port when given a new one', async () => {
    const first = new MessageChannel();
    fakeHost(first.port1, 'net', true);
    const link = new HostLink(first.port2);
    const inFlight = (await link.open('net')).run({ x }, ['y']);
    const second = new MessageChannel();
    link.connect(second.port2);
    await expect(inFlight).rejects.toThrow('the model host was restarted');
    second.port1.close();
  });
});
