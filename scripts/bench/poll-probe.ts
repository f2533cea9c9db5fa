/**
 * Loaded into an engine process by cluster-poll.ts (engine-process.ts's ATELIER_TEST_PRELOAD): times each stage of every task poll
 * the engine answers, from outside the engine's code (Node's and fastify's diagnostics channels, and a
 * wrapper put around the task backend's `find` and the base-URL resolver on the first poll). On SIGUSR2
 * it writes what it has to $ATELIER_POLL_PROBE_OUT as JSON: per poll, the answer's task_status (or 'none')
 * and, in ms from the request's arrival, when the handler began, `find` began and ended, the result URLs
 * were built, and the answer was written.
 */
import diagnostics from 'node:diagnostics_channel';
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';

const QUERY = '/api/common/query-async-task-result';
const out = process.env.ATELIER_POLL_PROBE_OUT;
if (!out) throw new Error('poll-probe: ATELIER_POLL_PROBE_OUT names no file');
interface Poll { t0: number; handler?: number; findStart?: number; findEnd?: number; urls?: number; written?: number; status?: string }
const polls: Poll[] = [];
const open = new WeakMap<IncomingMessage, Poll>();
let current: Poll | undefined;

diagnostics.subscribe('http.server.request.start', (msg) => {
  const { request } = msg as { request: IncomingMessage };
  if (!request.url?.startsWith(QUERY)) return;
  const p: Poll = { t0: performance.now() };
  open.set(request, p);
  polls.push(p);
});
diagnostics.subscribe('http.server.response.finish', (msg) => {
  const { request } = msg as { request: IncomingMessage; response: ServerResponse };
  const p = open.get(request);
  if (p) p.written = performance.now() - p.t0;
});

interface Services { tasks: { find(id: string): Promise<{ status: number } | undefined> }; baseUrl: (req: unknown) => string }
let wrapped = false;
diagnostics.tracingChannel('fastify.request.handler').subscribe({
  start(msg) {
    const { request } = msg as { request: { raw: IncomingMessage; server: { services: Services } } };
    const p = open.get(request.raw);
    if (!p) return;
    p.handler = performance.now() - p.t0;
    current = p;
    if (wrapped) return;
    wrapped = true;
    const { services } = request.server;
    const find = services.tasks.find.bind(services.tasks);
    // Polls are sent one at a time, so the poll under way is the one `current` names.
    services.tasks.find = async (id) => {
      const q = current!;
      q.findStart = performance.now() - q.t0;
      const row = await find(id);
      q.findEnd = performance.now() - q.t0;
      q.status = row ? String(row.status) : 'none';
      return row;
    };
    const baseUrl = services.baseUrl;
    services.baseUrl = (req) => {
      const r = baseUrl(req);
      if (current) current.urls = performance.now() - current.t0;
      return r;
    };
  },
  end() {}, asyncStart() {}, asyncEnd() {}, error() {},
});

process.on('SIGUSR2', () => fs.writeFileSync(out, JSON.stringify(polls)));
