/**
 * An ONNX network as the vision code sees it: named float tensors in, named float tensors out. Opened
 * in this thread (scripts, tests) or served by the model host (the engine's workers), which keeps one
 * onnxruntime session for all of them: each session holds its weights and its working memory (see openLocalOnnx), so one
 * per worker thread multiplied the engine's memory for no speed (inference already uses every core).
 */
import type { InferenceSession } from 'onnxruntime-node';
import { timeModel } from './clock.ts';

export interface OnnxTensor { data: Float32Array; dims: number[] }

export interface OnnxNet {
  run(feeds: Record<string, OnnxTensor>, outputs: string[]): Promise<Record<string, OnnxTensor>>;
}

/** Serves ONNX networks that live in another thread, by catalog id. */
export interface OnnxHost {
  /** Resolves once the host has the network loaded; rejects with the reason it could not load it. */
  open(id: string): Promise<OnnxNet>;
}

/** The options every session is opened with (scripts/bench/onnx-options.ts measures them against others). */
export function sessionOptions(threads: number): InferenceSession.SessionOptions {
  return {
    intraOpNumThreads: threads,
    // One graph, one run at a time: parallel execution only adds thread contention.
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    // The arena keeps the blocks a run allocated for the next run. Without it every run asks the OS for fresh
    // pages: ISNet at 1024 on 2 cores took 3.7 s a run against 1.5 s with it (issue 32), and 2.7 s against 1.1 s
    // is what the arena's first run costs over the next (2026-12-07). The memory pattern is off, as it makes the
    // arena hold a planned block beside the first run's for no speed
    // (docs/experiments/vision-core.md#onnxruntimes-memory-arena-on-memory-pattern-off).
    enableCpuMemArena: true,
    enableMemPattern: false,
    // Threads that spin between ops burn a core the engine's other threads (a worker's JS after the run) and
    // other processes need: on 2 cores sleeping costs less CPU and less wall time per run.
    extra: { session: { intra_op: { allow_spinning: '0' } } },
  };
}

/**
 * Opens a session in this thread, from the model's bytes or from a file (an optimised model saved
 * earlier). `saveOptimizedTo` has onnxruntime write the graph it optimised there, so a later open can
 * skip the optimisation (see engine/workers/optimized-models.ts). onnxruntime is imported here, only when
 * a network is opened.
 */
export async function openLocalOnnx(model: Uint8Array | string, threads: number, saveOptimizedTo?: string): Promise<OnnxNet & { release(): Promise<void> }> {
  const ort = await import('onnxruntime-node');
  const options = saveOptimizedTo ? { ...sessionOptions(threads), optimizedModelFilePath: saveOptimizedTo } : sessionOptions(threads);
  const session = typeof model === 'string' ? await ort.InferenceSession.create(model, options) : await ort.InferenceSession.create(model, options);
  return {
    async run(feeds, outputs) {
      const inputs = Object.fromEntries(Object.entries(feeds).map(([k, t]) => [k, new ort.Tensor('float32', t.data, t.dims)]));
      // Only the outputs asked for: graphs often expose side outputs that would be copied out for nothing.
      const out = await session.run(inputs, outputs);
      return Object.fromEntries(outputs.map((k) => [k, { data: out[k].data as Float32Array, dims: [...out[k].dims] }]));
    },
    /** Gives the session's weights and arena back to the system. */
    release: () => session.release(),
  };
}

/** The network by id: from the host when this thread has one, else opened here from `bytes`. */
export async function openOnnx(id: string, bytes: () => Promise<Uint8Array>, options: { threads: number; host?: OnnxHost }): Promise<OnnxNet> {
  const net = await (options.host ? options.host.open(id) : bytes().then((b) => openLocalOnnx(b, options.threads)));
  // Runs count on the model clock (bench scripts' per-step breakdown).
  return { run: (feeds, outputs) => timeModel(() => net.run(feeds, outputs)) };
}
