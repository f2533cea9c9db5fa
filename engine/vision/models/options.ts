/** How models are loaded in one worker; its own file so the loaders need not import the registry that calls them. */
export interface ModelOptions {
  /** Threads one model run may use (onnxruntime intra-op threads); ATELIER_MODEL_THREADS, by default all cores (see config.ts). */
  threads: number;
}
