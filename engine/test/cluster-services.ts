/**
 * Test-only: the services a cluster of engines shares, started for real on loopback in a temporary folder:
 * redis-server, and Ceph's RADOS Gateway as the S3 store (one monitor, one OSD on a 4 GB sparse file,
 * no auth, pools of one copy). Every daemon runs in the foreground in its own session (detached), so
 * stopping it stops it alone; the gateway is stopped first, then the OSD, then the monitor. Missing
 * programs are an error that names the packages to install, never a skip.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const PACKAGES = 'apt-get install -y --no-install-recommends redis-server ceph-mon ceph-osd radosgw';
const PROGRAMS = ['redis-server', 'ceph-mon', 'ceph-osd', 'radosgw', 'monmaptool', 'ceph', 'radosgw-admin'];

/** Fails with the install command when a program the cluster test needs is not on the PATH. */
export function requirePrograms() {
  const dirs = (process.env.PATH ?? '').split(':').concat(['/usr/sbin', '/usr/bin', '/sbin']);
  const missing = PROGRAMS.filter((p) => !dirs.some((d) => { try { fs.accessSync(path.join(d, p), fs.constants.X_OK); return true; } catch { return false; } }));
  if (missing.length) {
    throw new Error(`the cluster test needs ${missing.join(', ')}, which are not installed; as root: ${PACKAGES} (.ci/run does this)`);
  }
}

/**
 * A free loopback port below the kernel's range for outgoing connections: a daemon binds it seconds (under load,
 * minutes) after this check, and a port from that range could meanwhile be taken as the local end of any
 * connection the tests beside it open.
 */
export async function freePort(): Promise<number> {
  const [low] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
  const top = Number.isFinite(low) && low > 12_000 ? low : 32_768;
  for (let i = 0; i < 100; i++) {
    const port = top - 10_000 + Math.floor(Math.random() * 10_000);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free loopback port found between ${top - 10_000} and ${top}`);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

interface Daemon { name: string; child: ChildProcess; exited: Promise<void> }

function push(daemons: Daemon[], d: Daemon): Daemon {
  daemons.push(d);
  return d;
}

export function daemon(name: string, cmd: string, args: string[], logDir: string): Daemon {
  const log = fs.openSync(path.join(logDir, `${name}.out`), 'a');
  const child = spawn(cmd, args, { detached: true, stdio: ['ignore', log, log] });
  fs.closeSync(log);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return { name, child, exited };
}

export async function stopDaemon(d: Daemon) {
  if (d.child.exitCode !== null || d.child.signalCode !== null) return;
  d.child.kill('SIGTERM');
  const timer = setTimeout(() => d.child.kill('SIGKILL'), 10_000);
  await d.exited;
  clearTimeout(timer);
}

function run(cmd: string, args: string[], timeoutMs = 60_000): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: timeoutMs });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal}): ${r.stderr || r.stdout}`);
  return r.stdout;
}

