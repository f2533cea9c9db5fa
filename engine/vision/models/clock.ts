/**
 * The model clock: wall ms this thread spent waiting on model runs (ONNX, here or in the model host, and
 * Human's tfjs), so that per-step timing (engine/pipeline/timing.ts) can tell models' time from the rest.
 */

let modelMs = 0;
let depth = 0;

/**
 * Runs `fn` as model time: its wall ms is added to the model clock once, however it nests (an ONNX run
 * inside a timed face search counts once); a run that starts while another is timed is part of that one.
 */
export async function timeModel<T>(fn: () => Promise<T> | T): Promise<T> {
  if (depth > 0) return fn();
  depth++;
  const t = performance.now();
  try {
    return await fn();
  } finally {
    modelMs += performance.now() - t;
    depth--;
  }
}

/** Model wall ms so far in this thread (take differences). */
export const modelClock = (): number => modelMs;
