/** /metrics in Prometheus' text format, on an embedded engine: queue depth, running tasks, latency per endpoint, model state, readiness. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, startTestEngine, waitReady, type TestEngine } from '../test/helpers.ts';

let e: TestEngine;
beforeAll(async () => {
  e = await startTestEngine();
  await waitReady(e);
});
afterAll(async () => { await e?.close(); });

describe('GET /metrics', () => {
  it('answers without a key, with the engine\'s gauges and the latency of the requests it answered', async () => {
    await get(e, '/healthz', {});
    const res = await fetch(`${e.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/^atelier_queue_depth 0$/m);
    expect(text).toMatch(/^atelier_ready 1$/m);
    expect(text).toMatch(/^atelier_workers\{state="idle"\} 1$/m);
    expect(text).toMatch(/^atelier_model_state\{model="isnet-small",state="loadable"\} 1$/m);
    expect(text).toMatch(/^atelier_request_duration_seconds_count\{endpoint="\/healthz",method="GET",status="2xx"\} [1-9]\d*$/m);
  });
});
