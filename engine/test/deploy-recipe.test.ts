/**
 * The deployment recipe (deploy/: Dockerfile, compose file, nginx, Kubernetes manifests) against the code it
 * deploys. Nothing here builds an image or starts a container (no Docker engine where the tests run); what
 * can drift is checked instead: every file parses; the commands are package.json's; every ATELIER_* variable
 * is one the program it is given to reads (found in the source, not listed here); the settings make a
 * cluster configuration the engine accepts; the probes and health checks name paths and ports a real engine
 * serves, with the answers a probe needs; the grace periods outlast the drain; autoscaling follows a gauge
 * that /metrics serves.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { configFromEnv } from '../config.ts';
import { startTestEngine, waitReady, type TestEngine } from './helpers.ts';

const root = path.resolve(import.meta.dirname, '../..');
const deploy = path.join(root, 'deploy');
const read = (rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');
const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string>; allowScripts: Record<string, boolean> };

type Doc = Record<string, any>; // YAML as read: shapes checked by the assertions

/** Every document of a YAML file; a syntax error or a warning (a duplicate key) fails. Compose's `<<` merges. */
function yamlDocs(rel: string): Doc[] {
  return parseAllDocuments(read(rel), { merge: true, uniqueKeys: true }).map((d) => {
    expect(d.errors.map((e) => e.message), rel).toEqual([]);
    expect(d.warnings.map((e) => e.message), rel).toEqual([]);
    return d.toJS() as Doc;
  }).filter((d) => d !== null);
}

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** ATELIER_* names a program's source reads from the environment (`env.X`, `env?.X`, `env['X']`), tests left out. */
function variablesRead(files: string[]): Set<string> {
  const names = new Set<string>();
  for (const f of files) {
    if (/\.test\.tsx?$/.test(f) || f.includes(`${path.sep}test${path.sep}`)) continue;
    for (const m of fs.readFileSync(f, 'utf8').matchAll(/\benv(?:\??\.|\[['"])(ATELIER_[A-Z0-9_]+)/g)) names.add(m[1]);
  }
  return names;
}
const engineSource = walk(path.join(root, 'engine')).filter((f) => /\.ts$/.test(f));
const engineReads = variablesRead(engineSource);
// The studio's server reads its own and, through configFromEnv, the engine's (it may start one).
const studioReads = new Set([...engineReads, ...variablesRead([path.join(root, 'proxy.config.ts'), path.join(root, 'scripts/dev/studio-server.ts')])]);
const atelierNames = (env: Record<string, unknown>) => Object.keys(env).filter((k) => k.startsWith('ATELIER_'));
/** A package.json command as the shell runs it: its leading `NAME=value` assignments, and the command's words. */
function shellCommand(script: string): { env: Record<string, string>; argv: string[] } {
  const words = script.trim().split(/\s+/), env: Record<string, string> = {};
  while (words.length && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) { const w = words.shift()!; env[w.slice(0, w.indexOf('='))] = w.slice(w.indexOf('=') + 1); }
  return { env, argv: words };
}
const engineScript = () => shellCommand(pkg.scripts.engine);
const studioScript = () => shellCommand(pkg.scripts.start.split('&&')[1]);

// --- the Dockerfile -------------------------------------------------------------------------------------

interface Instruction { op: string; args: string }
/** Instructions of the final stage (after the last FROM), continuation lines joined, comments dropped. */
function dockerfile(): { all: Instruction[]; final: Instruction[] } {
  const joined = read('deploy/Dockerfile').split('\n').filter((l) => !/^\s*#/.test(l)).join('\n').replace(/\\\n/g, ' ');
  const all = joined.split('\n').filter((l) => l.trim()).map((l) => {
    const [, op, args] = /^\s*([A-Z]+)\s+(.*)$/.exec(l) ?? [];
    expect(op, `Dockerfile line: ${l}`).toBeTruthy();
    return { op, args: args.trim() };
  });
  const lastFrom = all.map((i) => i.op).lastIndexOf('FROM');
  return { all, final: all.slice(lastFrom) };
}
const one = (ins: Instruction[], op: string) => {
  const found = ins.filter((i) => i.op === op);
  expect(found, op).toHaveLength(1);
  return found[0].args;
};
/** ENV's `A=b C=d` pairs. */
const envPairs = (args: string) => Object.fromEntries([...args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S+)/g)].map((m) => [m[1], m[2].replace(/^"|"$/g, '')]));
/** The image's ENV, under what compose adds. */
const imageEnv = (): Record<string, string> => Object.assign({}, ...dockerfile().final.filter((i) => i.op === 'ENV').map((i) => envPairs(i.args)));

// --- compose's interpolation ----------------------------------------------------------------------------

function dotEnv(rel: string): Record<string, string> {
  return Object.fromEntries(read(rel).split('\n').filter((l) => /^[A-Z_][A-Z0-9_]*=/.test(l)).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}
/** `${X}`, `${X:-default}`, `${X:?message}` as compose resolves them; a required variable missing fails. */
function interpolate(value: unknown, vars: Record<string, string>): string {
  return String(value).replace(/\$\{([A-Z_][A-Z0-9_]*)(?::([-?])([^}]*))?\}/g, (_, name: string, kind?: string, rest?: string) => {
    if (vars[name]) return vars[name];
    if (kind === '?') throw new Error(`\${${name}} is required (${rest}) and deploy/.env.example does not set it`);
    return kind === '-' ? rest ?? '' : '';
  });
}
const seconds = (d: string) => {
  const m = /^(\d+)(ms|s|m)$/.exec(d);
  if (!m) throw new Error(`not a compose duration: ${d}`);
  return Number(m[1]) * { ms: 0.001, s: 1, m: 60 }[m[2] as 'ms' | 's' | 'm'];
};

// --- a real engine, for the paths the probes name --------------------------------------------------------

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
  await waitReady(engine);
});
afterAll(async () => engine?.close());

async function status(p: string) {
  const res = await fetch(`${engine.url}${p}`);
  await res.arrayBuffer();
  return res.status;
}
/** What a probe of `p` sees while the engine drains (the flag the drain sets first). */
async function statusWhileDraining(p: string) {
  engine.app.services.closing = true;
  try {
    return await status(p);
  } finally {
    engine.app.services.closing = false;
  }
}

describe('deploy/: every file parses', () => {
  it('the YAML files (compose, Kubernetes, Helm values) are valid YAML without duplicate keys', () => {
    const files = walk(deploy).filter((f) => /\.ya?ml$/.test(f));
    expect(files.length).toBeGreaterThanOrEqual(6);
    for (const f of files) expect(yamlDocs(path.relative(root, f)).length, f).toBeGreaterThan(0);
  });

  it('each Kubernetes manifest document names its apiVersion, kind and metadata.name', () => {
    for (const f of walk(path.join(deploy, 'k8s')).filter((x) => /\.yaml$/.test(x) && !x.includes(`${path.sep}adapter${path.sep}`))) {
      for (const d of yamlDocs(path.relative(root, f))) {
        expect(d.apiVersion, f).toMatch(/^[a-z0-9.]*\/?v\d/);
        expect(d.kind, f).toMatch(/^[A-Z]/);
        expect(d.metadata?.name, f).toMatch(/^[a-z0-9-]+$/);
      }
    }
  });
});

describe('deploy/Dockerfile', () => {
  const { all, final } = dockerfile();

  it('runs package.json\'s engine script, node itself under tini (no npm relaying signals), with its environment', () => {
    expect(JSON.parse(one(final, 'CMD'))).toEqual(engineScript().argv);
    expect(JSON.parse(one(final, 'ENTRYPOINT'))[0]).toMatch(/tini$/);
    // What the scripts set before node (glibc's malloc tunables, read only at a process's start) the image sets too.
    expect(Object.keys(engineScript().env).length).toBeGreaterThan(0);
    expect(imageEnv()).toMatchObject(engineScript().env);
    expect(studioScript().env).toEqual(engineScript().env);
  });

  it('installs with npm ci under package.json\'s allowScripts (npm 11 reads it; onnxruntime-node stays denied)', () => {
    expect(pkg.allowScripts['onnxruntime-node']).toBe(false);
    const runs = all.filter((i) => i.op === 'RUN').map((i) => i.args);
    const ci = runs.find((r) => /\bnpm ci\b/.test(r));
    expect(ci).toBeDefined();
    expect(ci).toContain('--strict-allow-scripts');
    expect(ci).not.toMatch(/--ignore-scripts|--dangerously-allow-all-scripts/);
    const npm = runs.map((r) => /npm install -g npm@(\d+)\.(\d+)\.(\d+)/.exec(r)).find(Boolean);
    expect(npm, 'the Dockerfile pins npm').toBeTruthy();
    expect(Number(npm![1])).toBeGreaterThanOrEqual(11);
    // The studio's files: package.json's build, the first half of its start.
    expect(pkg.scripts.start.split('&&')[0].trim()).toBe(pkg.scripts.build);
    expect(runs).toContain('npm run build');
  });

  it('runs as a non-root user, its ATELIER_* settings are the engine\'s, and it listens where it says', () => {
    const user = final.filter((i) => i.op === 'USER').at(-1)?.args;
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    const env = imageEnv();
    for (const name of atelierNames(env)) expect(engineReads, name).toContain(name);
    const config = configFromEnv(env);
    expect(config.host).toBe('0.0.0.0'); // reachable from outside the container
    expect(one(final, 'EXPOSE')).toBe(String(config.port));
    expect(config.dataDir).toBe(JSON.parse(one(final, 'VOLUME'))[0]);
  });

  it('its HEALTHCHECK asks the readiness path on the engine\'s port, which answers 200, and 503 while draining', async () => {
    const check = one(final, 'HEALTHCHECK');
    const [, p] = /'(\/[a-z]+)'/.exec(check) ?? [];
    expect(p).toBeDefined();
    expect(check).toContain('process.env.ATELIER_ENGINE_PORT');
    expect(engineReads).toContain('ATELIER_ENGINE_PORT');
    expect(check).toContain(`|| ${configFromEnv({}).port}`);
    expect(await status(p)).toBe(200);
    expect(await statusWhileDraining(p)).toBe(503);
  });
});

describe('deploy/compose.yaml', () => {
  const [compose] = yamlDocs('deploy/compose.yaml');
  const vars = dotEnv('deploy/.env.example');
  const services = compose.services as Record<string, Doc>;
  const engines = Object.entries(services).filter(([, s]) => s.environment?.ATELIER_REDIS_URL !== undefined);
  const envOf = (s: Doc) => Object.fromEntries(Object.entries(s.environment as Record<string, unknown>).map(([k, v]) => [k, interpolate(v, vars)]));

  it('runs three engines, each with its own data volume, on one image built from deploy/Dockerfile', () => {
    expect(engines.map(([name]) => name).sort()).toEqual(['engine-1', 'engine-2', 'engine-3']);
    for (const [name, s] of engines) {
      expect(s.build, name).toEqual({ context: '..', dockerfile: 'deploy/Dockerfile' });
      expect(s.command, name).toBeUndefined(); // the image's CMD: package.json's engine script
      expect(s.volumes, name).toEqual([`${name}-data:/data`]);
    }
  });

  it('gives the engines only variables the engine reads, making a cluster configuration it accepts', () => {
    for (const [name, s] of engines) {
      const env = envOf(s);
      for (const v of atelierNames(env)) expect(engineReads, `${name}: ${v}`).toContain(v);
      const config = configFromEnv({ ...imageEnv(), ...env });
      expect(config.cluster?.redisUrl).toBe('redis://redis:6379');
      expect(config.cluster?.s3.endpoint).toMatch(/^http:\/\/s3:\d+$/);
      expect(config.cluster?.s3.forcePathStyle).toBe(true);
      expect(config.apiKeys.length).toBeGreaterThan(0);
      // Longer than the drain, which docker's default 10 s is not.
      expect(seconds(s.stop_grace_period) * 1000, name).toBeGreaterThan(config.drainTimeoutMs);
    }
  });

  it('keeps Redis append-only with no eviction, and the engines wait for Redis and the store', () => {
    const cmd = (services.redis.command as string[]).join(' ');
    expect(cmd).toMatch(/--appendonly yes\b/);
    expect(cmd).toMatch(/--maxmemory-policy noeviction\b/);
    for (const [name, s] of engines) expect(Object.keys(s.depends_on).sort(), name).toEqual(['redis', 's3']);
  });

  it('runs the studio with package.json\'s start command on the engines behind nginx, with a key the engines accept', () => {
    const studio = services.studio;
    expect(studio.command).toEqual(studioScript().argv);
    const env = envOf(studio);
    for (const v of atelierNames(env)) expect(studioReads, `studio: ${v}`).toContain(v);
    for (const [, s] of engines) expect(configFromEnv(envOf(s)).apiKeys).toContain(env.ATELIER_API_KEY);
    const conf = read('deploy/nginx.conf');
    // nginx's engine upstream: the three engines, on the port they listen on.
    const upstream = /upstream engines \{([^}]*)\}/.exec(conf)?.[1] ?? '';
    const port = configFromEnv({ ...imageEnv(), ...envOf(engines[0][1]) }).port;
    expect([...upstream.matchAll(/server ([\w-]+):(\d+);/g)].map((m) => `${m[1]}:${m[2]}`).sort()).toEqual(engines.map(([n]) => `${n}:${port}`).sort());
    // The studio's ATELIER_API_URL is nginx's server that proxies to that upstream.
    const api = new URL(env.ATELIER_API_URL);
    expect(api.hostname).toBe('proxy');
    const servers = conf.split(/\n\s*server \{/).slice(1);
    const apiServer = servers.find((s) => new RegExp(`listen ${api.port};`).test(s));
    expect(apiServer).toMatch(/proxy_pass http:\/\/engines;/);
    // The studio's own server is what nginx's other server proxies to.
    const studioServer = servers.find((s) => s !== apiServer);
    expect(studioServer).toContain(`proxy_pass http://studio:${env.ATELIER_STUDIO_PORT};`);
    expect(env.ATELIER_STUDIO_HOST).toBe('0.0.0.0');
  });
});

describe('deploy/k8s', () => {
  const manifests = walk(path.join(deploy, 'k8s')).filter((f) => /\.yaml$/.test(f)).flatMap((f) => yamlDocs(path.relative(root, f)));
  const find = (kind: string, dir = '') => {
    const docs = walk(path.join(deploy, 'k8s', dir)).filter((f) => /\.yaml$/.test(f) && (dir || path.dirname(f) === path.join(deploy, 'k8s')))
      .flatMap((f) => yamlDocs(path.relative(root, f))).filter((d) => d.kind === kind);
    expect(docs, kind).toHaveLength(1);
    return docs[0];
  };
  const deployment = find('Deployment');
  const pod = deployment.spec.template.spec;
  const container = pod.containers[0];
  /** The container's environment: its ConfigMap and Secret (envFrom), then its own env. */
  const env: Record<string, string> = Object.assign({},
    ...container.envFrom.map((from: Doc) => {
      const ref = from.configMapRef ?? from.secretRef;
      const kind = from.configMapRef ? 'ConfigMap' : 'Secret';
      const src = manifests.find((d) => d.kind === kind && d.metadata.name === ref.name);
      expect(src, `${kind} ${ref.name}`).toBeDefined();
      return kind === 'ConfigMap' ? src!.data : src!.stringData;
    }),
    Object.fromEntries((container.env ?? []).map((e: Doc) => [e.name, e.value])));
  const config = configFromEnv(env);
  const portOf = (p: string | number) => (typeof p === 'number' ? p : container.ports.find((x: Doc) => x.name === p)?.containerPort);

  it('runs the image\'s command (package.json\'s engine script) with only variables the engine reads, in cluster mode', () => {
    expect(container.command).toBeUndefined();
    expect(container.args).toBeUndefined();
    for (const v of atelierNames(env)) expect(engineReads, v).toContain(v);
    expect(config.cluster).toBeDefined();
    expect(config.apiKeys.length).toBeGreaterThan(0);
    expect(config.host).toBe('0.0.0.0');
    expect(portOf('http')).toBe(config.port);
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
  });

  it('its readiness probe asks a path on the engine\'s port that answers 200, and 503 while draining', async () => {
    const probe = container.readinessProbe.httpGet;
    expect(portOf(probe.port)).toBe(config.port);
    expect(await status(probe.path)).toBe(200);
    expect(await statusWhileDraining(probe.path)).toBe(503);
  });

  it('its liveness and startup probes ask a path that stays 200 while draining (liveness must not cut a drain)', async () => {
    for (const probe of [container.livenessProbe.httpGet, container.startupProbe.httpGet]) {
      expect(portOf(probe.port)).toBe(config.port);
      expect(await status(probe.path)).toBe(200);
      expect(await statusWhileDraining(probe.path)).toBe(200);
    }
  });

  it('gives a terminating pod longer than the preStop pause plus the engine\'s drain', () => {
    const pause = container.lifecycle?.preStop?.exec?.command;
    const pauseS = pause ? Number(pause[pause.indexOf('sleep') + 1]) : 0;
    expect(Number.isFinite(pauseS)).toBe(true);
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(pauseS * 1000 + config.drainTimeoutMs);
  });

  it('has a Service and a PodDisruptionBudget that select the engine pods', () => {
    const labels = deployment.spec.template.metadata.labels;
    const selects = (sel: Record<string, string>) => Object.entries(sel).every(([k, v]) => labels[k] === v);
    const service = find('Service');
    expect(selects(service.spec.selector)).toBe(true);
    expect(portOf(service.spec.ports[0].targetPort)).toBe(config.port);
    const pdb = find('PodDisruptionBudget');
    expect(selects(pdb.spec.selector.matchLabels)).toBe(true);
    expect(pdb.spec.maxUnavailable ?? pdb.spec.minAvailable).toBeDefined();
    expect(deployment.spec.template.metadata.annotations['prometheus.io/path']).toBe('/metrics');
  });

  it('autoscales on a queue-depth gauge that /metrics serves (HPA through prometheus-adapter, or KEDA)', async () => {
    const res = await fetch(`${engine.url}/metrics`);
    const metrics = await res.text();
    const gauges = new Set([...metrics.matchAll(/^# TYPE (\S+) gauge$/gm)].map((m) => m[1]));
    const hpa = find('HorizontalPodAutoscaler');
    expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: deployment.metadata.name });
    const metric = hpa.spec.metrics[0].external.metric.name;
    expect(gauges).toContain(metric);
    expect(metrics).toMatch(new RegExp(`^${metric} \\d+$`, 'm'));
    const [adapter] = yamlDocs('deploy/k8s/adapter/prometheus-adapter-values.yaml');
    const rule = adapter.rules.external.find((r: Doc) => r.name.as === metric);
    expect(rule?.seriesQuery).toMatch(new RegExp(`^${metric}\\{`));
    const keda = find('ScaledObject', 'keda');
    expect(keda.spec.scaleTargetRef.name).toBe(deployment.metadata.name);
    const query = keda.spec.triggers[0].metadata.query as string;
    expect(gauges).toContain(/(atelier_[a-z_]+)/.exec(query)?.[1]);
    // The Redis list the comment offers as the alternative is BullMQ's wait list of the engine's queue.
    const backend = read('engine/tasks/redis-backend.ts');
    const prefix = /const PREFIX = '([^']+)'/.exec(backend)?.[1];
    const queue = /const QUEUE_NAME = '([^']+)'/.exec(backend)?.[1];
    expect(read('deploy/k8s/keda/scaled-object.yaml')).toContain(`listName ${prefix}:${queue}:wait`);
  });
});
