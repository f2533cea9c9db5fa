/**
 * Where a task poll's time goes, embedded and in cluster mode (issue 36): one embedded engine and one
 * cluster engine (Redis and Ceph's S3 gateway on loopback, as the cluster test starts them), each with
 * tasks in every state (done, processing, queued, and an id that does not exist), polled one at a time,
 * the two engines taking turns, every state in every turn. Each engine carries poll-probe.ts, which times
 * the stages of each poll inside it: arrival to the handler (routing, the onRequest hooks: closing guard,
 * envelope, metrics, auth), validation, the backend's `find`, and from there to the answer written (owner
 * check, result URLs, envelope, serialisation, onSend hooks). "outside" is the client's time less the
 * engine's: the loopback, and the wait for each process to be scheduled.
 *
 *   nice -n 19 npm run bench:cluster-poll [-- ROUNDS]      (300 rounds by default)
 *
 * ATELIER_BENCH_SERVICES=<file> uses services already up (a JSON file: { env, redisUrl, s3 }) instead.
 * ATELIER_BENCH_CLUSTER_ENV: JSON of further variables for the cluster engine (to compare settings).
 * Prints the p50 of each stage per engine and state, and the load average before and after; every process
 * it starts runs at this script's nice, Redis and Ceph included.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import {
  httpForm as form, httpGet as get, httpPost as post, type SharedServices, solidPng, spawnEngineProcess, startSharedServices,
  TEST_KEY, testDataDir, type TestEngine,
} from '../../engine/for-scripts.ts';

const ROUNDS = Number(process.argv[2] ?? 300);
const ASYNC = '/api/portrait/editing/ai-beard-removal';
const QUERY = '/api/common/query-async-task-result';
const PROBE = new URL('./poll-probe.ts', import.meta.url).pathname;
const STATES = ['done', 'processing', 'queued', 'none'] as const;
type State = (typeof STATES)[number];

const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const p50 = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

interface Probed { t0: number; handler?: number; findStart?: number; findEnd?: number; urls?: number; written?: number; status?: string }
interface Engine { name: string; e: TestEngine; child: ChildProcess; probeOut: string; output: () => string }

const given = process.env.ATELIER_BENCH_SERVICES;
const shared: Pick<SharedServices, 'env' | 'redisUrl' | 's3' | 'stop'> = given
  ? { ...JSON.parse(fs.readFileSync(given, 'utf8')), stop: async () => {} }
  : await startSharedServices(testDataDir('atelier-bench-poll-'));
const children: ChildProcess[] = [];
const started: Engine[] = [];
// The engines' queue, emptied before and after: a long task left active would be taken over by the next run's engine.
const redis = new Redis(shared.redisUrl, { maxRetriesPerRequest: null });
const tasksQueue = new Queue('tasks', { connection: redis, prefix: 'atelier' });
try {
  await tasksQueue.obliterate({ force: true });
  const dir = testDataDir('atelier-bench-poll-probes-');
  const start = async (name: string, env: Record<string, string>): Promise<Engine> => {
    const probeOut = path.join(dir, `${name}.json`);
    const { url, child, output } = await spawnEngineProcess(name, testDataDir(), TEST_KEY, { ATELIER_MAX_QUEUED_TASKS: '1000', ATELIER_POLL_PROBE_OUT: probeOut, ATELIER_TEST_PRELOAD: JSON.stringify([PROBE]), ...env }, children);
    const en = { name, e: { url } as TestEngine, child, probeOut, output };
    started.push(en);
    return en;
  };
  const extra = JSON.parse(process.env.ATELIER_BENCH_CLUSTER_ENV ?? '{}') as Record<string, string>;
  const engines = await Promise.all([start('embedded', {}), start('cluster', { ...shared.env, ...extra })]);
  console.log(`engines up; load average ${load()}`);

  // Each engine's tasks: three done (0.5 s each), one processing and two queued behind it (one worker, 300 s each).
  const ids = new Map<Engine, Record<State, string[]>>();
  const [small, long] = [await solidPng(5, 8), await solidPng(3000, 8)];
  const submit = async (en: Engine, image: Buffer) => {
    const r = await post(en.e, ASYNC, form({ image }));
    if (r.status !== 200) throw new Error(`${en.name}: submit answered ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.task_id as string;
  };
  const statusOf = async (en: Engine, id: string) => (await get(en.e, `${QUERY}?task_id=${id}`)).body.task_status as number;
  const until = async (en: Engine, id: string, status: number) => {
    // The first run of an effect in a worker compiles its modules: minutes on a loaded machine.
    for (let i = 0, now; (now = await statusOf(en, id)) !== status; i++) {
      if (i > 1200) throw new Error(`${en.name}: task ${id} is at status ${now}, never reached ${status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  for (const en of engines) {
    const done = [await submit(en, small), await submit(en, small), await submit(en, small)];
    for (const id of done) await until(en, id, 2);
    const processing = await submit(en, long);
    await until(en, processing, 1);
    const queued = [await submit(en, long), await submit(en, long)];
    for (const id of queued) if ((await statusOf(en, id)) !== 0) throw new Error(`${en.name}: ${id} is not queued`);
    ids.set(en, { done, processing: [processing], queued, none: [randomBytes(16).toString('hex')] });
  }

  console.log(`polling, ${ROUNDS} rounds; load average ${load()}`);
  const client = new Map<string, number[]>();
  for (let i = 0; i < ROUNDS; i++) {
    for (const en of i % 2 ? [...engines].reverse() : engines) {
      for (const state of STATES) {
        const list = ids.get(en)![state];
        const id = list[i % list.length];
        const t0 = performance.now();
        const r = await get(en.e, `${QUERY}?task_id=${id}`);
        const ms = performance.now() - t0;
        const want = state === 'none' ? 404 : 200;
        if (r.status !== want) throw new Error(`${en.name}: a poll of a ${state} task answered ${r.status}`);
        const key = `${en.name} ${state}`;
        client.set(key, [...(client.get(key) ?? []), ms]);
      }
    }
  }
  const after = load();

  const probed = new Map<string, Probed[]>();
  for (const en of engines) {
    en.child.kill('SIGUSR2');
    for (let i = 0; !fs.existsSync(en.probeOut); i++) {
      if (i > 100) throw new Error(`${en.name}: its probe wrote nothing`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const polls = JSON.parse(fs.readFileSync(en.probeOut, 'utf8')) as Probed[];
    // The last 4 x ROUNDS polls are the timed ones (the set-up's came first), in the order they were sent.
    const timed = polls.slice(-ROUNDS * STATES.length);
    for (const [j, p] of timed.entries()) {
      const key = `${en.name} ${STATES[j % STATES.length]}`;
      probed.set(key, [...(probed.get(key) ?? []), p]);
    }
  }
  const stage = (ps: Probed[], f: (p: Probed) => number | undefined) => {
    const xs = ps.map(f).filter((x): x is number => x !== undefined && Number.isFinite(x));
    return xs.length ? +p50(xs).toFixed(3) : null;
  };
  console.log(`[poll p50, ms; load average ${after} at the end] stages inside the engine, from the request's arrival`);
  const rows: Record<string, unknown>[] = [];
  for (const state of [...STATES, 'all'] as const) {
    for (const en of engines) {
      const keys = state === 'all' ? STATES.map((s) => `${en.name} ${s}`) : [`${en.name} ${state}`];
      const ps = keys.flatMap((k) => probed.get(k)!);
      const cs = keys.flatMap((k) => client.get(k)!);
      const outside = keys.flatMap((k) => client.get(k)!.map((c, j) => c - (probed.get(k)![j].written ?? NaN)));
      rows.push({
        state, engine: en.name, client: +p50(cs).toFixed(3), 'in engine': stage(ps, (p) => p.written),
        'to handler': stage(ps, (p) => p.handler), validation: stage(ps, (p) => (p.findStart ?? NaN) - (p.handler ?? NaN)),
        find: stage(ps, (p) => (p.findEnd ?? NaN) - (p.findStart ?? NaN)),
        'find to URLs': stage(ps, (p) => (p.urls === undefined ? undefined : p.urls - p.findEnd!)),
        'to written': stage(ps, (p) => (p.written ?? NaN) - (p.findEnd ?? NaN)), outside: +p50(outside).toFixed(3),
      });
    }
    const [e, c] = rows.slice(-2) as { client: number }[];
    rows.push({ state, engine: 'ratio', client: +(c.client / e.client).toFixed(2) });
  }
  console.table(rows);
} catch (err) {
  for (const en of started) console.error(`[${en.name}] ${en.output().slice(-3000)}`);
  throw err;
} finally {
  for (const c of children) c.kill('SIGKILL');
  await tasksQueue.obliterate({ force: true }).catch(() => {});
  await tasksQueue.close();
  redis.disconnect();
  await shared.stop();
}
process.exit(0);
