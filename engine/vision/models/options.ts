/** How models are loaded in one worker; its own file so the loaders need not import the registry that calls them. */
import type { OnnxHost } from './onnx.ts';

export interface ModelOptions {
  /** Threads one model run may use (onnxruntime intra-op threads); ATELIER_MODEL_THREADS, by default all cores (see config.ts). */
  threads: number;
  /** Where ONNX networks run when not in this thread (the engine's model host); absent, they open here. */
  host?: OnnxHost;
}
