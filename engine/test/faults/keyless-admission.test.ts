/**
 * Issue 31.1: requests refused before their route runs (no key, no Host) and cut short by the client hold
 * no sync waiting place; a place is freed on every path, closed connections included.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { get, post, form, solidPng, startTestEngine, testInvertEffect, TEST_KEY, type TestEngine } from '../helpers.ts';

const FACE_BEAUTY = '/api/portrait/effects/face-beauty';
const engines: TestEngine[] = [];
afterEach(async () => { await Promise.all(engines.splice(0).map((e) => e.close())); });

/** A request that promises a 1000-byte multipart body, sends none of it and leaves after `leaveMs`. */
function cutShort(e: TestEngine, path: string, headers: string, leaveMs: number): Promise<void> {
  const { port } = new URL(e.url);
  return new Promise((resolve) => {
    const s = net.connect(Number(port), '127.0.0.1', () => {
      s.write(`POST ${path} HTTP/1.1\r\n${headers}Content-Type: multipart/form-data; boundary=B\r\nContent-Length: 1000\r\n\r\n`);
      setTimeout(() => s.destroy(), leaveMs);
    });
    s.on('error', () => {});
    s.on('close', () => resolve());
  });
}

describe('requests cut short before their answer', () => {
  for (const [what, headers] of [
    ['no key', 'Host: 127.0.0.1\r\n'],
    ['a wrong key', 'Host: 127.0.0.1\r\nservice-api-key: wrong\r\n'],
    ['a key but no Host header', `service-api-key: ${TEST_KEY}\r\n`],
  ] as const) {
    it(`with ${what} take no sync waiting place`, async () => {
      const e = await startTestEngine({ maxWaitingJobs: 4, extraEffects: { 'face-beauty': testInvertEffect } });
      engines.push(e);
      await Promise.all(Array.from({ length: 12 }, (_, i) => cutShort(e, FACE_BEAUTY, headers, i % 3 === 0 ? 1 : 50 + i * 10)));
      await new Promise((r) => setTimeout(r, 200));
      expect((await get(e, '/healthz', {})).body.workers.waiting).toBe(0);
      const ok = await post(e, FACE_BEAUTY, form({ image: await solidPng(40, 30) }));
      expect(ok.status).toBe(200);
    });
  }
});