async function until<T>(what: string, fn: () => Promise<T | undefined> | T | undefined, timeoutMs: number, logs: string[] = []): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (err) { last = err; }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} did not happen within ${timeoutMs / 1000} s${last ? `: ${last instanceof Error ? last.message : last}` : ''}${logs.map((f) => logTail(f)).join('')}`);
}

/** The last lines of a daemon's log, for an error that says why it did not come up. */
function logTail(file: string, lines = 25): string {
  let text: string;
  try { text = fs.readFileSync(file, 'utf8'); } catch { return `\n--- ${file}: none`; }
  return `\n--- ${file} (last ${lines} lines)\n${text.trimEnd().split('\n').slice(-lines).join('\n')}`;
}

export interface SharedServices {
  redisUrl: string;
  s3: { endpoint: string; bucket: string; accessKeyId: string; secretAccessKey: string };
  /** Environment that puts an engine in cluster mode on these services. */
  env: Record<string, string>;
  stop(): Promise<void>;
  /** Each daemon's process id by name (redis, ceph-mon, ceph-osd, radosgw). */
  pids: Record<string, number>;
}

/** Starts Redis and a one-OSD Ceph with its S3 gateway under `dir`; answers once both take requests. */
export async function startSharedServices(dir: string): Promise<SharedServices> {
  requirePrograms();
  const daemons: Daemon[] = [];
  const stop = async () => { for (const d of daemons.reverse()) await stopDaemon(d); };
  try {
    const redisPort = await freePort();
    daemons.push(daemon('redis', 'redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], dir));
    const ceph = await startCeph(path.join(dir, 'ceph'), daemons);
    await until('redis-server to answer', () => pingRedis(redisPort), 15_000);
    const s3 = { endpoint: ceph.endpoint, bucket: 'atelier-test', accessKeyId: 'atelier-test', secretAccessKey: 'atelier-test-secret' };
    run('radosgw-admin', ['-c', ceph.conf, 'user', 'create', '--uid=atelier-test', '--display-name=atelier-test', `--access-key=${s3.accessKeyId}`, `--secret-key=${s3.secretAccessKey}`]);
    const redisUrl = `redis://127.0.0.1:${redisPort}`;
    return {
      redisUrl, s3, stop, pids: Object.fromEntries(daemons.map((d) => [d.name, d.child.pid!])),
      env: {
        ATELIER_REDIS_URL: redisUrl, ATELIER_S3_ENDPOINT: s3.endpoint, ATELIER_S3_BUCKET: s3.bucket, ATELIER_S3_REGION: 'us-east-1',
        ATELIER_S3_ACCESS_KEY_ID: s3.accessKeyId, ATELIER_S3_SECRET_ACCESS_KEY: s3.secretAccessKey, ATELIER_S3_FORCE_PATH_STYLE: '1',
      },
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function startCeph(dir: string, daemons: Daemon[]): Promise<{ conf: string; endpoint: string }> {
  for (const d of ['mon', 'osd', 'run', 'log', 'rgw']) fs.mkdirSync(path.join(dir, d), { recursive: true });
  const monPort = await freePort();
  const fsid = randomUUID();
  const conf = path.join(dir, 'ceph.conf');
  fs.writeFileSync(conf, `[global]
fsid = ${fsid}
mon host = v1:127.0.0.1:${monPort}
public addr = 127.0.0.1
ms bind msgr2 = false
auth cluster required = none
auth service required = none
auth client required = none
keyring = /dev/null
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool size one = true
mon warn on pool no redundancy = false
run dir = ${dir}/run
admin socket = ${dir}/run/$name.asok
pid file = ${dir}/run/$name.pid
log file = ${dir}/log/$name.log
mon data = ${dir}/mon
osd data = ${dir}/osd
osd objectstore = bluestore
bluestore block create = true
bluestore block size = 4294967296
osd memory target = 536870912
[client.rgw]
rgw data = ${dir}/rgw
`);
  run('monmaptool', ['--create', '--addv', 'a', `[v1:127.0.0.1:${monPort}]`, '--fsid', fsid, path.join(dir, 'monmap')]);
  run('ceph-mon', ['-c', conf, '-i', 'a', '--mkfs', '--monmap', path.join(dir, 'monmap')]);
  daemons.push(daemon('ceph-mon', 'ceph-mon', ['-c', conf, '-i', 'a', '-f'], dir));
  const uuid = randomUUID();
  const id = await until('the Ceph monitor to answer', () => run('ceph', ['-c', conf, '--connect-timeout', '5', 'osd', 'new', uuid]).trim(), 60_000,
    [path.join(dir, 'ceph-mon.out'), path.join(dir, 'log/mon.a.log')]);
  // Making the OSD's 4 GB BlueStore took over 60 s on the 2-core machine under load 20 (niced).
  run('ceph-osd', ['-c', conf, '-i', id, '--mkfs', '--osd-uuid', uuid], 240_000);
  const osdLogs = [path.join(dir, 'ceph-osd.out'), path.join(dir, `log/osd.${id}.log`)];
  await startReady('the Ceph OSD to come up', () => push(daemons, daemon('ceph-osd', 'ceph-osd', ['-c', conf, '-i', id, '-f'], dir)),
    () => (/"num_up_osds":1/.test(run('ceph', ['-c', conf, 'osd', 'stat', '-f', 'json']).replace(/\s/g, '')) ? true : undefined), 150_000, osdLogs);
  let endpoint = '';
  await startReady('the RADOS Gateway to answer', async () => {
    const port = await freePort();
    endpoint = `http://127.0.0.1:${port}`;
    return push(daemons, daemon('radosgw', 'radosgw', ['-c', conf, '-n', 'client.rgw', '-f', '--rgw-frontends', `beast endpoint=127.0.0.1:${port}`], dir));
  }, async () => ((await fetch(endpoint)).ok ? true : undefined), 150_000, [path.join(dir, 'radosgw.out'), path.join(dir, 'log/client.rgw.log')]);
  return { conf, endpoint };
}

/**
 * Starts a daemon and waits until `ready` answers. One that exits before that is started again, twice at most:
 * on the 2-core machine a fresh OSD has once exited at start on a command the monitor refused ('wrong fsid'),
 * and a gateway whose port is taken exits too.
 */
export async function startReady<T>(what: string, start: () => Promise<Daemon> | Daemon, ready: () => Promise<T | undefined> | T | undefined, timeoutMs: number, logs: string[]): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const d = await start();
    const exited = Symbol('exited');
    const state = await until(what, async () => (d.child.exitCode !== null || d.child.signalCode !== null ? exited : await ready()), timeoutMs, logs);
    if (state !== exited) return state as T;
    if (attempt === 3) throw new Error(`${what} did not happen: it exited ${attempt} times${logs.map((f) => logTail(f)).join('')}`);
  }
}

async function pingRedis(port: number): Promise<true | undefined> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('error', () => resolve(undefined));
    s.once('data', (d) => { s.destroy(); resolve(d.toString().startsWith('+PONG') ? true : undefined); });
    s.write('PING\r\n');
  });
}

/**
 * An engine in a process of its own (engine-process.ts) on a free loopback port, one worker, the slow test
 * effects for face beauty and beard removal, `env` over the defaults; resolves once it listens. `output()`
 * is what it has printed so far. The process goes into `children` at once, so a caller can kill one that
 * never comes up.
 */
export async function spawnEngineProcess(name: string, dataDir: string, key: string, env: Record<string, string>, children: ChildProcess[]): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./engine-process.ts', import.meta.url).pathname], {
    env: {
      ...process.env, ATELIER_DATA_DIR: dataDir, ATELIER_API_KEYS: key, ATELIER_ENGINE_PORT: '0', ATELIER_WORKERS: '1',
      ATELIER_LOG_LEVEL: 'warn', ATELIER_PRELOAD_MODELS: '', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ATELIER_TEST_EFFECTS: JSON.stringify({ 'face-beauty': 'test-slow', 'ai-beard-removal': 'test-slow' }), ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stderr!.on('data', (d) => { out += d; });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`engine ${name} exited (${code}): ${out}`)));
  });
  return { url, child, output: () => out };
}
