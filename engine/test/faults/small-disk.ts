/**
 * Test-only: a whole engine process (engine-process.ts) whose data folder is a small tmpfs of its own,
 * which the test fills and frees. The tmpfs is mounted inside a private mount namespace (`unshare -m` as
 * root, `unshare -Urm` otherwise, where unprivileged user namespaces are allowed), so no root is needed
 * where the kernel allows it, nothing is ever mounted on the host, and the mount goes away with the
 * process however the test ends. The test reaches the tmpfs through /proc/<pid>/root.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TEST_KEY, waitReady, type TestEngine } from '../helpers.ts';

const unshareFlags = process.getuid?.() === 0 ? ['-m'] : ['-Urm'];

/** Why a small disk cannot be made here, or undefined when it can (tried once, with a 1 MB tmpfs). */
export const smallDiskUnavailable: string | undefined = (() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atelier-probe-'));
  try {
    const r = spawnSync('unshare', [...unshareFlags, 'sh', '-c', 'mount -t tmpfs -o size=1m tmpfs "$1"', 'sh', dir], { encoding: 'utf8' });
    if (r.error) return `unshare could not run (${r.error.message})`;
    if (r.status !== 0) return `unshare ${unshareFlags.join(' ')} could not mount a tmpfs (${r.stderr.trim()}); run as root or allow unprivileged user namespaces`;
    return undefined;
  } finally {
    fs.rmdirSync(dir);
  }
})();

export interface SmallDiskEngine {
  e: TestEngine;
  child: ChildProcess;
  /** The tmpfs as the test sees it; the data folder is `data` in it. */
  root: string;
  dataDir: string;
  /** Whatever the engine wrote to stderr. */
  stderr: () => string;
  /** Whether the process is still running. */
  alive: () => boolean;
  /** Kills the process (the tmpfs goes with it) and removes the mount point. */
  stop: () => Promise<void>;
}

export async function startSmallDiskEngine(sizeMb: number, env: Record<string, string>): Promise<SmallDiskEngine> {
  const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'atelier-disk-'));
  const engine = new URL('../engine-process.ts', import.meta.url).pathname;
  // unshare and sh exec in turn, so the child's pid is the engine's.
  const child = spawn('unshare', [...unshareFlags, 'sh', '-c', `mount -t tmpfs -o size=${sizeMb}m tmpfs "$1" && exec "$2" --import tsx "$3"`,
    'sh', mountPoint, process.execPath, engine], {
    env: {
      ...process.env, ATELIER_DATA_DIR: path.join(mountPoint, 'data'), ATELIER_API_KEYS: TEST_KEY, ATELIER_ENGINE_PORT: '0',
      ATELIER_WORKERS: '1', ...env,
    },
    cwd: new URL('../../../', import.meta.url).pathname, // where `--import tsx` finds tsx
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => { err += d; });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const stop = async () => {
    if (alive()) child.kill('SIGKILL');
    await exited;
    fs.rmSync(mountPoint, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (d) => {
        out += d;
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      child.once('exit', (code, signal) => reject(new Error(`the engine exited (${code ?? signal}): ${out}${err}`)));
    });
    const root = `/proc/${child.pid}/root${mountPoint}`;
    const e = { url, dataDir: path.join(root, 'data') } as TestEngine;
    await waitReady(e);
    return { e, child, root, dataDir: e.dataDir, stderr: () => err, alive, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Fills the file system under `dir` to the last byte with a file `fill`, returning its path. */
export function fillDisk(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'fill');
  const fd = fs.openSync(file, 'w');
  try {
    for (const size of [1 << 20, 4096, 1]) {
      const chunk = Buffer.alloc(size, 1);
      for (;;) {
        try {
          if (fs.writeSync(fd, chunk) < size) break;
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw e;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return file;
}

const clockTicks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** CPU time (user + system, all threads) a process has used so far, from /proc. */
export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // from field 3 (state) on
  return (Number(fields[11]) + Number(fields[12])) / clockTicks; // utime, stime: fields 14 and 15
}
