/** drainBody over a real socket: reads an unread body to its end, and stops at its byte and time bounds. */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { drainBody } from './drain.ts';

const servers: http.Server[] = [];
afterEach(async () => { await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r)))); });

/** A server that answers every request after draining it with the given bounds; resolves the outcome. */
async function drainingServer(maxBytes: number, maxMs: number) {
  const outcomes: boolean[] = [];
  const server = http.createServer(async (req, res) => {
    outcomes.push(await drainBody(req, maxBytes, maxMs));
    res.end('answered');
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, outcomes };
}

/** Sends a POST head announcing `length` bytes, then `sent` bytes of it; resolves what came back. */
function send(port: number, length: number, sent: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: ${length}\r\n\r\n`);
      socket.write(Buffer.alloc(sent, 1));
    });
    let out = '';
    socket.on('data', (d) => { out += d; });
    socket.on('error', () => {});
    socket.on('close', () => resolve(out));
  });
}

/** Sends a chunked POST of `total` bytes (no Content-Length) and resolves what came back. */
function sendChunked(port: number, total: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write('POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n');
      const chunk = Buffer.alloc(64 * 1024, 1);
      for (let sent = 0; sent < total; sent += chunk.length) socket.write(`${chunk.length.toString(16)}\r\n${chunk.toString('latin1')}\r\n`);
      socket.write('0\r\n\r\n');
    });
    let out = '';
    socket.on('data', (d) => { out += d; });
    socket.on('error', () => {});
    socket.on('close', () => resolve(out));
  });
}

describe('drainBody', () => {
  it('reads a body nobody read to its end, so the answer follows a complete request', async () => {
    const { port, outcomes } = await drainingServer(8 * 1024 * 1024, 5000);
    const out = await send(port, 3 * 1024 * 1024, 3 * 1024 * 1024);
    expect(out).toMatch(/^HTTP\/1\.1 200/);
    expect(out).toContain('answered');
    expect(outcomes).toEqual([true]);
  });

  it('stops at its byte bound when no length is declared', async () => {
    const { port, outcomes } = await drainingServer(1024 * 1024, 5000);
    await sendChunked(port, 4 * 1024 * 1024);
    expect(outcomes).toEqual([false]);
  });

  it('does not start when the declared length is over its byte bound', async () => {
    const { port, outcomes } = await drainingServer(1024 * 1024, 5000);
    const t0 = Date.now();
    const out = await send(port, 100 * 1024 * 1024, 64 * 1024);
    expect(outcomes).toEqual([false]);
    expect(out).toContain('answered');
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it('stops at its time bound when the client stalls', async () => {
    const { port, outcomes } = await drainingServer(8 * 1024 * 1024, 300);
    const t0 = Date.now();
    const out = await send(port, 1000, 10);
    expect(outcomes).toEqual([false]);
    expect(out).toContain('answered');
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it('returns at once for a request without a body', async () => {
    const { port, outcomes } = await drainingServer(1, 1);
    const res = await fetch(`http://127.0.0.1:${port}/`);
    expect(await res.text()).toBe('answered');
    expect(outcomes).toEqual([true]);
  });
});
